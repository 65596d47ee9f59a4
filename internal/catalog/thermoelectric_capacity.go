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
	d := yearlyStat("generation", "thermoelectric-capacity", "Thermoelectric capacity",
		"Yearly gross and net efficient power of the thermoelectric plants in MW per region, province, category and subcategory.",
		"thermoelectric",
		append([]dataset.Param{regionParam(), provincesParam(), grossNetParam("capacityType", "capacity_type")}, categoryParams()...),
		append(fields, capacityMW("Efficient power, MW, as live clients read the field efficient_power_MW")))
	d.Source = dataset.Source{Ref: portal("generation", "Thermoelectric_Capacity"), Confidence: "M",
		Guess: "The fields after the array name were not seen on the page: they follow generation-plants and live clients (efficient_power_MW, decimal-point numbers, Valle d'Aosta so spelled)."}
	d.Order = []string{"region", "province", "category", "subcategory", "capacity_type"}
	d.Demo = demo.ThermoelectricCapacity
	return d
}
