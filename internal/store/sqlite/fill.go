package sqlite

import (
	"context"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/store"
)

// InsertParts implements store.FillTx, one prepared statement for every
// part.
func (p partTx) InsertParts(ctx context.Context, parts []dataset.StoredPart) (int, error) {
	insert, err := p.tx.PrepareContext(ctx, `INSERT INTO parts
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
