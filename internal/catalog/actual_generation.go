package catalog

import (
	"strings"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// ActualGeneration is Italy's hourly net generation by primary source,
// self-consumption included.
func ActualGeneration() *dataset.Dataset {
	d := hourlyGeneration("actual-generation", "Actual generation",
		"Italy's net generation by primary source, self-consumption included, every hour until 2024 and every quarter hour from 1 January 2025: "+
			"the period's mean power in GW, named GWh (an hour's energy in GWh).",
		"primary_source", "Primary sources to extract (repeat the key for several).", "Primary source, one of the type filter's values.")
	d.Views = []dataset.View{actualGenerationV1()}
	d.Source = dataset.Source{Ref: portal("generation", "Actual_Generation"), Confidence: "H", Guess: "The value field names (client L's summary of the page) and the hourly grain before 2025 (the grain change's own source says the rest)."}
	d.Demo = demo.ActualGeneration
	d.Import = &dataset.ImportSpec{Formats: "CSV or XLSX with the columns date (yyyy-mm-dd hh:mm:ss or dd/mm/yyyy hh:mm:ss, Europe/Rome), date_offset (needed in the repeated autumn hour), actual_generation_GWh, primary_source"}
	return d
}

// hourlyGeneration is the shape of the hourly generation series: the
// energy of each hour (resource_GWh) per generation type, filtered by type
// and kept in typeField; the demo data follows total-load.
func hourlyGeneration(resource, title, doc, typeField, paramDoc, typeDoc string) *dataset.Dataset {
	array := strings.ReplaceAll(resource, "-", "_")
	d := series("generation", resource, title, doc, array, dataset.Hour,
		[]dataset.Param{enumParam("type", typeField, false, true, paramDoc)},
		[]dataset.Field{
			// A mean power averages over any period, whichever grain its
			// records have: an energy summed would count quarter hours four times.
			{Name: array + "_GWh", Kind: dataset.Number, Format: dataset.PointFull, Min: 0, Max: 100, Agg: dataset.Mean,
				Doc: "The period's mean power in GW, decimal point: an hour's energy in GWh; a quarter hour's mean power, as the live service writes it. Coarser resolutions average it."},
			text(typeField, energy.GenerationTypeNames(), typeDoc),
		})
	d.GrainChanges = []dataset.GrainChange{generationQuarterHours}
	d.DemoFrom = []string{"total-load"}
	return d
}
