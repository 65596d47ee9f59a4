package sqlite

import (
	"context"
	"database/sql"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/store"
)

// fillSpans is the Go step of migration 5: it decodes the span of every
// stored part version into the temporary table part_spans, which the
// migration's SQL copies into the new columns and drops.
func fillSpans(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `CREATE TEMP TABLE part_spans (
		dataset TEXT NOT NULL, id TEXT NOT NULL, version INTEGER NOT NULL,
		first_time INTEGER NOT NULL, last_time INTEGER NOT NULL,
		PRIMARY KEY (dataset, id, version))`); err != nil {
		return err
	}
	return store.FillSpans(ctx, spanTx{tx})
}

type spanTx struct{ tx *sql.Tx }

func (s spanTx) Versions(ctx context.Context) ([]dataset.StoredPart, error) {
	return store.QueryAll(ctx, conn{s.tx}, func(row store.Row) (sp dataset.StoredPart, err error) {
		err = row.Scan(&sp.Dataset, &sp.ID, &sp.Version)
		return sp, err
	}, `SELECT dataset, id, version FROM parts
		UNION ALL SELECT dataset, id, version FROM part_history`)
}

func (s spanTx) Data(ctx context.Context, ref dataset.PartRef, version int64) ([]byte, error) {
	var b []byte
	err := s.tx.QueryRowContext(ctx, `SELECT data FROM parts WHERE dataset = ?1 AND id = ?2 AND version = ?3
		UNION ALL SELECT data FROM part_history WHERE dataset = ?1 AND id = ?2 AND version = ?3 LIMIT 1`,
		ref.Dataset, ref.ID, version).Scan(&b)
	return b, err
}

func (s spanTx) KeepSpan(ctx context.Context, ref dataset.PartRef, version, first, last int64) error {
	_, err := s.tx.ExecContext(ctx, `INSERT INTO part_spans (dataset, id, version, first_time, last_time)
		VALUES (?, ?, ?, ?, ?)`, ref.Dataset, ref.ID, version, first, last)
	return err
}
