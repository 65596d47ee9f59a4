package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"

	"github.com/energyapi/energyapi/internal/energy"
)

// ImportThermoelectric upserts recs on their natural key in one transaction.
// It returns an error with code Invalid, and stores nothing, if a production
// is not a finite number or two records share a key.
func (s *Store) ImportThermoelectric(ctx context.Context, recs []energy.ThermoRecord) (energy.ImportStats, error) {
	started := s.now()
	sorted, err := sortThermo(recs)
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("sqlite: import thermoelectric: %w", err)
	}
	st := energy.ImportStats{Read: len(recs)}
	err = s.update(ctx, func(tx *sql.Tx) error {
		stored, err := storedThermo(ctx, tx, sorted)
		if err != nil {
			return err
		}
		upsert := newBatch(tx,
			`INSERT INTO thermoelectric (year, capacity_type, region, province, category, subcategory, production_gwh) VALUES`,
			`(?, ?, ?, ?, ?, ?, ?)`,
			`ON CONFLICT (year, capacity_type, region, province, category, subcategory)
			 DO UPDATE SET production_gwh = excluded.production_gwh`)
		defer upsert.close()
		for _, r := range sorted {
			old, ok := stored[r.Key()]
			switch {
			case !ok:
				st.Inserted++
			case old != r.ProductionGWh:
				st.Updated++
			default:
				st.Unchanged++
				continue
			}
			if err := upsert.add(ctx, r.Year, r.CapacityType, r.Region, r.Province, r.Category, r.Subcategory, r.ProductionGWh); err != nil {
				return err
			}
		}
		if err := upsert.flush(ctx); err != nil {
			return err
		}
		return s.finishImport(ctx, tx, datasetThermo, started, st, st.Inserted+st.Updated > 0)
	})
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("sqlite: import thermoelectric: %w", err)
	}
	return st, nil
}

// sortThermo validates recs and returns a copy in key order, which is the
// table's order, so that inserts append to the B-tree.
func sortThermo(recs []energy.ThermoRecord) ([]energy.ThermoRecord, error) {
	for _, r := range recs {
		if math.IsNaN(r.ProductionGWh) || math.IsInf(r.ProductionGWh, 0) {
			return nil, energy.Errorf(energy.Invalid, "thermoelectric %s: production is not a finite number", thermoKeyString(r.Key()))
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
	return fmt.Sprintf("%d/%s/%s/%s/%s/%s", k.Year, k.CapacityType, k.Region, k.Province, k.Category, k.Subcategory)
}

// storedThermo returns the stored production of every key in the years that
// recs (sorted) touch: a year is the unit the source publishes, and the
// table's key starts with it.
func storedThermo(ctx context.Context, tx *sql.Tx, recs []energy.ThermoRecord) (map[energy.ThermoKey]float64, error) {
	stored := make(map[energy.ThermoKey]float64)
	st, err := tx.PrepareContext(ctx, `SELECT capacity_type, region, province, category, subcategory, production_gwh
		FROM thermoelectric WHERE year = ?`)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	for i, r := range recs {
		if i > 0 && recs[i-1].Year == r.Year {
			continue
		}
		if err := func() error {
			rows, err := st.QueryContext(ctx, r.Year)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				k := energy.ThermoKey{Year: r.Year}
				var gwh float64
				if err := rows.Scan(&k.CapacityType, &k.Region, &k.Province, &k.Category, &k.Subcategory, &gwh); err != nil {
					return err
				}
				stored[k] = gwh
			}
			return rows.Err()
		}(); err != nil {
			return nil, err
		}
	}
	return stored, nil
}
