package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/store"
)

var _ dataset.PartFiller = (*Store)(nil)

// FillParts writes the parts the store does not hold (store.FillParts).
// Like an import it goes through the one writer connection and begins
// IMMEDIATE, so that it takes turns with every import from this and other
// processes. It returns an error with code Invalid, and stores nothing, if
// a part cannot be filled.
func (s *Store) FillParts(ctx context.Context, floor int64, parts []dataset.StoredPart) (int, error) {
	var n int
	err := s.update(ctx, func(tx *sql.Tx) error {
		var err error
		n, err = store.FillParts(ctx, fillTx{partTx{tx: tx}}, s.now, floor, parts)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: fill parts: %w", err)
	}
	return n, nil
}

// fillTx is a transaction as store.FillParts uses it.
type fillTx struct{ partTx }

func (f fillTx) InsertParts(ctx context.Context, parts []dataset.StoredPart) (int, error) {
	insert, err := f.tx.PrepareContext(ctx, `INSERT INTO parts
		(dataset, id, version, written, records, data, first_time, last_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (dataset, id) DO NOTHING`)
	if err != nil {
		return 0, err
	}
	defer insert.Close()
	n := 0
	for _, sp := range parts {
		first, last := store.Span(sp)
		res, err := insert.ExecContext(ctx, sp.Dataset, sp.ID, sp.Version, sp.Written.UnixMicro(), int64(sp.Records), sp.Data, first, last)
		if err != nil {
			return 0, err
		}
		added, err := res.RowsAffected()
		if err != nil {
			return 0, err
		}
		n += int(added)
	}
	return n, nil
}

func (f fillTx) SetVersion(ctx context.Context, v int64, at time.Time) error {
	_, err := f.tx.ExecContext(ctx, `UPDATE versions SET version = ?, updated = ? WHERE name = 'data'`, v, at.UnixMicro())
	return err
}
