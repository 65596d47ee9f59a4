package demo

import (
	"math"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// The Fees area's demo data: imbalance prices and volumes per macrozone,
// exchanges, no-arbitrage and commercial balance prices, regulation levels.

// DailyPrices are the final imbalance prices (feesPrices).
func DailyPrices(in dataset.DemoInput) []dataset.Row { return feesPrices(in, 0) }

// PreliminaryPrices are the imbalance prices as first published: they
// differ from the final ones by up to 5 EUR/MWh; the base price is final
// from the start.
func PreliminaryPrices(in dataset.DemoInput) []dataset.Row { return feesPrices(in, 5) }

// feesPrices writes the prices of every hour and quarter hour of the
// v1.0 demo window: the base price follows the residual load (basePrice);
// the imbalance price moves with the macrozone's forecast error, up when
// the load exceeds its forecast; the incentive component grows with the
// error's size. revision > 0 gives preliminary values that differ from the
// final ones by that many EUR/MWh at most.
func feesPrices(in dataset.DemoInput, revision float64) []dataset.Row {
	hours := v1Hours(in)
	byHour := map[int64]*v1Hour{}
	for i := range hours {
		byHour[hours[i].at] = &hours[i]
	}
	var rows []dataset.Row
	quarters := v1Quarters(in)
	for i := range quarters {
		q := &quarters[i]
		h := byHour[q.at-q.at%3600]
		pub := publishedAt(q.at)
		for _, dt := range []string{"Orario", "Quarto Orario"} {
			if dt == "Orario" && q.at%3600 != 0 {
				continue
			}
			for k, macro := range energy.Macrozones() {
				imb := macroImbalance(q, macro)
				base := basePrice(h, macro)
				inc := energy.Round(math.Abs(imb)*0.004, 2)
				unb := energy.Round(base+0.03*imb+revision*dataNoise(q.at, k), 2)
				rows = append(rows, dataset.Row{Time: q.at, Text: []string{pub, dt, macro}, Num: []float64{base, inc, unb}})
			}
		}
	}
	return rows
}

// DailyImbalance is the final macrozonal imbalance, published the day
// after (FinalImbalanceAt).
func DailyImbalance(in dataset.DemoInput) []dataset.Row {
	return imbalance(in, 0, func(start, _ int64) time.Time { return FinalImbalanceAt(energy.DateOf(time.Unix(start, 0))) })
}

// PreliminaryImbalance is the macrozonal imbalance as first published
// (PreliminaryImbalanceAt): off the final values by up to 10%.
func PreliminaryImbalance(in dataset.DemoInput) []dataset.Row {
	return imbalance(in, 0.1, func(_, end int64) time.Time { return PreliminaryImbalanceAt(end) })
}

// imbalance writes each macrozone's imbalance: the sum of its zones'
// forecast errors (actual total load less forecast) over each quarter
// hour or hour, as energy (MWh). revision > 0 gives preliminary values off
// by up to that share of the final ones. published says when the period
// from start to end was published (catalogue.md 4.4): the records carry
// that time, and publication_date writes it.
func imbalance(in dataset.DemoInput, revision float64, published func(start, end int64) time.Time) []dataset.Row {
	var rows []dataset.Row
	quarters := v1Quarters(in)
	hourly := map[string]float64{}
	for i := range quarters {
		q := &quarters[i]
		for k, macro := range energy.Macrozones() {
			mwh := macroImbalance(q, macro) / 4 * (1 + revision*dataNoise(q.at, k))
			rows = append(rows, imbalanceRow(q.at, published(q.at, q.at+900), "Quarto Orario", macro, mwh))
			hourly[macro] += mwh
			if (q.at+900)%3600 == 0 {
				rows = append(rows, imbalanceRow(q.at-2700, published(q.at-2700, q.at+900), "Orario", macro, hourly[macro]))
				hourly[macro] = 0
			}
		}
	}
	return rows
}

func imbalanceRow(at int64, pub time.Time, dataType, macro string, mwh float64) dataset.Row {
	sign := "+"
	if mwh < 0 {
		sign = "-"
	}
	return dataset.Row{Time: at, Text: []string{pub.In(energy.Rome()).Format("2006-01-02 15:04:05"), dataType, macro, sign},
		Num: []float64{math.Round(math.Abs(mwh)*1000) / 1000}, Pub: pub.UnixMicro(), Rev: pub.UnixMicro()}
}

// ZonalExchanges sums the demo scheduled exchanges of each month the v1.0
// window touches, whole: each internal link's hourly MW counts into its
// receiving zone and out of the sending one; the borders count into the
// zone they reach (BorderZone).
func ZonalExchanges(in dataset.DemoInput) []dataset.Row {
	lo, hi := v1Window(in)
	lo = dataset.Bucket(dataset.Month, lo) // the whole of the window's first month
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
		m.exch[zoneIndex(energy.Zone(a))] -= r.Num[0]
		m.exch[zoneIndex(energy.Zone(b))] += r.Num[0]
	}
	for _, r := range within(in.From["scheduled-foreign-exchange"], lo, hi) {
		if r.Time < lo || r.Time >= hi {
			continue
		}
		get(r.Time).foreign[zoneIndex(BorderZone(r.Text[0]))] += r.Num[0]
	}
	var rows []dataset.Row
	for at, m := range months {
		t := time.Unix(at, 0).In(energy.Rome())
		pub := time.Date(t.Year(), t.Month()+1, 10, 12, 0, 0, 0, energy.Rome()).Format("2006-01-02 15:04:05")
		for z, bz := range biddingZones {
			rows = append(rows, dataset.Row{Time: at, Text: []string{pub, bz.Code}, Num: []float64{math.Round(m.exch[z]), math.Round(m.foreign[z])}})
		}
	}
	return rows
}

// NoArbitragePrices writes each zone's hourly no-arbitrage price, within
// 2 EUR/MWh of its macrozone's base price, published on the 5th of the
// next month.
func NoArbitragePrices(in dataset.DemoInput) []dataset.Row {
	hours := v1Hours(in)
	var rows []dataset.Row
	for i := range hours {
		h := &hours[i]
		t := time.Unix(h.at, 0).In(energy.Rome())
		pub := time.Date(t.Year(), t.Month()+1, 5, 12, 0, 0, 0, energy.Rome()).Format("2006-01-02 15:04:05")
		for k, z := range biddingZones {
			p := energy.Round(basePrice(h, z.Macrozone)+2*dataNoise(h.at, 10+k), 2)
			rows = append(rows, dataset.Row{Time: h.at, Text: []string{pub, z.Macrozone, z.Code}, Num: []float64{p}})
		}
	}
	return rows
}

// SecondaryLevels writes each zone's mean secondary regulation level
// every quarter hour, named in vocab: regulation covers part of the zone's
// forecast error, within a band of 1.5% of its load.
func SecondaryLevels(in dataset.DemoInput, vocab energy.ZoneVocab) []dataset.Row {
	quarters := v1Quarters(in)
	var rows []dataset.Row
	for i := range quarters {
		q := &quarters[i]
		for z, bz := range biddingZones {
			band := 0.015 * q.load[z]
			level := math.Max(-band, math.Min(band, 0.6*q.imbalance(z)))
			rows = append(rows, dataset.Row{Time: q.at, Text: []string{bz.Name(vocab)}, Num: []float64{energy.Round(level, 2)}})
		}
	}
	return rows
}

// CommercialBalancePrices writes each zone's hourly prices
// (energy.BalanceZones): around the macrozone's base price, a zone's own
// spread, and 4% either way for the sell and the buy position.
func CommercialBalancePrices(in dataset.DemoInput) []dataset.Row {
	hours := v1Hours(in)
	zones := energy.BalanceZones()
	var rows []dataset.Row
	for i := range hours {
		h := &hours[i]
		for k, z := range zones {
			p := basePrice(h, z.Macrozone) + 2*dataNoise(h.at, 900+k)
			rows = append(rows, dataset.Row{Time: h.at, Text: []string{publishedAt(h.at), z.Macrozone, z.Code}, Num: []float64{energy.Round(p*0.96, 3), energy.Round(p*1.04, 3)}})
		}
	}
	return rows
}

// MonthlySummary joins, period by period, the demo's final imbalance and
// prices, and adds the scheduled exchanges across the macrozones'
// boundary (the Centre-North -> North link) and across the borders, each
// border in the macrozone of the zone it reaches (BorderZone).
func MonthlySummary(in dataset.DemoInput) []dataset.Row {
	lo, hi := v1Window(in)
	type key struct {
		at       int64
		dataType string
		macro    string
	}
	prices := map[key][]float64{}
	for _, r := range within(in.From["daily-prices"], lo, hi) {
		prices[key{r.Time, r.Text[1], r.Text[2]}] = r.Num
	}
	internal, foreign := map[int64]float64{}, map[[2]int64]float64{} // hour -> MW into NORD; hour, macro -> MW into Italy
	north := energy.FlowName(energy.CentreNorth, energy.North)
	for _, r := range within(in.From["scheduled-internal-exchange"], lo, hi) {
		if r.Text[0] == north {
			internal[r.Time] = r.Num[0]
		}
	}
	for _, r := range within(in.From["scheduled-foreign-exchange"], lo, hi) {
		m := int64(1)
		if BorderZone(r.Text[0]) == energy.North {
			m = 0
		}
		foreign[[2]int64{r.Time, m}] += r.Num[0]
	}
	var rows []dataset.Row
	for _, r := range within(in.From["daily-macrozonal-imbalance"], lo, hi) {
		dataType, macro := r.Text[1], r.Text[2]
		p, ok := prices[key{r.Time, dataType, macro}]
		if !ok {
			continue
		}
		hours := 0.25
		if dataType == "Orario" {
			hours = 1
		}
		m := int64(0)
		exch := internal[r.Time-r.Time%3600] * hours
		if macro == "SUD" {
			m, exch = 1, -exch
		}
		t := time.Unix(r.Time, 0).In(energy.Rome())
		// The page's example: May's summary published on 1 June at 19:00.
		pub := time.Date(t.Year(), t.Month()+1, 1, 19, 0, 0, 0, energy.Rome()).Format("2006-01-02 15:04:05")
		rows = append(rows, dataset.Row{Time: r.Time, Text: []string{pub, dataType, macro, r.Text[3]},
			Num: []float64{r.Num[0], math.Round(exch*1000) / 1000, math.Round(foreign[[2]int64{r.Time - r.Time%3600, m}]*hours*1000) / 1000, p[0], p[1], p[2]}})
	}
	return rows
}
