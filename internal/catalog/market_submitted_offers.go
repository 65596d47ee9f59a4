package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// submittedShape follows the accepted offers' page, which the submitted
// offers' (not seen) must mirror: the type SUBMITTED and a count. Its
// sessionType stays 0..1, as the extended client calls it.
var submittedShape = marketShape{demo.MarketShape{Zones: energy.ZoneCenter, Types: []string{"SUBMITTED"}, Dirs: true}, false}

// MarketSubmittedOffers count the offers submitted to the markets.
func MarketSubmittedOffers() *dataset.Dataset {
	d := marketZoneSeries("input/submitted-offers", "Submitted offers",
		"Number of offers submitted per bidding zone, session and direction, every hour (every quarter hour from 1 October 2025): a count, always more than those accepted."+unseen,
		"submitted_offers", submittedShape, demo.MarketSubmittedOffers, nil,
		number(dataset.Sum, "offer", "Number of offers submitted", 0, 1e6))
	d.Source = dataset.Source{Ref: portal("market", "Submitted_Offers"), Confidence: "L",
		Guess: "The page exists (a generated description lists it) but its fields were not seen: array submitted_offers, the type SUBMITTED, the count offer, the zone names and sessionType 0..1 follow the accepted offers' page."}
	return d
}
