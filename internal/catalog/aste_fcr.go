package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// AsteFCR are the daily FCR (frequency containment reserve) capacity
// auctions.
func AsteFCR() *dataset.Dataset {
	d := v1("market", "aste-fcr", "aste-fcr", "FCR auctions",
		"The day's FCR (primary frequency containment reserve) capacity auctions per area and direction: the clearing price in EUR/MW (null when nothing cleared), "+
			"the capacity procured and the capacity required, in MW. Auctions start on 3 June 2026; earlier days answer zeros, as the live service does. "+
			"A day's results are known the day before and never change.",
		"aste_fcr", dataset.Day,
		[]dataset.Param{
			{Name: "marketDate", Kind: dataset.DayParam, Required: true, ShortYear: true, Aliases: []string{"dateFrom"},
				Doc: "The market day, dd/mm/yyyy (zero padding optional); dateFrom is accepted for it, as a generated description of the page names it."},
			directionParam(),
		},
		[]dataset.Field{
			{Name: "date", Kind: dataset.Instant, Doc: "The market day's first instant, yyyy-mm-dd 00:00:00 (Europe/Rome), with no offset, as the live service writes it."},
			text("session", fcrSessions, "The auction: FCR."),
			text("zone", namesRef(demo.FCRAreas), "Area: Continente+Sicilia or Sardegna."),
			text("direction", directions, "UP or DOWN."),
			{Name: "price", Kind: dataset.Number, Format: dataset.PointFull, Optional: true, Null: true, Min: -1000, Max: 100000, Agg: dataset.Mean,
				Doc: "Clearing price, EUR/MW, decimal point; JSON null when nothing cleared."},
			number(dataset.Mean, "quantity", "Capacity procured, MW", 0, 5000),
			number(dataset.Max, "requirement", "Capacity required, MW", 0, 5000),
		})
	d.Key = []string{"zone", "direction"}
	d.Message = dataset.MessageMarketDate
	// The page's table says messagge, as the other Market pages do; its
	// example answer, the only one on a Market page that is not a
	// placeholder, writes message.
	d.MessageKey = ""
	d.Demo = demo.FCR
	d.Source = dataset.Source{Ref: liveClient + "a grid dashboard that calls aste-fcr every day with marketDate and reads date, zone, direction, price, quantity and requirement", Confidence: "H",
		Guess: "The page (market/Aste_FCR, M): its example's result member message (its table says messagge) and the message's wording. One record per area, direction and day (the live client averages a day's rows). The field order."}
	return d
}

// fcrSessions is the auctions' session value.
var fcrSessions = energy.Plain("FCR")
