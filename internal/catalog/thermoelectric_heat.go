package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// ThermoelectricHeat is the useful heat of the cogeneration plants per
// province and kind of plant, yearly.
func ThermoelectricHeat() *dataset.Dataset {
	return &dataset.Dataset{
		Name: "thermoelectric-heat", Title: "Thermoelectric heat",
		Source: dataset.Source{Ref: portal("generation", "Thermoelectric_Heat"), Confidence: "H"},
		Doc:    "Yearly heat production of the cogeneration plants in GWh per region, province and kind of plant.",
		Area:   "generation", Version: "v2.0", Resource: "thermoelectric-heat",
		Array: "thermoelectric_heat", Message: dataset.MessageOK, Grain: dataset.Year,
		Params: []dataset.Param{
			yearParam(0), regionParam(), provincesParam(),
			{Name: "cogenerationPlant", Kind: dataset.Enum, Field: "cogeneration_plant", Doc: "Kind of cogeneration plant."},
		},
		Fields: []dataset.Field{
			yearField(), regionField(), provinceField(),
			{Name: "cogeneration_plant", Kind: dataset.Text, Ref: energy.CogenerationPlantNames(), Doc: "Kind of cogeneration plant."},
			italian("heat_production_GWh", "Heat production, GWh"),
		},
		Demo:   demo.ThermoelectricHeat,
		Import: &dataset.ImportSpec{Formats: "CSV or XLSX with the columns year, region, province, cogeneration_plant, heat_production_GWh"},
	}
}
