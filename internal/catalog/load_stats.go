package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Parts shared by the yearly load statistics (/load/v2.0/electrical-energy-*,
// industry-sector, services-sector, total, market): years 2015 to 2024 of
// the demo (demo.System.LoadStats), message "OK", Italian numbers.

// loadStat returns a yearly load statistic of the given shape, imported
// from files whose columns are its fields.
func loadStat(name, title, doc, array string, params []dataset.Param, fields []dataset.Field) *dataset.Dataset {
	d := yearlyStat("load", name, title, doc, array, params, fields)
	d.Import.Formats += italianOrPoint
	return d
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
