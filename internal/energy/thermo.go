package energy

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
