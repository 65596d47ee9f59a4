package catalog

import (
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// Parts shared by the generation endpoints (/generation/v2.0/...).

// yearParam is the 1..1 year of the yearly statistics; window bounds it to
// the current year and that many before it (0 for none).
func yearParam(window int) dataset.Param {
	doc := "Year to extract (yyyy)."
	if window > 0 {
		doc = "Year to extract (yyyy): the current year or one of the six before it; other years get the empty-body answer."
	}
	return dataset.Param{Name: "year", Kind: dataset.YearParam, Required: true, YearWindow: window, Doc: doc}
}

func regionParam() dataset.Param {
	return dataset.Param{Name: "region", Kind: dataset.Enum, Field: "region", Doc: "Region to extract."}
}

func provincesParam() dataset.Param {
	return dataset.Param{Name: "province", Kind: dataset.Enum, Many: true, Field: "province", Doc: "Provinces to extract (repeat the key for several)."}
}

func yearField() dataset.Field {
	return dataset.Field{Name: "year", Kind: dataset.YearOf, Doc: "Year, four digits."}
}

func regionField() dataset.Field {
	return dataset.Field{Name: "region", Kind: dataset.Text, Ref: energy.RegionNames(), Doc: "Region."}
}

func provinceField() dataset.Field {
	return dataset.Field{Name: "province", Kind: dataset.Text, Ref: energy.ProvinceNames(), Within: "region", Doc: "Province."}
}

// grossNetField is a Lorda/Netta field: capacity_type or production_type.
func grossNetField(name, what string) dataset.Field {
	return dataset.Field{Name: name, Kind: dataset.Text, Ref: energy.CapacityTypeNames(), Doc: "Lorda (gross) or Netta (net) " + what + "."}
}

// italian is a yearly statistic's number: "27.389,400".
func italian(name, doc string) dataset.Field {
	return dataset.Field{Name: name, Kind: dataset.Number, Format: dataset.Italian3, Doc: doc + ", Italian number format (decimal comma, thousands points, three decimals)."}
}

// yearRow returns a yearly record as a row.
func yearRow(year int, num float64, text ...string) dataset.Row {
	return dataset.Row{Time: time.Date(year, time.January, 1, 0, 0, 0, 0, energy.Rome()).Unix(), Text: text, Num: []float64{num}}
}

// provinceRows returns the rows of province statistics whose text fields
// are Type, Region, Province and Kind in that order, or, with noType,
// Region, Province and Kind.
func provinceRows(stats []demo.ProvinceStat, noType bool) []dataset.Row {
	rows := make([]dataset.Row, 0, len(stats))
	for _, s := range stats {
		if noType {
			rows = append(rows, yearRow(s.Year, s.Value, s.Region, s.Province, s.Kind))
			continue
		}
		rows = append(rows, yearRow(s.Year, s.Value, s.Type, s.Region, s.Province, s.Kind))
	}
	return rows
}
