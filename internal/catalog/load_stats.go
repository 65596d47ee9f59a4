package catalog

import (
	"strings"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Parts shared by the yearly load statistics (/load/v2.0/electrical-energy-*,
// industry-sector, services-sector, total, market): years 2015 to 2024 of
// the demo (demo.System.LoadStats), message "OK", Italian numbers.

// loadStat returns a yearly load statistic of the given shape, imported
// from files whose columns are its fields.
func loadStat(name, title, doc, array string, params []dataset.Param, fields []dataset.Field) *dataset.Dataset {
	var cols []string
	for _, f := range fields {
		cols = append(cols, f.Name)
	}
	return &dataset.Dataset{
		Name: name, Title: title, Doc: doc,
		Area: "load", Version: "v2.0", Resource: name,
		Array: array, Message: dataset.MessageOK, Grain: dataset.Year,
		Params: append([]dataset.Param{yearParam(0)}, params...),
		Fields: append([]dataset.Field{yearField()}, fields...),
		Import: &dataset.ImportSpec{Formats: "CSV or XLSX with the columns year, " + strings.Join(cols, ", ") + " (Italian or decimal-point numbers)"},
	}
}

// statParam is a 0..1 filter of a load statistic.
func statParam(name, field, doc string) dataset.Param {
	return dataset.Param{Name: name, Kind: dataset.Enum, Field: field, Doc: doc}
}

// statText is a text field of a load statistic, with its values.
func statText(name string, values []string, doc string) dataset.Field {
	return dataset.Field{Name: name, Kind: dataset.Text, Ref: energy.Plain(values...), Doc: doc + ": " + joinNames(values) + "."}
}

// consumptionField is the statistics' consumption_GWh.
func consumptionField() dataset.Field { return italian("consumption_GWh", "Consumption, GWh") }
