package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// RenewableGeneration is Italy's hourly generation from renewable sources.
func RenewableGeneration() *dataset.Dataset {
	d := series("generation", "renewable-generation", "Renewable generation",
		"Italy's generation from renewable sources (hydro, wind, photovoltaic, geothermal) every hour, in GWh. "+
			"The type filter accepts the six values the page lists; Thermal and Self-consumption have no records.",
		"renewable_generation", dataset.Hour,
		[]dataset.Param{enumParam("type", "energy_source", false, true, "Sources to extract (repeat the key for several).")},
		[]dataset.Field{hourlyGWh("renewable_generation_GWh"),
			text("energy_source", energy.GenerationTypeNames(), "Source, one of the type filter's values.")})
	d.Source = dataset.Source{Ref: portal("generation", "Renewable_Generation"), Confidence: "H", Guess: "The value field names (client L's summary of the page) and the hourly grain."}
	d.Demo = demo.RenewableGeneration
	d.DemoFrom = []string{"total-load"}
	d.Import = &dataset.ImportSpec{Formats: "CSV or XLSX with the columns date (Europe/Rome), date_offset (needed in the repeated autumn hour), renewable_generation_GWh, energy_source"}
	return d
}
