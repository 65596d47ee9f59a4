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
		Demo: func(in dataset.DemoInput) []dataset.Row {
			return generationRows(hourlyGeneration(in), false)
		},
		DemoFrom: []string{"total-load"},
		Import:   &dataset.ImportSpec{Formats: "CSV or XLSX with the columns date (yyyy-mm-dd hh:mm:ss or dd/mm/yyyy hh:mm:ss, Europe/Rome), date_offset (needed in the repeated autumn hour), actual_generation_GWh, primary_source"},
	}
}

// generationRows returns hours of demo generation as actual-generation
// rows, or as renewable-generation rows (the renewable sources only), in
// the datasets' order. Rows of one source share their Text slice, and all
// rows one backing array of numbers.
func generationRows(hours []demo.GenHour, renewable bool) []dataset.Row {
	type source struct {
		text  []string
		value func(h *demo.GenHour) float64
	}
	srcs := []source{
		{[]string{"Geothermal"}, func(h *demo.GenHour) float64 { return h.Geothermal }},
		{[]string{"Hydro"}, func(h *demo.GenHour) float64 { return h.Hydro }},
		{[]string{"Photovoltaic"}, func(h *demo.GenHour) float64 { return h.Photovoltaic }},
		{[]string{"Self-consumption"}, func(h *demo.GenHour) float64 { return h.Self }},
		{[]string{"Thermal"}, func(h *demo.GenHour) float64 { return h.Thermal }},
		{[]string{"Wind"}, func(h *demo.GenHour) float64 { return h.Wind }},
	}
	if renewable {
		srcs = []source{srcs[0], srcs[1], srcs[2], srcs[5]}
	}
	rows := make([]dataset.Row, 0, len(srcs)*len(hours))
	nums := make([]float64, len(srcs)*len(hours))
	for i := range hours {
		for _, s := range srcs {
			k := len(rows)
			nums[k] = s.value(&hours[i])
			rows = append(rows, dataset.Row{Time: hours[i].At, Text: s.text, Num: nums[k : k+1 : k+1]})
		}
	}
	return rows
}
