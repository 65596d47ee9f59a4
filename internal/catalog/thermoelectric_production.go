package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// thermoFields are the text fields that thermoelectric production shares
// with its siblings, in response order.
func thermoFields() []dataset.Field {
	return []dataset.Field{
		{Name: "year", Kind: dataset.YearOf, Doc: "Year, four digits."},
		{Name: "capacity_type", Kind: dataset.Text, Ref: energy.CapacityTypeNames(), Doc: "Lorda (gross) or Netta (net)."},
		{Name: "region", Kind: dataset.Text, Ref: energy.RegionNames(), Doc: "Region."},
		{Name: "province", Kind: dataset.Text, Ref: energy.ProvinceNames(), Within: "region", Doc: "Province."},
		{Name: "category", Kind: dataset.Text, Ref: energy.CategoryNames(), Doc: "Category: Non cogenerativa or Cogenerativa."},
		{Name: "subcategory", Kind: dataset.Text, Ref: energy.SubcategoryNames(), Within: "category", Doc: "Subcategory of the category."},
	}
}

// ThermoelectricProduction is spec 4.2: yearly production per province and
// kind of plant.
func ThermoelectricProduction() *dataset.Dataset {
	return &dataset.Dataset{
		Name: "thermoelectric", Title: "Thermoelectric production",
		Source: dataset.Source{Ref: portal("generation", "Thermoelectric_Production"), Confidence: "H", Guess: "Nothing: energy-data-api.md specifies it."},
		Doc:    "Yearly thermoelectric production in GWh per region, province, category and subcategory.",
		Area:   "generation", Version: "v2.0", Resource: "thermoelectric-production",
		Array: "thermoelectric", Message: dataset.MessageOK, Grain: dataset.Year,
		Params: []dataset.Param{
			{Name: "year", Kind: dataset.YearParam, Required: true, Doc: "Year to extract (yyyy)."},
			{Name: "region", Kind: dataset.Enum, Field: "region", Doc: "Region to extract."},
			{Name: "province", Kind: dataset.Enum, Many: true, Field: "province", Doc: "Provinces to extract (repeat the key for several)."},
			{Name: "category", Kind: dataset.Enum, Field: "category", Doc: "Category."},
			{Name: "subcategory", Kind: dataset.Enum, Field: "subcategory", Within: "category", Doc: "Subcategory of the chosen category."},
		},
		Fields: append(thermoFields(),
			dataset.Field{Name: "production_GWh", Kind: dataset.Number, Format: dataset.Italian3, Doc: "Production, GWh, Italian number format."}),
		Order:  []string{"region", "province", "category", "subcategory", "capacity_type"},
		Demo:   func(dataset.DemoInput) []dataset.Row { return demo.Thermoelectric() },
		Import: &dataset.ImportSpec{},
	}
}
