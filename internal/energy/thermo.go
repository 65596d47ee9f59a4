package energy

import (
	"cmp"
	"fmt"
)

// ThermoRecord is the yearly thermoelectric production of one kind of plant in
// one province.
type ThermoRecord struct {
	Year          int
	CapacityType  string // "Lorda" (gross) or "Netta" (net)
	Region        string
	Province      string
	Category      string // one of Categories
	Subcategory   string // one of the category's subcategories
	ProductionGWh float64
}

// ThermoKey is the natural key of a ThermoRecord: an import replaces the
// production of a record with the same key.
type ThermoKey struct {
	Year         int
	CapacityType string
	Region       string
	Province     string
	Category     string
	Subcategory  string
}

// Key returns the record's natural key.
func (r ThermoRecord) Key() ThermoKey {
	return ThermoKey{r.Year, r.CapacityType, r.Region, r.Province, r.Category, r.Subcategory}
}

// CompareThermoKey orders keys by their fields in declaration order, strings
// byte by byte: the order in which stores keep and return records.
func CompareThermoKey(a, b ThermoKey) int {
	return cmp.Or(
		cmp.Compare(a.Year, b.Year),
		cmp.Compare(a.CapacityType, b.CapacityType),
		cmp.Compare(a.Region, b.Region),
		cmp.Compare(a.Province, b.Province),
		cmp.Compare(a.Category, b.Category),
		cmp.Compare(a.Subcategory, b.Subcategory),
	)
}

// String returns the key for messages: the year, then the text fields
// quoted, so that a slash or an unprintable byte inside one stays visible.
func (k ThermoKey) String() string {
	return fmt.Sprintf("%d/%q/%q/%q/%q/%q", k.Year, k.CapacityType, k.Region, k.Province, k.Category, k.Subcategory)
}
