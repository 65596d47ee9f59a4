package catalog

import (
	"slices"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
)

// LoadTotal is the yearly consumption per province, sector, activity and
// class: every sector's finest split in one table.
func LoadTotal() *dataset.Dataset {
	activities := slices.Concat([]string{"Agricoltura", "Domestico"}, demo.IndustryActivities(), demo.ServiceActivities())
	classes := slices.Concat([]string{"Agricoltura", "Domestico"}, demo.IndustryClasses(), demo.ServiceClasses())
	d := loadStat("total", "Total consumption",
		"Yearly electricity consumption per region, province, sector, activity and class, in GWh, Italian number format: industry-sector and services-sector, "+
			"with agriculture and households (whose activity and class repeat the sector). It adds up to the year's demand.",
		"total",
		[]dataset.Param{regionParam(), provinceParam(), statParam("sector", "sector", "Sector to extract."),
			statParam("activity", "activity", "Activity to extract."), statParam("class", "class", "Class to extract.")},
		[]dataset.Field{regionField(), provinceField(), statText("sector", demo.LoadStatsSectors(), "Sector"),
			statText("activity", activities, "Activity"), statText("class", classes, "Class"), consumptionField()})
	d.Source = dataset.Source{Ref: portal("load", "Total"), Confidence: "M",
		Guess: "The page was not read: client L2's reader reads the array total and declares the fields; agriculture's and households' activity and class are this server's."}
	d.Demo = demo.LoadTotal
	return d
}
