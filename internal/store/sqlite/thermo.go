package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
)

// ImportThermoelectric upserts recs on their natural key in one transaction.
// It returns an error with code Invalid, and stores nothing, if
// store.PrepareThermo refuses recs.
func (s *Store) ImportThermoelectric(ctx context.Context, recs []energy.ThermoRecord) (energy.ImportStats, error) {
	started := s.now()
	sorted, err := store.PrepareThermo(recs)
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("sqlite: import thermoelectric: %w", err)
	}
	var st energy.ImportStats
	err = s.update(ctx, func(tx *sql.Tx) error {
		stored, err := storedThermo(ctx, tx, store.ThermoYears(sorted))
		if err != nil {
			return err
		}
		upsert := newBatch(tx,
			`INSERT INTO thermoelectric (year, capacity_type, region, province, category, subcategory, production_gwh) VALUES`,
			`(?, ?, ?, ?, ?, ?, ?)`,
			`ON CONFLICT (year, capacity_type, region, province, category, subcategory)
			 DO UPDATE SET production_gwh = excluded.production_gwh`)
		defer upsert.close()
		// New and changed records go through the same upsert, in key order.
		st, err = store.DiffThermo(sorted, stored, func(r energy.ThermoRecord, _ store.Change) error {
			return upsert.add(ctx, r.Year, r.CapacityType, r.Region, r.Province, r.Category, r.Subcategory, r.ProductionGWh)
		})
		if err != nil {
			return err
		}
		if err := upsert.flush(ctx); err != nil {
			return err
		}
		return s.finishImport(ctx, tx, store.DatasetThermo, started, st, st.Inserted+st.Updated > 0)
	})
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("sqlite: import thermoelectric: %w", err)
	}
	return st, nil
}

// storedThermo returns the stored production of every key in years. It asks
// year by year, each an index range since the table's key starts with it.
func storedThermo(ctx context.Context, tx *sql.Tx, years []int) (map[energy.ThermoKey]float64, error) {
	stored := make(map[energy.ThermoKey]float64)
	st, err := tx.PrepareContext(ctx, `SELECT capacity_type, region, province, category, subcategory, production_gwh
		FROM thermoelectric WHERE year = ?`)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	for _, year := range years {
		if err := func() error {
			rows, err := st.QueryContext(ctx, year)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				k := energy.ThermoKey{Year: year}
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
