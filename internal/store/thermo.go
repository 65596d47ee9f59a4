package store

import (
	"math"
	"slices"

	"github.com/energyapi/energyapi/internal/energy"
)

// PrepareThermo validates recs and returns a copy in key order
// (energy.CompareThermoKey), which is both tables' order, so that inserts
// append to the index. It returns an error with code Invalid if a production
// is not a finite number, a year does not fit in 32 bits (PostgreSQL's
// integer; SQLite holds itself to the same), a string is not ValidText, or
// two records share a key.
func PrepareThermo(recs []energy.ThermoRecord) ([]energy.ThermoRecord, error) {
	for _, r := range recs {
		switch {
		case math.IsNaN(r.ProductionGWh) || math.IsInf(r.ProductionGWh, 0):
			return nil, energy.Errorf(energy.Invalid, "thermoelectric %s: production is not a finite number", r.Key())
		case r.Year < math.MinInt32 || r.Year > math.MaxInt32:
			return nil, energy.Errorf(energy.Invalid, "thermoelectric %s: year out of range", r.Key())
		case !ValidText(r.CapacityType) || !ValidText(r.Region) || !ValidText(r.Province) || !ValidText(r.Category) || !ValidText(r.Subcategory):
			return nil, energy.Errorf(energy.Invalid, "thermoelectric %s: text is not UTF-8 without NUL bytes", r.Key())
		}
	}
	sorted := slices.Clone(recs)
	slices.SortFunc(sorted, func(a, b energy.ThermoRecord) int { return energy.CompareThermoKey(a.Key(), b.Key()) })
	for i := 1; i < len(sorted); i++ {
		if sorted[i].Key() == sorted[i-1].Key() {
			return nil, energy.Errorf(energy.Invalid, "thermoelectric %s appears twice", sorted[i].Key())
		}
	}
	return sorted, nil
}

// ThermoYears returns the years that sorted, as PrepareThermo returns it,
// touches, ascending. A store compares a batch with the stored records of
// these years: a year is the unit the source publishes, and the tables' key
// starts with it.
func ThermoYears(sorted []energy.ThermoRecord) []int {
	var years []int
	for i, r := range sorted {
		if i == 0 || sorted[i-1].Year != r.Year {
			years = append(years, r.Year)
		}
	}
	return years
}

// DiffThermo compares sorted, as PrepareThermo returns it, with stored, the
// stored production of every key in ThermoYears(sorted), and counts each
// record. It calls write, in key order, with each record that is new or
// whose production changed, and returns write's first error.
func DiffThermo(sorted []energy.ThermoRecord, stored map[energy.ThermoKey]float64, write func(energy.ThermoRecord, Change) error) (energy.ImportStats, error) {
	return diff(sorted, stored, func(r energy.ThermoRecord) (energy.ThermoKey, float64) {
		return r.Key(), r.ProductionGWh
	}, write)
}
