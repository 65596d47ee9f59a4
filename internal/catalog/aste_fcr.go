package catalog

import (
	"time"

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
			{Name: "price", Kind: dataset.Number, Format: dataset.PointFull, Optional: true, Null: true, Min: -1000, Max: 100000,
				Doc: "Clearing price, EUR/MW, decimal point; JSON null when nothing cleared."},
			number("quantity", "Capacity procured, MW", 0, 5000),
			number("requirement", "Capacity required, MW", 0, 5000),
		})
	d.Key = []string{"zone", "direction"}
	d.Message = dataset.MessageMarketDate
	d.Demo = demoFCR
	d.Source = dataset.Source{Ref: liveClient + "a grid dashboard that calls aste-fcr every day with marketDate and reads date, zone, direction, price, quantity and requirement", Confidence: "H",
		Guess: "The page was not seen; session and the message come from a generated OpenAPI set (M). One record per area, direction and day (the live client averages a day's rows). The field order."}
	return d
}

// fcrSessions is the auctions' session value.
var fcrSessions = energy.Plain("FCR")

// demoFCR writes the days of the v1.0 window (zeros before the auctions
// start) and at least a month of auctions from their first day, beyond
// the other datasets' end if need be.
func demoFCR(in dataset.DemoInput) []dataset.Row {
	lo, _ := v1Window(in)
	last := in.Last
	if end := demo.FCRStart.AddDays(30); last.Compare(end) < 0 {
		last = end
	}
	var rows []dataset.Row
	for d := energy.DateOf(time.Unix(lo, 0)); d.Compare(last) <= 0; d = d.AddDays(1) {
		if d.Compare(in.Last) > 0 && d.Compare(demo.FCRStart) < 0 {
			d = demo.FCRStart // nothing to write between the window and the auctions
		}
		for a, area := range demo.FCRAreas {
			for _, dir := range directions.Values() {
				r := demo.FCRAuction(in.Seed, d, a, dir == "UP")
				known := demo.FCRKnownAt(d).UnixMicro()
				rows = append(rows, dataset.Row{Time: d.Start().Unix(), Text: []string{"FCR", area, dir}, Num: []float64{r.PriceEURMW, r.QuantityMW, r.RequiredMW}, Pub: known, Rev: known})
			}
		}
	}
	return rows
}
