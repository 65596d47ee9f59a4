package postgres

import (
	"context"
	"fmt"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
	"github.com/jackc/pgx/v5"
)

// ImportThermoelectric upserts recs on their natural key in one transaction.
// It returns an error with code Invalid, and stores nothing, if
// store.PrepareThermo refuses recs.
func (s *Store) ImportThermoelectric(ctx context.Context, recs []energy.ThermoRecord) (energy.ImportStats, error) {
	started := s.now()
	sorted, err := store.PrepareThermo(recs)
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("postgres: import thermoelectric: %w", err)
	}
	var st energy.ImportStats
	err = s.update(ctx, func(tx pgx.Tx) error {
		if err := lockImports(ctx, tx); err != nil {
			return err
		}
		stored, err := storedThermo(ctx, tx, store.ThermoYears(sorted))
		if err != nil {
			return err
		}
		var fresh, changed [][]any // rows as COPY sends them
		st, err = store.DiffThermo(sorted, stored, func(r energy.ThermoRecord, c store.Change) error {
			// PrepareThermo has checked that the year fits the integer column.
			row := []any{int32(r.Year), r.CapacityType, r.Region, r.Province, r.Category, r.Subcategory, r.ProductionGWh}
			if c == store.Inserted {
				fresh = append(fresh, row)
			} else {
				changed = append(changed, row)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := writeRows(ctx, tx, "thermoelectric",
			[]string{"year", "capacity_type", "region", "province", "category", "subcategory", "production_gwh"},
			`(year, capacity_type, region, province, category, subcategory) DO UPDATE SET production_gwh = excluded.production_gwh`,
			fresh, changed); err != nil {
			return err
		}
		return s.finishImport(ctx, tx, store.DatasetThermo, started, st, len(fresh)+len(changed) > 0)
	})
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("postgres: import thermoelectric: %w", err)
	}
	return st, nil
}

// storedThermo returns the stored production of every key in years, in one
// query.
func storedThermo(ctx context.Context, tx pgx.Tx, years []int) (map[energy.ThermoKey]float64, error) {
	stored := make(map[energy.ThermoKey]float64)
	if len(years) == 0 {
		return stored, nil
	}
	ys := make([]int32, len(years)) // PrepareThermo has checked that they fit
	for i, y := range years {
		ys[i] = int32(y)
	}
	rows, err := tx.Query(ctx, `SELECT year, capacity_type, region, province, category, subcategory, production_gwh
		FROM thermoelectric WHERE year = ANY($1)`, ys)
	if err != nil {
		return nil, err
	}
	var k energy.ThermoKey
	var gwh float64
	_, err = pgx.ForEachRow(rows, []any{&k.Year, &k.CapacityType, &k.Region, &k.Province, &k.Category, &k.Subcategory, &gwh}, func() error {
		stored[k] = gwh
		return nil
	})
	return stored, err
}
