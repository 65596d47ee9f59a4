package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// acceptedShape is the accepted offers page's: its example's Center-South,
// sessionType 1..1, the type ACCEPTED before the direction.
var acceptedShape = marketShape{demo.MarketShape{Zones: energy.ZoneCenter, Types: []string{"ACCEPTED"}, Dirs: true}, true}

// MarketAcceptedOffers count the offers the markets accepted.
func MarketAcceptedOffers() *dataset.Dataset {
	d := marketZoneSeries("output/accepted-offers", "Accepted offers",
		"Number of offers accepted per bidding zone, session and direction, every hour (every quarter hour from 1 October 2025): a count, not energy.",
		"accepted_offers", acceptedShape, demo.MarketAcceptedOffers, nil,
		number(dataset.Sum, "offer", "Number of offers accepted", 0, 100000))
	d.Source = dataset.Source{Ref: portal("market", "Accepted_Offers"), Confidence: "H",
		Guess: "The hourly grain before 1 October 2025 (the example's reference_date is a day)."}
	return d
}
