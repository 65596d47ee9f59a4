package postgres

import (
	"context"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/store"
	"github.com/jackc/pgx/v5"
)

// InsertParts implements store.FillTx, in one batch.
func (p partTx) InsertParts(ctx context.Context, parts []dataset.StoredPart) (int, error) {
	var b pgx.Batch
	for _, sp := range parts {
		first, last := store.Span(sp)
		b.Queue(`INSERT INTO parts (dataset, id, version, written, records, data, first_time, last_time)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (dataset, id) DO NOTHING`,
			sp.Dataset, sp.ID, sp.Version, sp.Written, sp.Records, sp.Data, first, last)
	}
	br := p.tx.SendBatch(ctx, &b)
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
