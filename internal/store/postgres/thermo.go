package postgres

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/jackc/pgx/v5"
)

// ImportThermoelectric upserts recs on their natural key in one transaction.
// It returns an error with code Invalid, and stores nothing, if a production
// is not a finite number, a year does not fit in 32 bits, a string is not
// UTF-8 text without NUL bytes, or two records share a key.
func (s *Store) ImportThermoelectric(ctx context.Context, recs []energy.ThermoRecord) (energy.ImportStats, error) {
	started := s.now()
	sorted, err := sortThermo(recs)
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("postgres: import thermoelectric: %w", err)
	}
	st := energy.ImportStats{Read: len(recs)}
	err = s.update(ctx, func(tx pgx.Tx) error {
		if err := lockImports(ctx, tx); err != nil {
			return err
		}
		stored, err := storedThermo(ctx, tx, sorted)
		if err != nil {
			return err
		}
		var fresh, changed [][]any
		for _, r := range sorted {
			old, ok := stored[r.Key()]
			row := []any{int32(r.Year), r.CapacityType, r.Region, r.Province, r.Category, r.Subcategory, r.ProductionGWh}
			switch {
			case !ok:
				st.Inserted++
				fresh = append(fresh, row)
			case old != r.ProductionGWh:
				st.Updated++
				changed = append(changed, row)
			default:
				st.Unchanged++
			}
		}
		if err := writeRows(ctx, tx, "thermoelectric",
			[]string{"year", "capacity_type", "region", "province", "category", "subcategory", "production_gwh"},
			`(year, capacity_type, region, province, category, subcategory) DO UPDATE SET production_gwh = excluded.production_gwh`,
			fresh, changed); err != nil {
			return err
		}
		return s.finishImport(ctx, tx, datasetThermo, started, st, len(fresh)+len(changed) > 0)
	})
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("postgres: import thermoelectric: %w", err)
	}
	return st, nil
}

// sortThermo validates recs and returns a copy in key order.
func sortThermo(recs []energy.ThermoRecord) ([]energy.ThermoRecord, error) {
	for _, r := range recs {
		switch {
		case math.IsNaN(r.ProductionGWh) || math.IsInf(r.ProductionGWh, 0):
			return nil, energy.Errorf(energy.Invalid, "thermoelectric %s: production is not a finite number", thermoKeyString(r.Key()))
		case r.Year < math.MinInt32 || r.Year > math.MaxInt32:
			return nil, energy.Errorf(energy.Invalid, "thermoelectric %s: year out of range", thermoKeyString(r.Key()))
		case !storable(r.CapacityType) || !storable(r.Region) || !storable(r.Province) || !storable(r.Category) || !storable(r.Subcategory):
			return nil, energy.Errorf(energy.Invalid, "thermoelectric %s: text is not UTF-8 without NUL bytes", thermoKeyString(r.Key()))
		}
	}
	sorted := slices.Clone(recs)
	slices.SortFunc(sorted, func(a, b energy.ThermoRecord) int { return compareThermoKey(a.Key(), b.Key()) })
	for i := 1; i < len(sorted); i++ {
		if sorted[i].Key() == sorted[i-1].Key() {
			return nil, energy.Errorf(energy.Invalid, "thermoelectric %s appears twice", thermoKeyString(sorted[i].Key()))
		}
	}
	return sorted, nil
}

func compareThermoKey(a, b energy.ThermoKey) int {
	return cmp.Or(
		cmp.Compare(a.Year, b.Year),
		cmp.Compare(a.CapacityType, b.CapacityType),
		cmp.Compare(a.Region, b.Region),
		cmp.Compare(a.Province, b.Province),
		cmp.Compare(a.Category, b.Category),
		cmp.Compare(a.Subcategory, b.Subcategory),
	)
}

func thermoKeyString(k energy.ThermoKey) string {
	return fmt.Sprintf("%d/%q/%q/%q/%q/%q", k.Year, k.CapacityType, k.Region, k.Province, k.Category, k.Subcategory)
}

// storedThermo returns the stored production of every key in the years that
// recs touch: a year is the unit the source publishes, and the table's key
// starts with it.
func storedThermo(ctx context.Context, tx pgx.Tx, recs []energy.ThermoRecord) (map[energy.ThermoKey]float64, error) {
	var years []int32
	for i, r := range recs {
		if i == 0 || recs[i-1].Year != r.Year {
			years = append(years, int32(r.Year))
		}
	}
	stored := make(map[energy.ThermoKey]float64)
	if len(years) == 0 {
		return stored, nil
	}
	rows, err := tx.Query(ctx, `SELECT year, capacity_type, region, province, category, subcategory, production_gwh
		FROM thermoelectric WHERE year = ANY($1)`, years)
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
