package postgres

import (
	"context"
	"fmt"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/jackc/pgx/v5"
)

// DataVersion returns a number that changes whenever an import commits a
// change to the served data.
func (s *Store) DataVersion(ctx context.Context) (int64, error) {
	v, err := s.readVersion(ctx, "data")
	if err != nil {
		return 0, fmt.Errorf("postgres: data version: %w", err)
	}
	return v, nil
}

// ImportTotals sums the committed imports of each dataset that has any, by
// dataset name.
func (s *Store) ImportTotals(ctx context.Context) ([]energy.ImportTotal, error) {
	// sum(bigint) is numeric in PostgreSQL; the cast brings it back to int64.
	rows, err := s.pool.Query(ctx, `SELECT dataset, count(*), sum(rows_read)::bigint, max(finished)
		FROM import_runs GROUP BY dataset ORDER BY dataset`)
	if err != nil {
		return nil, fmt.Errorf("postgres: import totals: %w", err)
	}
	var ts []energy.ImportTotal
	var t energy.ImportTotal
	_, err = pgx.ForEachRow(rows, []any{&t.Dataset, &t.Runs, &t.Rows, &t.Last}, func() error {
		t.Last = t.Last.UTC()
		ts = append(ts, t)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: import totals: %w", err)
	}
	return ts, nil
}
