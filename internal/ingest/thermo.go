package ingest

import (
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/energyapi/energyapi/internal/energy"
)

// Thermoelectric file columns: the API's own field names (spec 2.3).
const (
	colYear         = "year"
	colCapacityType = "capacity_type"
	colRegion       = "region"
	colProvince     = "province"
	colCategory     = "category"
	colSubcategory  = "subcategory"
	colProduction   = "production_GWh"
)

// ParseThermoelectric reads thermoelectric production records from a CSV or
// XLSX file (see ReadTable) whose header row names the API's fields: year,
// capacity_type, region, province, category, subcategory and production_GWh,
// in any order and letter case; other columns are ignored. Blank rows are
// skipped. Production may be written the Italian way or with a decimal point
// (see energy.ParseNumber). It returns the records with canonical names (see
// energy.ValidateThermo), in file order.
//
// The first bad row fails the whole file, so that an import is all or nothing:
// the error has code Invalid and reads "FILE:LINE: reason". A missing field,
// a year that is not an integer, a value outside the reference lists and a
// row with the same natural key as an earlier one (the message names both
// lines) are errors, as is a file with no data row.
func ParseThermoelectric(name string, r io.Reader) ([]energy.ThermoRecord, error) {
	t, err := ReadTable(name, r)
	if err != nil {
		return nil, err
	}
	cols := []string{colYear, colCapacityType, colRegion, colProvince, colCategory, colSubcategory, colProduction}
	head, idx, err := t.Header(cols, nil)
	if err != nil {
		return nil, err
	}
	// XLSX cells hold numbers as the workbook stores them, and Excel stores
	// very small and very large ones in E notation, which ParseNumber rejects
	// in text typed by people.
	rawNumbers := false
	if f, err := FormatOf(name); err == nil && f == XLSX {
		rawNumbers = true
	}
	var recs []energy.ThermoRecord
	seen := map[energy.ThermoKey]int{} // row index of each key's first record
	for i := head + 1; i < len(t.Rows); i++ {
		if t.Blank(i) {
			continue
		}
		for _, c := range cols {
			if t.Cell(i, idx[c]) == "" {
				return nil, t.Errorf(i, "%s is missing", c)
			}
		}
		year, err := strconv.Atoi(t.Cell(i, idx[colYear]))
		if err != nil {
			return nil, t.Errorf(i, "year %q is not an integer", t.Cell(i, idx[colYear]))
		}
		gwh, err := parseProduction(t.Cell(i, idx[colProduction]), rawNumbers)
		if err != nil {
			return nil, t.Errorf(i, "%s: %s", colProduction, energy.ErrorMessage(err))
		}
		rec, err := energy.ValidateThermo(energy.ThermoRecord{
			Year:          year,
			CapacityType:  t.Cell(i, idx[colCapacityType]),
			Region:        t.Cell(i, idx[colRegion]),
			Province:      t.Cell(i, idx[colProvince]),
			Category:      t.Cell(i, idx[colCategory]),
			Subcategory:   t.Cell(i, idx[colSubcategory]),
			ProductionGWh: gwh,
		})
		if err != nil {
			return nil, t.Errorf(i, "%s", energy.ErrorMessage(err))
		}
		if first, dup := seen[rec.Key()]; dup {
			return nil, t.Errorf(i, "same year, capacity_type, region, province, category and subcategory as line %d", t.Lines[first])
		}
		seen[rec.Key()] = i
		recs = append(recs, rec)
	}
	if len(recs) == 0 {
		return nil, energy.Errorf(energy.Invalid, "%s: no data rows below the header", name)
	}
	return recs, nil
}

// parseProduction parses a production cell; rawNumbers also admits the E
// notation that spreadsheets store.
func parseProduction(s string, rawNumbers bool) (float64, error) {
	v, err := energy.ParseNumber(s)
	if err == nil || !rawNumbers || !strings.ContainsAny(s, "eE") {
		return v, err
	}
	f, perr := strconv.ParseFloat(s, 64)
	if perr != nil || math.IsInf(f, 0) || math.IsNaN(f) || strings.ContainsAny(s, "xXnN") {
		return v, err
	}
	return f, nil
}
