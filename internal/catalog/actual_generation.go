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
		"Italy's net generation by primary source, self-consumption included, every hour, in GWh.",
		"primary_source", "Primary sources to extract (repeat the key for several).", "Primary source, one of the type filter's values.")
	d.Views = []dataset.View{actualGenerationV1()}
	d.Source = dataset.Source{Ref: portal("generation", "Actual_Generation"), Confidence: "H", Guess: "The value field names (client L's summary of the page) and the hourly grain."}
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
			{Name: array + "_GWh", Kind: dataset.Number, Format: dataset.PointFull, Min: 0, Max: 100, Agg: dataset.Sum,
				Doc: "Energy generated in the hour, GWh (the hour's mean power in GW), decimal point."},
			text(typeField, energy.GenerationTypeNames(), typeDoc),
		})
	d.DemoFrom = []string{"total-load"}
	return d
}
