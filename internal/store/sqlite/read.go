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
	ts, err := queryRows(ctx, s.r, func(row scanner) (t energy.ImportTotal, err error) {
		var last int64
		err = row.Scan(&t.Dataset, &t.Runs, &t.Rows, &last)
		t.Last = time.UnixMicro(last).UTC()
		return t, err
	}, `SELECT dataset, count(*), sum(rows_read), max(finished)
		FROM import_runs GROUP BY dataset ORDER BY dataset`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: import totals: %w", err)
	}
	return ts, nil
}
