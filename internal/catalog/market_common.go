package catalog

import (
	"path"
	"strings"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
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
// shows it: the zones' vocabulary, the values of a type field between
// session_type and direction (the prices' MARGINAL and AVERAGE, the
// offers' ACCEPTED; none for no such field), a direction or not, which
// the demo generator follows too; and whether sessionType is required.
type marketShape struct {
	demo.MarketShape
	sessionRequired bool
}

// marketZoneSeries is the shape most Market datasets share: per hour
// (per quarter hour from 1 October 2025: marketQuarterHours), bidding
// zone, session, type and direction as shape says; values follow. Its
// demo data is gen's for shape.
func marketZoneSeries(resource, title, doc, array string, shape marketShape, gen func(dataset.DemoInput, demo.MarketShape) []dataset.Row,
	extra []dataset.Param, values ...dataset.Field) *dataset.Dataset {
	params := append([]dataset.Param{v1Dates(0), sessionParam(shape.sessionRequired)}, extra...)
	fields := []dataset.Field{
		referenceDate("reference_date", true),
		text("zone", zoneRef(shape.Zones), zoneDoc(shape.Zones)),
		text("session_type", sessionTypes, "Market session."),
	}
	if len(shape.Types) > 0 {
		fields = append(fields, text("type", energy.Plain(shape.Types...), strings.Join(shape.Types, " or ")+"."))
	}
	if shape.Dirs {
		params = append(params, directionParam())
		doc := "UP (more generation or less load) or DOWN."
		if shape.Total {
			doc = "UP (more generation or less load), DOWN, or TOTAL (UP less DOWN)."
		}
		fields = append(fields, text("direction", energy.Plain(shape.Directions()...), doc))
	}
	fields = append(fields, values...)
	d := v1("market", resource, "market-"+path.Base(resource), title, doc, array, dataset.Hour, params, fields)
	d.GrainChanges = []dataset.GrainChange{marketQuarterHours}
	d.DemoFrom = []string{"total-load", "actual-generation"}
	d.Demo = func(in dataset.DemoInput) []dataset.Row { return gen(in, shape.MarketShape) }
	return d
}
