package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
)

// RenewableGeneration is Italy's hourly generation from renewable sources.
func RenewableGeneration() *dataset.Dataset {
	d := hourlyGeneration("renewable-generation", "Renewable generation",
		"Italy's generation from renewable sources (hydro, wind, photovoltaic, geothermal) every hour until 2024 and every quarter hour from 1 January 2025: "+
			"the period's mean power in GW, named GWh (an hour's energy in GWh). "+
			"The type filter accepts the six values the page lists; Thermal and Self-consumption have no records.",
		"energy_source", "Sources to extract (repeat the key for several).", "Source, one of the type filter's values.")
	d.Views = []dataset.View{renewableGenerationV1()}
	d.Source = dataset.Source{Ref: portal("generation", "Renewable_Generation"), Confidence: "H", Guess: "The value field names (client L's summary of the page) and the hourly grain before 2025 (the grain change's own source says the rest)."}
	d.Demo = demo.RenewableGeneration
	d.Import = &dataset.ImportSpec{Formats: "CSV or XLSX with the columns date (Europe/Rome), date_offset (needed in the repeated autumn hour), renewable_generation_GWh, energy_source"}
	return d
}
