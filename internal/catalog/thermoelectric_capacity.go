package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// ThermoelectricCapacity is the efficient power of the thermoelectric
// plants per province and kind of plant, yearly: thermoelectric
// production's sibling, with its own subcategory list.
func ThermoelectricCapacity() *dataset.Dataset {
	fields := thermoFields()
	for i := range fields {
		if fields[i].Name == "subcategory" {
			fields[i].Ref = energy.CapacitySubcategoryNames()
			fields[i].Doc = "Subcategory of the category. Non cogenerativa adds Geotermoelettrica A Condensazione and spells Celle combustibili " +
				"(Celle a combustibile, production's spelling, is accepted for it)."
		}
	}
	return &dataset.Dataset{
		Name: "thermoelectric-capacity", Title: "Thermoelectric capacity",
		Source: dataset.Source{Ref: portal("generation", "Thermoelectric_Capacity"), Confidence: "M", Guess: "The fields after the array name were not seen: they follow generation-plants."},
		Doc:    "Yearly gross and net efficient power of the thermoelectric plants in MW per region, province, category and subcategory.",
		Area:   "generation", Version: "v2.0", Resource: "thermoelectric-capacity",
		Array: "thermoelectric", Message: dataset.MessageOK, Grain: dataset.Year,
		Params: []dataset.Param{
			yearParam(0), regionParam(), provincesParam(),
			{Name: "capacityType", Kind: dataset.Enum, Field: "capacity_type", Doc: "Lorda (gross) or Netta (net)."},
			{Name: "category", Kind: dataset.Enum, Field: "category", Doc: "Category."},
			{Name: "subcategory", Kind: dataset.Enum, Field: "subcategory", Within: "category", Doc: "Subcategory of the chosen category."},
		},
		Fields: append(fields, italian("efficient_power_MW",
			"Efficient power, MW. The name is this server's choice (no published answer shows the field), the same as generation-plants'")),
		Order:  []string{"region", "province", "category", "subcategory", "capacity_type"},
		Demo:   demo.ThermoelectricCapacity,
		Import: &dataset.ImportSpec{Formats: "CSV or XLSX with the columns year, capacity_type, region, province, category, subcategory, efficient_power_MW"},
	}
}
