package demo

import (
	"math"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// The Market area's demo data: the dispatching-services (MSD1 to MSD6)
// and balancing (MB) markets' quantities, prices, costs and offers, the
// forecasts each session works with and the reserve requirements.

// MarketShape is what sets a Market series' rows apart: the vocabulary
// its zones are named in, the values of a type field between session_type
// and direction (none for no such field), and whether it has a direction.
type MarketShape struct {
	Zones energy.ZoneVocab
	Types []string
	Dirs  bool
	// Total adds a third direction, TOTAL: UP less DOWN (the quantity
	// and costs pages' "their total").
	Total bool
}

// Directions returns the values of the shape's direction field.
func (s MarketShape) Directions() []string {
	if s.Total {
		return append(energy.Directions(), energy.DirectionTotal)
	}
	return energy.Directions()
}

// withTotal returns value for UP and DOWN, and UP's less DOWN's for
// TOTAL (dir 2).
func withTotal(value func(h *v1Hour, z, s, dir int) float64) func(h *v1Hour, z, s, dir int, _ string) []float64 {
	return func(h *v1Hour, z, s, dir int, _ string) []float64 {
		if dir == 2 {
			return []float64{math.Round((value(h, z, s, 0)-value(h, z, s, 1))*1000) / 1000}
		}
		return []float64{value(h, z, s, dir)}
	}
}

// MarketQuantity is the energy the markets move (balancingMWh), MWh.
func MarketQuantity(in dataset.DemoInput, shape MarketShape) []dataset.Row {
	return marketRows(in, shape, withTotal(balancingMWh))
}

// MarketPrices are the marginal and average prices of that energy.
func MarketPrices(in dataset.DemoInput, shape MarketShape) []dataset.Row {
	return marketRows(in, shape, func(h *v1Hour, z, s, dir int, typ string) []float64 {
		return []float64{balancingPrice(h, z, s, dir, typ == "MARGINAL")}
	})
}

// MarketCosts are the energy at its average price, EUR, both directions
// positive as the page defines them (TOTAL is UP less DOWN).
func MarketCosts(in dataset.DemoInput, shape MarketShape) []dataset.Row {
	return marketRows(in, shape, withTotal(func(h *v1Hour, z, s, dir int) float64 {
		return math.Round(balancingMWh(h, z, s, dir)*balancingPrice(h, z, s, dir, false)*100) / 100
	}))
}

// MarketAcceptedOffers counts the offers that make up the energy moved
// (AcceptedOffers).
func MarketAcceptedOffers(in dataset.DemoInput, shape MarketShape) []dataset.Row {
	return marketRows(in, shape, func(h *v1Hour, z, s, dir int, _ string) []float64 {
		return []float64{AcceptedOffers(balancingMWh(h, z, s, dir), h.at, int64(100*z+10*s+dir))}
	})
}

// MarketSubmittedOffers counts the offers submitted where those were
// accepted (SubmittedOffers).
func MarketSubmittedOffers(in dataset.DemoInput, shape MarketShape) []dataset.Row {
	return marketRows(in, shape, func(h *v1Hour, z, s, dir int, _ string) []float64 {
		key := int64(100*z + 10*s + dir)
		return []float64{SubmittedOffers(AcceptedOffers(balancingMWh(h, z, s, dir), h.at, key), h.at, key)}
	})
}

// marketRows returns a row per period of the v1.0 window (an hour, or a
// quarter hour on the days the dataset declares quarter-hourly:
// v1Periods), zone, session, type and direction (UP, DOWN, then TOTAL) as shape
// declares them, texts in that order, each with the values value gives
// (typ is "" for a shape without types, dir 0 without directions).
func marketRows(in dataset.DemoInput, shape MarketShape, value func(h *v1Hour, z, s, dir int, typ string) []float64) []dataset.Row {
	hours := v1Periods(in)
	sessions := energy.MarketSessions()
	directions := shape.Directions()
	names := shape.Zones.Names()
	types := shape.Types
	if len(types) == 0 {
		types = []string{""}
	}
	ndir := 1
	if shape.Dirs {
		ndir = len(directions)
	}
	rows := make([]dataset.Row, 0, len(hours)*len(names)*len(sessions)*len(types)*ndir)
	for i := range hours {
		h := &hours[i]
		for z := range names {
			for s, session := range sessions {
				for _, typ := range types {
					for dir := 0; dir < ndir; dir++ {
						text := []string{names[z], session}
						if typ != "" {
							text = append(text, typ)
						}
						if shape.Dirs {
							text = append(text, directions[dir])
						}
						rows = append(rows, dataset.Row{Time: h.at, Text: text, Num: value(h, z, s, dir, typ)})
					}
				}
			}
		}
	}
	return rows
}

// revision is how much a session's value differs from the day-ahead one:
// later sessions revise less, as they see more.
func revision(at int64, z, s int) float64 {
	return 0.03 * float64(7-s) / 7 * dataNoise(at, 100+10*z+s)
}

// balancingMWh is the energy the market moves in a zone, session and
// direction in an hour or quarter hour: a standing reserve use plus, UP
// when the zone's load runs above its forecast and DOWN when below, the
// forecast error, over the period's length.
func balancingMWh(h *v1Hour, z, s, dir int) float64 {
	err := h.load[z] - h.forecast[z]
	if dir == 1 {
		err = -err
	}
	base := 0.004 * h.load[z] * (1 + revision(h.at, z, s))
	return math.Round((base+math.Max(err, 0)*0.8)*h.hours()*1000) / 1000
}

// balancingPrice is the price of that energy, EUR/MWh: above the base
// price for UP, below it for DOWN; the marginal price further out than the
// average.
func balancingPrice(h *v1Hour, z, s, dir int, marginal bool) float64 {
	base := basePrice(h, biddingZones[z].Macrozone)
	spread := 0.25
	if marginal {
		spread = 0.4
	}
	if dir == 1 {
		return energy.Round(math.Max(base*(1-spread)+2*revision(h.at, z, s), 0), 2)
	}
	return energy.Round(base*(1+spread)+10*math.Abs(revision(h.at, z, s)), 2)
}

// MarketForecastLoad is each session's load forecast per zone: the
// day-ahead forecast revised (sessionForecast), zones named in vocab.
func MarketForecastLoad(in dataset.DemoInput, vocab energy.ZoneVocab) []dataset.Row {
	return sessionForecast(in, vocab, func(h *v1Hour, z int) float64 { return h.forecast[z] },
		func(_, _, session, zone string) []string { return []string{zone, session} })
}

// MarketWindForecast is each session's wind forecast per zone: Italy's
// demo wind generation shared among the zones as SplitZones places it
// (zoneTable's wind), revised (sessionForecast), zones named in vocab.
func MarketWindForecast(in dataset.DemoInput, vocab energy.ZoneVocab) []dataset.Row {
	return sessionForecast(in, vocab, func(h *v1Hour, z int) float64 { return h.wind * 1000 * zoneTable[z].wind / 100 },
		func(pub, day, session, zone string) []string { return []string{pub, day, session, zone} })
}

// sessionForecast returns, per hour, session and zone, a forecast of each
// session (the day-ahead value revised by revision) published the day
// before, its texts as text makes them from the publication day, the day
// the forecast is for, the session and the zone.
func sessionForecast(in dataset.DemoInput, vocab energy.ZoneVocab, value func(h *v1Hour, z int) float64, text func(pub, day, session, zone string) []string) []dataset.Row {
	hours := v1Hours(in)
	names := vocab.Names()
	var rows []dataset.Row
	for i := range hours {
		h := &hours[i]
		t := time.Unix(h.at, 0).In(energy.Rome())
		day := t.Format("2006-01-02")
		pub := time.Date(t.Year(), t.Month(), t.Day()-1, 0, 0, 0, 0, energy.Rome()).Format("2006-01-02")
		for s, session := range energy.MarketSessions() {
			for z, name := range names {
				v := math.Round(value(h, z)*(1+revision(h.at, z, s))*1000) / 1000
				rows = append(rows, dataset.Row{Time: h.at, Text: text(pub, day, session, name), Num: []float64{v}})
			}
		}
	}
	return rows
}
