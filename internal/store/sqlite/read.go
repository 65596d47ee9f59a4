package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// DataVersion returns a number that changes whenever an import commits a
// change to the served data.
func (s *Store) DataVersion(ctx context.Context) (int64, error) {
	v, err := readVersion(ctx, s.r, "data")
	if err != nil {
		return 0, fmt.Errorf("sqlite: data version: %w", err)
	}
	return v, nil
}

// ImportTotals sums the committed imports of each dataset that has any, by
// dataset name.
func (s *Store) ImportTotals(ctx context.Context) ([]energy.ImportTotal, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT dataset, count(*), sum(rows_read), max(finished)
		FROM import_runs GROUP BY dataset ORDER BY dataset`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: import totals: %w", err)
	}
	defer rows.Close()
	var ts []energy.ImportTotal
	for rows.Next() {
		var t energy.ImportTotal
		var last int64
		if err := rows.Scan(&t.Dataset, &t.Runs, &t.Rows, &last); err != nil {
			return nil, fmt.Errorf("sqlite: import totals: %w", err)
		}
		t.Last = time.UnixMicro(last).UTC()
		ts = append(ts, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: import totals: %w", err)
	}
	return ts, nil
}
