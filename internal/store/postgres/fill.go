package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/store"
	"github.com/jackc/pgx/v5"
)

var _ dataset.PartFiller = (*Store)(nil)

// FillParts writes the parts the store does not hold (store.FillParts).
// Its transaction first takes the import lock, as every import's does, so
// that it takes turns with imports from any process. Like an import, it
// sends no notification: replicas see a raised data version when they
// poll. It returns an error with code Invalid, and stores nothing, if a
// part cannot be filled.
func (s *Store) FillParts(ctx context.Context, floor int64, parts []dataset.StoredPart) (int, error) {
	var n int
	err := s.update(ctx, func(tx pgx.Tx) error {
		if err := lockImports(ctx, tx); err != nil {
			return err
		}
		var err error
		n, err = store.FillParts(ctx, fillTx{partTx{tx: tx}}, s.now, floor, parts)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("postgres: fill parts: %w", err)
	}
	return n, nil
}

// fillTx is a transaction as store.FillParts uses it.
type fillTx struct{ partTx }

func (f fillTx) InsertParts(ctx context.Context, parts []dataset.StoredPart) (int, error) {
	var b pgx.Batch
	for _, sp := range parts {
		first, last := store.Span(sp)
		b.Queue(`INSERT INTO parts (dataset, id, version, written, records, data, first_time, last_time)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (dataset, id) DO NOTHING`,
			sp.Dataset, sp.ID, sp.Version, sp.Written, sp.Records, sp.Data, first, last)
	}
	br := f.tx.SendBatch(ctx, &b)
	n := 0
	for range parts {
		tag, err := br.Exec()
		if err != nil {
			br.Close()
			return 0, err
		}
		n += int(tag.RowsAffected())
	}
	return n, br.Close()
}

func (f fillTx) SetVersion(ctx context.Context, v int64, at time.Time) error {
	_, err := f.tx.Exec(ctx, `UPDATE versions SET version = $1, updated = $2 WHERE name = 'data'`, v, at)
	return err
}
