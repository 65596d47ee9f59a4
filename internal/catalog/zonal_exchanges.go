package catalog

import (
	"math"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
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
			text("zone_code", zoneCodes, "Bidding zone code: NORD, CNOR, CSUD, SUD, CALA, SICI or SARD."),
			number("exchanges_MWh", "Net scheduled exchange with the other zones over the month, MWh", -1e8, 1e8),
			number("foreign_MWh", "Net scheduled exchange across the borders over the month, MWh", -1e8, 1e8),
		})
	d.Key = []string{"zone_code"}
	d.DemoFrom = []string{"scheduled-foreign-exchange", "scheduled-internal-exchange"}
	d.Demo = demoZonalExchanges
	d.Source = dataset.Source{Ref: portal("fees", "Zonal_Exchanges"), Confidence: "H", Guess: "The values' sign convention."}
	return d
}

// demoZonalExchanges sums the demo scheduled exchanges of each month the
// v1.0 window touches, whole: each internal link's hourly MW counts into its
// receiving zone and out of the sending one; the borders count into the
// zone they reach (Malta at Sicily, Greece at South, the rest at North).
func demoZonalExchanges(in dataset.DemoInput) []dataset.Row {
	lo, hi := v1Window(in)
	lo = dataset.Bucket(dataset.Month, lo) // the whole of the window's first month
	code := map[string]int{}
	for i, z := range v1Zones {
		code[string(z.zone)] = i
	}
	type month struct{ exch, foreign [7]float64 }
	months := map[int64]*month{}
	get := func(u int64) *month {
		m := dataset.Bucket(dataset.Month, u)
		if months[m] == nil {
			months[m] = &month{}
		}
		return months[m]
	}
	for _, r := range within(in.From["scheduled-internal-exchange"], lo, hi) {
		if r.Time < lo || r.Time >= hi {
			continue
		}
		a, b, _ := strings.Cut(r.Text[0], " -> ")
		m := get(r.Time)
		m.exch[code[a]] -= r.Num[0]
		m.exch[code[b]] += r.Num[0]
	}
	for _, r := range within(in.From["scheduled-foreign-exchange"], lo, hi) {
		if r.Time < lo || r.Time >= hi {
			continue
		}
		z := code[string(energy.North)]
		switch r.Text[0] {
		case "Malta":
			z = code[string(energy.Sicily)]
		case "Greece":
			z = code[string(energy.South)]
		}
		get(r.Time).foreign[z] += r.Num[0]
	}
	var rows []dataset.Row
	for at, m := range months {
		t := time.Unix(at, 0).In(energy.Rome())
		pub := time.Date(t.Year(), t.Month()+1, 10, 12, 0, 0, 0, energy.Rome()).Format("2006-01-02 15:04:05")
		for z, vz := range v1Zones {
			rows = append(rows, dataset.Row{Time: at, Text: []string{pub, vz.code}, Num: []float64{math.Round(m.exch[z]), math.Round(m.foreign[z])}})
		}
	}
	return rows
}
