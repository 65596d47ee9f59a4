package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// RenewableGeneration is Italy's hourly generation from renewable sources.
func RenewableGeneration() *dataset.Dataset {
	return &dataset.Dataset{
		Name: "renewable-generation", Title: "Renewable generation",
		Source: dataset.Source{Ref: portal("generation", "Renewable_Generation"), Confidence: "H", Guess: "The value field names (client L's summary of the page) and the hourly grain."},
		Doc: "Italy's generation from renewable sources (hydro, wind, photovoltaic, geothermal) every hour, in GWh. " +
			"The type filter accepts the six values the page lists; Thermal and Self-consumption have no records.",
		Area: "generation", Version: "v2.0", Resource: "renewable-generation",
		Array: "renewable_generation", Message: dataset.MessageDates, Grain: dataset.Hour,
		Params: []dataset.Param{
			dates(),
			{Name: "type", Kind: dataset.Enum, Many: true, Field: "energy_source", Doc: "Sources to extract (repeat the key for several)."},
		},
		Fields: []dataset.Field{
			romeTime(),
			{Name: "renewable_generation_GWh", Kind: dataset.Number, Format: dataset.PointFull, Min: 0, Max: 100,
				Doc: "Energy generated in the hour, GWh (the hour's mean power in GW), decimal point."},
			{Name: "energy_source", Kind: dataset.Text, Ref: energy.GenerationTypeNames(), Doc: "Source, one of the type filter's values."},
		},
		Demo:     demo.RenewableGeneration,
		DemoFrom: []string{"total-load"},
		Import:   &dataset.ImportSpec{Formats: "CSV or XLSX with the columns date (Europe/Rome), date_offset (needed in the repeated autumn hour), renewable_generation_GWh, energy_source"},
	}
}
