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
		append(fields, italian("efficient_power_MW",
			"Efficient power, MW. The name is this server's choice (no published answer shows the field), the same as generation-plants'")))
	d.Source = dataset.Source{Ref: portal("generation", "Thermoelectric_Capacity"), Confidence: "M", Guess: "The fields after the array name were not seen: they follow generation-plants."}
	d.Order = []string{"region", "province", "category", "subcategory", "capacity_type"}
	d.Demo = demo.ThermoelectricCapacity
	return d
}
