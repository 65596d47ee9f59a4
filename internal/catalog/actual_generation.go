package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// ActualGeneration is Italy's hourly net generation by primary source,
// self-consumption included.
func ActualGeneration() *dataset.Dataset {
	return &dataset.Dataset{
		Name: "actual-generation", Title: "Actual generation",
		Source: dataset.Source{Ref: portal("generation", "Actual_Generation"), Confidence: "H", Guess: "The value field names (client L's summary of the page) and the hourly grain."},
		Doc:    "Italy's net generation by primary source, self-consumption included, every hour, in GWh.",
		Area:   "generation", Version: "v2.0", Resource: "actual-generation",
		Array: "actual_generation", Message: dataset.MessageDates, Grain: dataset.Hour,
		Params: []dataset.Param{
			dates(),
			{Name: "type", Kind: dataset.Enum, Many: true, Field: "primary_source", Doc: "Primary sources to extract (repeat the key for several)."},
		},
		Fields: []dataset.Field{
			romeTime(),
			{Name: "actual_generation_GWh", Kind: dataset.Number, Format: dataset.PointFull, Min: 0, Max: 100,
				Doc: "Energy generated in the hour, GWh (the hour's mean power in GW), decimal point."},
			{Name: "primary_source", Kind: dataset.Text, Ref: energy.GenerationTypeNames(), Doc: "Primary source, one of the type filter's values."},
		},
		Demo:     demo.ActualGeneration,
		DemoFrom: []string{"total-load"},
		Import:   &dataset.ImportSpec{Formats: "CSV or XLSX with the columns date (yyyy-mm-dd hh:mm:ss or dd/mm/yyyy hh:mm:ss, Europe/Rome), date_offset (needed in the repeated autumn hour), actual_generation_GWh, primary_source"},
	}
}
