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
		{Name: "capacity_type", Kind: dataset.Text, Ref: energy.CapacityTypeNames(), Doc: "Lorda (gross) or Netta (net)."},
		regionField(), provinceField(),
		{Name: "category", Kind: dataset.Text, Ref: energy.CategoryNames(), Doc: "Category: Non cogenerativa or Cogenerativa."},
		{Name: "subcategory", Kind: dataset.Text, Ref: energy.SubcategoryNames(), Within: "category", Doc: "Subcategory of the category."},
	}
}

// categoryParams are the category and subcategory filters of the
// thermoelectric statistics.
func categoryParams() []dataset.Param {
	return []dataset.Param{
		enumParam("category", "category", false, false, "Category."),
		{Name: "subcategory", Kind: dataset.Enum, Field: "subcategory", Within: "category", Doc: "Subcategory of the chosen category."},
	}
}

// ThermoelectricProduction is spec 4.2: yearly production per province and
// kind of plant.
func ThermoelectricProduction() *dataset.Dataset {
	d := yearlyStat("generation", "thermoelectric-production", "Thermoelectric production",
		"Yearly thermoelectric production in GWh per region, province, category and subcategory.",
		"thermoelectric",
		append([]dataset.Param{regionParam(), provincesParam()}, categoryParams()...),
		append(thermoFields(),
			dataset.Field{Name: "production_GWh", Kind: dataset.Number, Format: dataset.Italian3, Doc: "Production, GWh, Italian number format."}))
	d.Name = "thermoelectric" // spec 4.2's name
	d.Source = dataset.Source{Ref: portal("generation", "Thermoelectric_Production"), Confidence: "H", Guess: "Nothing: energy-data-api.md specifies it."}
	d.Order = []string{"region", "province", "category", "subcategory", "capacity_type"}
	d.Demo = func(dataset.DemoInput) []dataset.Row { return demo.Thermoelectric() }
	d.Import = &dataset.ImportSpec{}
	return d
}
