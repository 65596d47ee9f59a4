package postgres

import (
	"context"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/store"
	"github.com/jackc/pgx/v5"
)

// fillSpans is the Go step of migration 5: it decodes the span of every
// stored part version into the temporary table part_spans, which the
// migration's SQL copies into the new columns and drops.
func fillSpans(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, `CREATE TEMP TABLE part_spans (
		dataset text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL, version bigint NOT NULL,
		first_time bigint NOT NULL, last_time bigint NOT NULL,
		PRIMARY KEY (dataset, id, version)) ON COMMIT DROP`); err != nil {
		return err
	}
	return store.FillSpans(ctx, spanTx{tx})
}

type spanTx struct{ tx pgx.Tx }

func (s spanTx) Versions(ctx context.Context) ([]dataset.StoredPart, error) {
	rows, err := s.tx.Query(ctx, `SELECT dataset, id, version FROM parts
		UNION ALL SELECT dataset, id, version FROM part_history`)
	if err != nil {
		return nil, err
	}
	var out []dataset.StoredPart
	var sp dataset.StoredPart
	_, err = pgx.ForEachRow(rows, []any{&sp.Dataset, &sp.ID, &sp.Version}, func() error {
		out = append(out, sp)
		return nil
	})
	return out, err
}

func (s spanTx) Data(ctx context.Context, ref dataset.PartRef, version int64) ([]byte, error) {
	var b []byte
	err := s.tx.QueryRow(ctx, `SELECT data FROM parts WHERE dataset = $1 AND id = $2 AND version = $3
		UNION ALL SELECT data FROM part_history WHERE dataset = $1 AND id = $2 AND version = $3 LIMIT 1`,
		ref.Dataset, ref.ID, version).Scan(&b)
	return b, err
}

func (s spanTx) KeepSpan(ctx context.Context, ref dataset.PartRef, version, first, last int64) error {
	_, err := s.tx.Exec(ctx, `INSERT INTO part_spans (dataset, id, version, first_time, last_time)
		VALUES ($1, $2, $3, $4, $5)`, ref.Dataset, ref.ID, version, first, last)
	return err
}
