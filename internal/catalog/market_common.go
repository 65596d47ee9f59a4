package catalog

import (
	"math"
	"path"
	"strings"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Parts shared by the Market datasets (/market/v1.0/input|output/...).

func sessionParam(required bool) dataset.Param {
	return enumParam("sessionType", "session_type", required, false, "Market session: MSD1 to MSD6 (dispatching services market) or MB (balancing market).")
}

func directionParam() dataset.Param {
	return enumParam("direction", "direction", false, false, "UP or DOWN.")
}

// marketShape is what sets a Market series' shape apart, as its page
// shows it.
type marketShape struct {
	zones           zoneVocab
	sessionRequired bool
	// types are the values of a type field between session_type and
	// direction (the prices' MARGINAL and AVERAGE, the offers' ACCEPTED);
	// none for no such field.
	types []string
	dirs  bool
}

// marketZoneSeries is the shape most Market datasets share: per hour,
// bidding zone, session, type and direction as shape says; values follow.
func marketZoneSeries(resource, title, doc, array string, shape marketShape, extra []dataset.Param, values ...dataset.Field) *dataset.Dataset {
	params := append([]dataset.Param{v1Dates(0), sessionParam(shape.sessionRequired)}, extra...)
	fields := []dataset.Field{
		referenceDate("reference_date", true),
		text("zone", shape.zones.ref(), shape.zones.doc()),
		text("session_type", sessionTypes, "Market session."),
	}
	if len(shape.types) > 0 {
		fields = append(fields, text("type", energy.Plain(shape.types...), strings.Join(shape.types, " or ")+"."))
	}
	if shape.dirs {
		params = append(params, directionParam())
		fields = append(fields, text("direction", directions, "UP (more generation or less load) or DOWN."))
	}
	fields = append(fields, values...)
	d := v1("market", resource, "market-"+path.Base(resource), title, doc, array, dataset.Hour, params, fields)
	d.DemoFrom = []string{"total-load", "actual-generation"}
	return d
}

// marketRows returns a row per hour of the v1.0 window, zone, session,
// type and direction (UP then DOWN) as shape declares them, texts in
// marketZoneSeries' order, each with the values value gives (typ is ""
// for a shape without types, dir 0 without directions).
func marketRows(in dataset.DemoInput, shape marketShape, value func(h *v1Hour, z, s, dir int, typ string) []float64) []dataset.Row {
	hours := v1Hours(in)
	sessions := sessionTypes.Values()
	types := shape.types
	if len(types) == 0 {
		types = []string{""}
	}
	ndir := 1
	if shape.dirs {
		ndir = 2
	}
	var rows []dataset.Row
	for i := range hours {
		h := &hours[i]
		for z := range v1Zones {
			for s, session := range sessions {
				for _, typ := range types {
					for dir := 0; dir < ndir; dir++ {
						text := []string{shape.zones[z], session}
						if typ != "" {
							text = append(text, typ)
						}
						if shape.dirs {
							text = append(text, directions.Values()[dir])
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
// direction in an hour: a standing reserve use plus, UP when the zone's
// load runs above its forecast and DOWN when below, the forecast error.
func balancingMWh(h *v1Hour, z, s, dir int) float64 {
	err := h.load[z] - h.forecast[z]
	if dir == 1 {
		err = -err
	}
	base := 0.004 * h.load[z] * (1 + revision(h.at, z, s))
	return math.Round((base+math.Max(err, 0)*0.8)*1000) / 1000
}

// balancingPrice is the price of that energy, EUR/MWh: above the base
// price for UP, below it for DOWN; the marginal price further out than the
// average.
func balancingPrice(h *v1Hour, z, s, dir int, marginal bool) float64 {
	base := basePrice(h, v1Zones[z].macro)
	spread := 0.25
	if marginal {
		spread = 0.4
	}
	if dir == 1 {
		return energy.Round(math.Max(base*(1-spread)+2*revision(h.at, z, s), 0), 2)
	}
	return energy.Round(base*(1+spread)+10*math.Abs(revision(h.at, z, s)), 2)
}
