package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
)

// IndustrySector is industry's yearly consumption per province, activity
// and class.
func IndustrySector() *dataset.Dataset {
	d := loadStat("industry-sector", "Industry sector",
		"Industry's yearly electricity consumption per region, province, activity and class (merchandise category), in GWh, Italian number format. "+
			"Its manufacturing classes are what the IMCEI's monitored customers draw, divided by their share.",
		"industry_sector", activityParams(),
		[]dataset.Field{regionField(), provinceField(),
			statText("activity", demo.IndustryActivities(), "Activity"), statText("class", demo.IndustryClasses(), "Class"), consumptionField()})
	d.Source = dataset.Source{Ref: portal("load", "Industry_Sector"), Confidence: "M",
		Guess: "The page was not read: parameters, array and fields are client L2's reader's; the activities and classes are this server's, after the yearly statistics' merchandise categories."}
	d.Demo = demo.IndustrySector
	return d
}

// activityParams are the filters of the sector tables.
func activityParams() []dataset.Param {
	return []dataset.Param{regionParam(), provinceParam(),
		statParam("activity", "activity", "Activity to extract."), statParam("class", "class", "Class to extract.")}
}

// provinceParam is a 0..1 province filter, as the load statistics take it.
func provinceParam() dataset.Param {
	return dataset.Param{Name: "province", Kind: dataset.Enum, Field: "province", Doc: "Province to extract."}
}
