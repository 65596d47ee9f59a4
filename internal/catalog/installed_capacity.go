package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// InstalledCapacity is Italy's net efficient power by type, yearly.
func InstalledCapacity() *dataset.Dataset {
	return &dataset.Dataset{
		Name: "installed-capacity", Title: "Installed capacity",
		Source: dataset.Source{Ref: portal("generation", "Installed_Capacity"), Confidence: "H",
			Guess: "The first year, 2021: live clients say the service refuses earlier years (M); those in the window before it get the empty body."},
		Doc: "Italy's net efficient power by type at the end of each year, in GW (the field says GWh, as the API's does), from 2021: " +
			"the live service has no earlier year, and years before the page's window (the current year and six before) get the empty body.",
		Area: "generation", Version: "v2.0", Resource: "installed-capacity",
		Array: "installed_capacity", Message: dataset.MessageYear, Grain: dataset.Year,
		Params: []dataset.Param{
			yearParam(6),
			enumParam("type", "type", false, true, "Types to extract (repeat the key for several)."),
		},
		Fields: []dataset.Field{
			yearField(),
			text("type", energy.GenerationTypeNames(), "Type, one of the type filter's values."),
			{Name: "installed_capacity_GWh", Kind: dataset.Number, Format: dataset.PointFull, Min: 0, Max: 500,
				Doc: "Net efficient power, GW, with a decimal point as the published example (61.62) writes it; the unit in the name is the API's."},
		},
		Views:  []dataset.View{installedCapacityV1()},
		Demo:   demo.InstalledCapacity,
		Import: &dataset.ImportSpec{Formats: "CSV or XLSX with the columns year, type, installed_capacity_GWh"},
	}
}
