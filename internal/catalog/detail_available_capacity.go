package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
)

// DetailAvailableCapacity is the capacity each production unit had
// available.
func DetailAvailableCapacity() *dataset.Dataset {
	d := v1("adequacy", "detail-available-capacity", "detail-available-capacity", "Detail of available capacity",
		"Capacity each production unit of 100 MW or more had available in each hour, in MW: its installed capacity less its outages (generation-unit-unavailability). Values are final 7 days after the day.",
		"detail_available_capacity", dataset.Hour,
		[]dataset.Param{v1Dates(0)},
		[]dataset.Field{
			referenceDate("market_date", false),
			text("unit_code", nil, "Production unit (UP) code."),
			number(dataset.Mean, "available_capacity_MW", "Available capacity, MW", 0, 5000),
		})
	d.DemoFrom = []string{"installed-capacity", "generation-unit-unavailability"}
	d.Demo = demo.UnitAvailableCapacity
	d.Source = dataset.Source{Ref: liveClient + "an outage check that reads market_date (hour beginning, local time), offset, unit_code and available_capacity_MW, final values 7 days after the day", Confidence: "H",
		Guess: "No page was seen: the array's name (the live client takes the first list) and that no other field is sent."}
	return d
}
