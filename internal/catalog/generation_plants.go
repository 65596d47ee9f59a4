package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// GenerationPlants is the efficient power of the generation plants per
// province and source, yearly.
func GenerationPlants() *dataset.Dataset {
	d := efficientPower("generation-plants", "Generation plants",
		"Yearly gross and net efficient power of the generation plants in MW per region, province and source.",
		"generation_plants", energy.PlantSourceNames(),
		"Source: the filter's list plus Bioenergie, which the published example shows, and Accumulo stand alone (standalone storage), which the live service sends from 2023; "+
			"Termoelettrico excludes the bioenergy plants.")
	d.Source = dataset.Source{Ref: portal("generation", "Generation_Plants"), Confidence: "H",
		Guess: "From live clients (M-H): Accumulo stand alone from 2023, Valle D'Aosta, decimal-point numbers (the live payloads' JSON numbers are served as strings, as every value of the family). " +
			"Not reproduced: the live service's repeated rows (fragments a client sums) and its province typos (Olbia0tempio)."}
	d.Demo = demo.GenerationPlants
	return d
}

// efficientPower is the shape generation-plants and its renewable part
// share: the plants' gross and net efficient power per region, province
// and source, yearly.
func efficientPower(resource, title, doc, array string, sources dataset.Ref, sourceDoc string) *dataset.Dataset {
	d := yearlyStat("generation", resource, title, doc, array,
		[]dataset.Param{regionParam(), provincesParam(), grossNetParam("capacityType", "capacity_type"),
			enumParam("source", "source", false, false, "Source to extract.")},
		[]dataset.Field{grossNetField("capacity_type", "efficient power"), plantRegionField(), plantProvinceField(),
			text("source", sources, sourceDoc), capacityMW("Efficient power, MW")})
	d.Order = []string{"region", "province", "source", "capacity_type"}
	return d
}
