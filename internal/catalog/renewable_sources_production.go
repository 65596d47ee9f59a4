package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// RenewableSourcesProduction is the production from renewable sources per
// province and source, yearly.
func RenewableSourcesProduction() *dataset.Dataset {
	d := yearlyStat("generation", "renewable-sources-production", "Renewable sources production",
		"Yearly gross and net production from renewable sources in GWh per region, province and source.",
		"renewable_sources",
		[]dataset.Param{regionParam(), provincesParam(),
			enumParam("source", "renewable_source", false, false, "Source to extract."),
			enumParam("productionType", "production_type", false, false,
				"Lorda (gross) or Netta (net); the page's curl example sends it though its table does not list it.")},
		[]dataset.Field{grossNetField("production_type", "production"), plantRegionField(), plantProvinceField(),
			text("renewable_source", energy.RenewableSourceNames(), "Renewable source."),
			italian("production_GWh", "Production, GWh")})
	d.Source = dataset.Source{Ref: portal("generation", "Renewable_Sources_Production"), Confidence: "H",
		Guess: "Valle D'Aosta, as the live service spells it in generation-plants (L for this dataset)."}
	d.Order = []string{"region", "province", "renewable_source", "production_type"}
	d.Demo = demo.RenewableSourcesProduction
	return d
}
