package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// RenewableSourcesProduction is the production from renewable sources per
// province and source, yearly.
func RenewableSourcesProduction() *dataset.Dataset {
	return &dataset.Dataset{
		Name: "renewable-sources-production", Title: "Renewable sources production",
		Source: dataset.Source{Ref: portal("generation", "Renewable_Sources_Production"), Confidence: "H"},
		Doc:    "Yearly gross and net production from renewable sources in GWh per region, province and source.",
		Area:   "generation", Version: "v2.0", Resource: "renewable-sources-production",
		Array: "renewable_sources", Message: dataset.MessageOK, Grain: dataset.Year,
		Params: []dataset.Param{
			yearParam(0), regionParam(), provincesParam(),
			{Name: "source", Kind: dataset.Enum, Field: "renewable_source", Doc: "Source to extract."},
			{Name: "productionType", Kind: dataset.Enum, Field: "production_type",
				Doc: "Lorda (gross) or Netta (net); the page's curl example sends it though its table does not list it."},
		},
		Fields: []dataset.Field{
			yearField(), grossNetField("production_type", "production"), regionField(), provinceField(),
			{Name: "renewable_source", Kind: dataset.Text, Ref: energy.RenewableSourceNames(), Doc: "Renewable source."},
			italian("production_GWh", "Production, GWh"),
		},
		Order:  []string{"region", "province", "renewable_source", "production_type"},
		Demo:   demo.RenewableSourcesProduction,
		Import: &dataset.ImportSpec{Formats: "CSV or XLSX with the columns year, production_type, region, province, renewable_source, production_GWh"},
	}
}
