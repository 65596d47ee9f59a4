package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// Values of the outages' text fields.
var (
	plantTypes     = energy.Plain("TERMOELETTRICO", "IDROELETTRICO")
	outageTypes    = energy.Plain("Planned", "Unplanned")
	outageStatuses = energy.Plain("Active", "Cancelled")
)

// outageLayout is how the live service writes an outage's start and stop:
// the probe code that reads it parses yyyy-mm-dd hh:mm.
const outageLayout = "2006-01-02 15:04"

// GenerationUnitUnavailability is the published unavailability of
// production units: planned and unplanned outages.
func GenerationUnitUnavailability() *dataset.Dataset {
	d := v1("outages", "generation-unit-unavailability", "generation-unit-unavailability", "Unavailability of production units",
		"Outages of production units, one record per unit and outage start day: the capacity they take out and until when. dateFrom and dateTo select outages by start_date. "+
			"The array and the dates are as the live service sends them (unavailability_productive_units, yyyy-mm-dd hh:mm); the page shows planned_outages and yyyy/mm/dd.",
		"unavailability_productive_units", dataset.Day,
		[]dataset.Param{v1Dates(0)},
		[]dataset.Field{
			storedDate("publication_date", "2006-01-02", "Day the outage was published, yyyy-mm-dd."),
			zoneField(),
			text("unit_name", nil, "Production unit (UP) code."),
			text("plant_name", nil, "Plant the unit belongs to."),
			text("plant_type", plantTypes, "TERMOELETTRICO or IDROELETTRICO."),
			text("biddingZone", zoneCodes, "Bidding zone code (e.g. SICI)."),
			number(dataset.Mean, "installed_capacity", "Installed capacity of the unit, MW", 0, 5000),
			text("outage_type", outageTypes, "Planned or Unplanned."),
			{Name: "start_date", Kind: dataset.DateOf, Layout: outageLayout, Doc: "Start of the outage, yyyy-mm-dd hh:mm (local time)."},
			storedDate("stop_date", outageLayout, "End of the outage as first published, yyyy-mm-dd hh:mm."),
			storedDate("stop_date_update", outageLayout, "End as updated since, yyyy-mm-dd hh:mm; empty when unchanged."),
			number(dataset.Mean, "unavailable_capacity", "Capacity the outage takes out, MW", 0, 5000),
			text("unavailable_status", outageStatuses, "Active or Cancelled."),
		})
	d.Key = []string{"unit_name"}
	d.DemoFrom = []string{"installed-capacity"}
	d.Demo = demo.Outages
	d.Source = dataset.Source{Ref: portal("outages", "Unavailability_Productive_Units"), Confidence: "H",
		Guess: "The live probe code (which wins) reads the array unavailability_productive_units and parses start_date and stop_date as yyyy-mm-dd hh:mm; the other fields are the page's, publication_date still yyyy-mm-dd. Outages start and stop at midnight in the demo."}
	d.NoResolution = "each record is an outage over its own span of days, not a value of a time bucket"
	return d
}
