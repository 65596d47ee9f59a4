package catalog

import (
	"io"
	"math"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/ingest"
)

// PeakValleyLoadDetails is the coverage of each day's peak and valley of
// Italy's load by primary source.
func PeakValleyLoadDetails() *dataset.Dataset {
	return &dataset.Dataset{
		Name: "peak-valley-details", Title: "Peak and valley load details",
		Source: dataset.Source{Ref: portal("load", "PeakValley_Load_Details"), Confidence: "M", Guess: "The fields after date (client L's schema); one record per source of each peak and valley."},
		Doc: "How each primary source covered each day's peak and valley of Italy's total load, in GW. " +
			"A day has one record per source at the moment of its peak and one per source at the moment of its valley; " +
			"the sources of a moment add up to its peak or valley, Self-consumption and Pumping-consumption counting negative.",
		Area: "load", Version: "v2.0", Resource: "peak-valley-load-details",
		Array: "peak_valley_load_details", Message: dataset.MessageDates, Grain: dataset.Day,
		Params: []dataset.Param{
			dates(),
			{Name: "type", Kind: dataset.Enum, Many: true, Field: "type", Doc: "Primary sources to extract (repeat the key for several)."},
		},
		Fields: []dataset.Field{
			romeTime(),
			{Name: "peak_load_GW", Kind: dataset.Number, Format: dataset.Point3, Optional: true, Doc: "The day's peak, GW, repeated on every source's record of the peak; empty on a valley record.", Min: 0, Max: 80},
			{Name: "valley_load_GW", Kind: dataset.Number, Format: dataset.Point3, Optional: true, Doc: "The day's valley, GW, repeated on every source's record of the valley; empty on a peak record.", Min: 0, Max: 80},
			{Name: "primary_source_GW", Kind: dataset.Number, Format: dataset.Point3, Doc: "The source's part of the peak or valley, GW; negative for Self-consumption and Pumping-consumption, and for Net Foreign Exchange when Italy exports.", Min: -80, Max: 80},
			{Name: "type", Kind: dataset.Text, Ref: energy.PrimarySourceNames(), Doc: "Primary source: Thermal, Wind, Geothermal, Photovoltaic, Net Foreign Exchange, Self-consumption, Pumping-consumption or Hydro."},
			{Name: "kind", Kind: dataset.Text, Hidden: true, Ref: energy.Plain(peakKind, valleyKind)},
		},
		ExactlyOne: []string{"peak_load_GW", "valley_load_GW"},
		Demo:       demoPeakValleyDetails,
		DemoFrom:   []string{"total-load"},
		Import: &dataset.ImportSpec{Parse: importPeakValleyDetails,
			Formats: "CSV or XLSX with the columns date (yyyy-mm-dd hh:mm:ss, Europe/Rome), date_offset (optional; needed in the repeated autumn hour), peak_load_GW, valley_load_GW (one of the two empty), primary_source_GW, type"},
	}
}

// detailsFile is the shape of peak-valley-load-details import files: the
// dataset's fields without the hidden kind, which a record's filled value
// tells (a peak or a valley), keyed by moment and type.
func detailsFile() *dataset.Dataset {
	d := PeakValleyLoadDetails()
	d.Name, d.Grain, d.Import = d.Name+"-file", dataset.QuarterHour, &dataset.ImportSpec{}
	d.Demo, d.DemoFrom = nil, nil
	d.Fields = d.Fields[:len(d.Fields)-1]
	return d
}

// importPeakValleyDetails reads a file with the generic reader (detailsFile)
// and adds each record's kind. It returns an error with code Invalid for a
// record with both or neither of peak_load_GW and valley_load_GW.
func importPeakValleyDetails(name string, r io.Reader) ([]dataset.Row, error) {
	file := detailsFile()
	c, err := dataset.NewCatalog(file)
	if err != nil {
		return nil, err
	}
	rows, err := ingest.ReadRows(c, file, name, r)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		peak, valley := !math.IsNaN(rows[i].Num[0]), !math.IsNaN(rows[i].Num[1])
		if peak == valley {
			return nil, energy.Errorf(energy.Invalid, "%s: record %d (%s): give exactly one of peak_load_GW and valley_load_GW", name, i+1, file.DescribeKey(rows[i]))
		}
		kind := valleyKind
		if peak {
			kind = peakKind
		}
		rows[i].Text = append(rows[i].Text, kind)
	}
	return rows, nil
}

// demoPeakValleyDetails finds each day's peak and valley in Italy's demo
// total load and splits each among the primary sources as the demo's
// hourly generation of that hour has them (peakValleySplit).
func demoPeakValleyDetails(in dataset.DemoInput) []dataset.Row {
	gen := map[int64]*demo.GenHour{}
	hours := hourlyGeneration(in)
	for i := range hours {
		gen[hours[i].At] = &hours[i]
	}
	var out []dataset.Row
	var day energy.Date
	var peak, valley dataset.Row
	have := false
	flush := func() {
		if !have {
			return
		}
		nan := math.NaN()
		for _, ex := range []struct {
			r          dataset.Row
			peak, vall float64
		}{{peak, peak.Num[0], nan}, {valley, nan, valley.Num[0]}} {
			gw := energy.Round(ex.r.Num[0]/1000, 3)
			split := peakValleySplit(gen[ex.r.Time-ex.r.Time%3600], gw)
			for k, src := range energy.PrimarySourceNames().Values() {
				p, v := nan, nan
				if !math.IsNaN(ex.peak) {
					p = gw
				} else {
					v = gw
				}
				kind := peakKind
				if math.IsNaN(p) {
					kind = valleyKind
				}
				out = append(out, dataset.Row{Time: ex.r.Time, Text: []string{src, kind}, Num: []float64{p, v, split[k]}})
			}
		}
		have = false
	}
	for _, r := range in.From["total-load"] {
		if r.Text[0] != string(energy.Italy) {
			continue
		}
		d := energy.DateOf(time.Unix(r.Time, 0))
		if d != day {
			flush()
			day = d
		}
		if !have {
			peak, valley, have = r, r, true
			continue
		}
		// Ties go to the earliest instant, as in peak-valley-load.
		if r.Num[0] > peak.Num[0] {
			peak = r
		}
		if r.Num[0] < valley.Num[0] {
			valley = r
		}
	}
	flush()
	return out
}

// peakValleySplit splits gw, Italy's load at a moment, among the primary
// sources in energy.PrimarySourceNames order, as g, the hour's generation,
// has them: each part is g's rounded to the MW, self-consumption and
// pumping count negative, and thermal takes what is left (gross thermal
// output, which covers the plants' own consumption, and the moment's
// difference from the hour's mean), so the parts add up to gw exactly.
func peakValleySplit(g *demo.GenHour, gw float64) []float64 {
	parts := []float64{0, energy.Round(g.Wind, 3), energy.Round(g.Geothermal, 3), energy.Round(g.Photovoltaic, 3), energy.Round(g.NetImport, 3), energy.Round(-g.Self, 3), energy.Round(-g.Pumping, 3), energy.Round(g.Hydro, 3)}
	rest := gw
	for _, p := range parts[1:] {
		rest -= p
	}
	parts[0] = energy.Round(rest, 3)
	return parts
}
