package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
)

// ServicesSector is the services' yearly consumption per province,
// activity and class.
func ServicesSector() *dataset.Dataset {
	d := loadStat("services-sector", "Services sector",
		"The services' yearly electricity consumption per region, province, activity (market and non-market services) and class, in GWh, Italian number format.",
		"services_sector", activityParams(),
		[]dataset.Field{regionField(), provinceField(),
			statText("activity", demo.ServiceActivities(), "Activity"), statText("class", demo.ServiceClasses(), "Class"), consumptionField()})
	d.Source = dataset.Source{Ref: portal("load", "Services_Sector"), Confidence: "M",
		Guess: "The page was not read: parameters, array and fields are client L2's reader's; the activities and classes are this server's."}
	d.Demo = demo.ServicesSector
	return d
}
