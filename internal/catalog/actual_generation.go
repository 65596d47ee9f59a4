package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// ActualGeneration is Italy's hourly net generation by primary source,
// self-consumption included.
func ActualGeneration() *dataset.Dataset {
	d := series("generation", "actual-generation", "Actual generation",
		"Italy's net generation by primary source, self-consumption included, every hour, in GWh.",
		"actual_generation", dataset.Hour,
		[]dataset.Param{enumParam("type", "primary_source", false, true, "Primary sources to extract (repeat the key for several).")},
		[]dataset.Field{hourlyGWh("actual_generation_GWh"),
			text("primary_source", energy.GenerationTypeNames(), "Primary source, one of the type filter's values.")})
	d.Source = dataset.Source{Ref: portal("generation", "Actual_Generation"), Confidence: "H", Guess: "The value field names (client L's summary of the page) and the hourly grain."}
	d.Demo = demo.ActualGeneration
	d.DemoFrom = []string{"total-load"}
	d.Import = &dataset.ImportSpec{Formats: "CSV or XLSX with the columns date (yyyy-mm-dd hh:mm:ss or dd/mm/yyyy hh:mm:ss, Europe/Rome), date_offset (needed in the repeated autumn hour), actual_generation_GWh, primary_source"}
	return d
}

// hourlyGWh is the energy generated in an hour, as the hourly generation
// series give it.
func hourlyGWh(name string) dataset.Field {
	return dataset.Field{Name: name, Kind: dataset.Number, Format: dataset.PointFull, Min: 0, Max: 100,
		Doc: "Energy generated in the hour, GWh (the hour's mean power in GW), decimal point."}
}
