package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// ZonalExchanges are each bidding zone's monthly exchanges with the other
// zones and with foreign countries.
func ZonalExchanges() *dataset.Dataset {
	d := v1("fees", "zonal-exchanges", "zonal-exchanges", "Zonal exchanges",
		"Each bidding zone's net scheduled exchanges over a month, in MWh, positive into the zone: with the other zones (exchanges_MWh) and across Italy's borders (foreign_MWh). reference_date is the month's first day.",
		"zonal_exchanges", dataset.Month,
		[]dataset.Param{v1Dates(0)},
		[]dataset.Field{
			storedDate("publication_date", "2006-01-02 15:04:05", "When the month's values were published, yyyy-mm-dd hh:mm:ss."),
			zoneField(),
			{Name: "reference_date", Kind: dataset.Instant, Doc: "The month's first day, yyyy-mm-dd 00:00:00 (Europe/Rome)."},
			text("zone_code", zoneCodes, "Bidding zone code: "+joinNames(energy.ZoneCode.Names())+"."),
			number(dataset.Sum, "exchanges_MWh", "Net scheduled exchange with the other zones over the month, MWh", -1e8, 1e8),
			number(dataset.Sum, "foreign_MWh", "Net scheduled exchange across the borders over the month, MWh", -1e8, 1e8),
		})
	d.Key = []string{"zone_code"}
	d.DemoFrom = []string{"scheduled-foreign-exchange", "scheduled-internal-exchange"}
	d.Demo = demo.ZonalExchanges
	d.Source = dataset.Source{Ref: portal("fees", "Zonal_Exchanges"), Confidence: "H", Guess: "The values' sign convention."}
	return d
}
