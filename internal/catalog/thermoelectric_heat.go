package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// ThermoelectricHeat is the useful heat of the cogeneration plants per
// province and kind of plant, yearly.
func ThermoelectricHeat() *dataset.Dataset {
	d := yearlyStat("generation", "thermoelectric-heat", "Thermoelectric heat",
		"Yearly heat production of the cogeneration plants in GWh per region, province and kind of plant.",
		"thermoelectric_heat",
		[]dataset.Param{regionParam(), provincesParam(),
			enumParam("cogenerationPlant", "cogeneration_plant", false, false, "Kind of cogeneration plant.")},
		[]dataset.Field{regionField(), provinceField(),
			text("cogeneration_plant", energy.CogenerationPlantNames(), "Kind of cogeneration plant."),
			italian("heat_production_GWh", "Heat production, GWh")})
	d.Source = dataset.Source{Ref: portal("generation", "Thermoelectric_Heat"), Confidence: "H"}
	d.Demo = demo.ThermoelectricHeat
	return d
}
