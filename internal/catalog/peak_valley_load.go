package catalog

import (
	"io"
	"math"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/ingest"
)

// Kinds of a peak-valley record: the hidden key field that tells a day's
// two records apart.
const (
	peakKind   = energy.PeakKind
	valleyKind = energy.ValleyKind
)

// PeakValleyLoad is each day's peak and valley of Italy's total load (spec
// 4.3), derived from total-load; published values imported for a day win.
func PeakValleyLoad() *dataset.Dataset {
	d := series("load", "peak-valley-load", "Peak and valley load",
		"The daily maximum (peak) and minimum (valley) of Italy's total demand, in GW; each record carries one of the two.",
		"peak_valley_load", dataset.Day, nil,
		[]dataset.Field{
			{Name: "peak_load_GW", Kind: dataset.Number, Format: dataset.Point3, Optional: true, Doc: "The day's peak, GW; empty on a valley record."},
			{Name: "valley_load_GW", Kind: dataset.Number, Format: dataset.Point3, Optional: true, Doc: "The day's valley, GW; empty on a peak record."},
			peakValleyKind(),
		})
	d.Name = "peak-valley" // spec 4.1's name
	d.Views = []dataset.View{peakValleyLoadV1()}
	d.Source = dataset.Source{Ref: portal("load", "PeakValley_Load"), Confidence: "H", Guess: "One peak and one valley record per day, each at its own moment (inferred from the example)."}
	d.ExactlyOne = []string{"peak_load_GW", "valley_load_GW"}
	d.Derive = &dataset.Derivation{From: "total-load", Rows: derivePeakValley, Gaps: peakValleyGaps, Partial: partialPeakValley}
	d.Import = &dataset.ImportSpec{Parse: importPeakValley,
		Formats: "published peaks and valleys: CSV or XLSX with the columns date, date_tz, date_offset, peak_load_GW, valley_load_GW, or a JSON file shaped like this endpoint's answer"}
	d.NoResolution = peakValleyNoResolution
	return d
}

// peakValleyNoResolution is why the days' peaks and valleys are not
// aggregated: a record tells the moment of its extreme, which a bucket
// dated at its start would lose.
const peakValleyNoResolution = "each record is one extreme of its day at its own moment; ask total-load for the curve at any resolution"

// peakValleyKind is the hidden field that tells a peak record from a
// valley record.
func peakValleyKind() dataset.Field {
	return dataset.Field{Name: "kind", Kind: dataset.Text, Hidden: true, Ref: energy.Plain(peakKind, valleyKind)}
}

func importPeakValley(name string, r io.Reader) ([]dataset.Row, error) {
	days, err := ingest.ParsePeakValley(name, r)
	if err != nil {
		return nil, err
	}
	var rows []dataset.Row
	for _, d := range days {
		rows = append(rows, PeakValleyRows(d)...)
	}
	return rows, nil
}

// PeakValleyRows returns the two records of a day's extremes.
func PeakValleyRows(d energy.DayExtremes) []dataset.Row {
	nan := math.NaN()
	return []dataset.Row{
		{Time: d.Peak.At.Unix(), Text: []string{peakKind}, Num: []float64{d.Peak.GW, nan}},
		{Time: d.Valley.At.Unix(), Text: []string{valleyKind}, Num: []float64{nan, d.Valley.GW}},
	}
}

// derivePeakValley computes the extremes of every complete day of a
// total-load part (energy.CheckDay, energy.DeriveDay).
func derivePeakValley(src *dataset.Part) []dataset.Row {
	var out []dataset.Row
	eachLoadDay(src, func(day energy.Date, pts []energy.LoadPoint) {
		if ok, _ := energy.CheckDay(day, pts); ok {
			if ext, ok := energy.DeriveDay(day, pts); ok {
				out = append(out, PeakValleyRows(ext)...)
			}
		}
	})
	return out
}

// peakValleyGaps lists the days of a total-load part that are not complete
// and so have no derived peak and valley.
func peakValleyGaps(src *dataset.Part) []string {
	var out []string
	eachLoadDay(src, func(day energy.Date, pts []energy.LoadPoint) {
		if ok, why := energy.CheckDay(day, pts); !ok {
			out = append(out, day.String()+": "+why)
		}
	})
	return out
}

// partialPeakValley computes the extremes of the incomplete days of a
// total-load part from the quarter hours they have.
func partialPeakValley(src *dataset.Part) []dataset.Row {
	var out []dataset.Row
	eachLoadDay(src, func(day energy.Date, pts []energy.LoadPoint) {
		if ok, _ := energy.CheckDay(day, pts); !ok {
			if ext, ok := energy.DeriveDay(day, pts); ok {
				out = append(out, PeakValleyRows(ext)...)
			}
		}
	})
	return out
}

// eachLoadDay calls fn with each Europe/Rome day of a total-load part and
// its points.
func eachLoadDay(src *dataset.Part, fn func(energy.Date, []energy.LoadPoint)) {
	if src.Len() == 0 {
		return
	}
	day := energy.DateOf(time64(src.Time(0)))
	var pts []energy.LoadPoint
	flush := func() {
		fn(day, pts)
		pts = pts[:0]
	}
	for i := range src.Len() {
		t := time64(src.Time(i))
		if d := energy.DateOf(t); d != day {
			flush()
			day = d
		}
		pts = append(pts, energy.LoadPoint{At: t, Zone: energy.Zone(src.Text(0, i)), TotalMW: src.Num(0, i), ForecastMW: src.Num(1, i)})
	}
	flush()
}

func time64(u int64) time.Time { return time.Unix(u, 0) }
