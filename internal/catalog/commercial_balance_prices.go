package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// CommercialBalancePrices are the hourly prices at which commercial
// imbalances are settled in each zone, at the path the page's example
// calls (ifees); the Fees paths stay as aliases.
func CommercialBalancePrices() *dataset.Dataset {
	var zones []string
	for _, z := range energy.BalanceZones() {
		zones = append(zones, z.Code)
	}
	d := v1("fees", "commercial-balance-prices", "commercial-balance-prices", "Commercial balance prices",
		"Hourly prices of each zone at which a balance responsible party's commercial imbalance is settled, in EUR/MWh: "+
			"the sell price of a long position and the buy price of a short one.",
		"commercial_balance_prices", dataset.Hour,
		[]dataset.Param{v1Dates(0)},
		[]dataset.Field{
			storedDate("publication_date", "2006-01-02 15:04:05", "When the prices were published, yyyy-mm-dd hh:mm:ss."),
			{Name: "date_time", Kind: dataset.Instant, TZ: "date_tz", Doc: "The hour's start, Europe/Rome wall time yyyy-mm-dd hh:mm:ss, followed by the zone name; no offset, as the page shows none."},
			text("macrozone", macrozones, "Macrozone: "+joinNames(energy.Macrozones())+"."),
			text("zone", namesRef(zones), "Zone: a bidding zone code or a border's virtual zone (AUST, FRAN, GREC, MALT, MONT, SLOV, SVIZ)."),
			number(dataset.Mean, "sell_price_EURxMWh", "Price of energy sold from a long position, EUR/MWh", -1000, 5000),
			number(dataset.Mean, "buy_price_EURxMWh", "Price of energy bought to close a short position, EUR/MWh", -1000, 5000),
		})
	d.Area, d.Resource = "ifees", "market/commercial-balance-prices"
	d.Aliases = []string{"/fees/v1.0/commercial-balance-prices"} // and the former prefix, a view (v1)
	d.Key = []string{"macrozone", "zone"}
	// The page's example words the message as the v2.0 pages do, not as
	// the other Fees pages.
	d.Message = dataset.MessageDates
	d.DemoFrom = []string{"total-load", "actual-generation"}
	d.Demo = demo.CommercialBalancePrices
	d.Source = dataset.Source{Ref: portal("fees", "Commercial_Balance_Prices"), Confidence: "H",
		Guess: "The zone list beyond the example's AUST, and which price is which position's. The message's wording is the example's (\"…following input. Date from: …\", M)."}
	return d
}
