package catalog

import (
	"io"
	"math"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/ingest"
)

// PeakValleyLoadDetails is the coverage of each day's peak and valley of
// Italy's load by primary source.
func PeakValleyLoadDetails() *dataset.Dataset {
	d := series("load", "peak-valley-load-details", "Peak and valley load details",
		"How each primary source covered each day's peak and valley of Italy's total load, in GW. "+
			"A day has one record per source at the moment of its peak and one per source at the moment of its valley; "+
			"the sources of a moment add up to its peak or valley, Self-consumption and Pumping-consumption counting negative.",
		"peak_valley_load_details", dataset.Day,
		[]dataset.Param{enumParam("type", "type", false, true, "Primary sources to extract (repeat the key for several).")},
		[]dataset.Field{
			{Name: "peak_load_GW", Kind: dataset.Number, Format: dataset.Point3, Optional: true, Doc: "The day's peak, GW, repeated on every source's record of the peak; empty on a valley record.", Min: 0, Max: 80},
			{Name: "valley_load_GW", Kind: dataset.Number, Format: dataset.Point3, Optional: true, Doc: "The day's valley, GW, repeated on every source's record of the valley; empty on a peak record.", Min: 0, Max: 80},
			{Name: "primary_source_GW", Kind: dataset.Number, Format: dataset.Point3, Doc: "The source's part of the peak or valley, GW; negative for Self-consumption and Pumping-consumption, and for Net Foreign Exchange when Italy exports.", Min: -80, Max: 80},
			text("type", energy.PrimarySourceNames(), "Primary source: Thermal, Wind, Geothermal, Photovoltaic, Net Foreign Exchange, Self-consumption, Pumping-consumption or Hydro."),
			peakValleyKind(),
		})
	d.Name = "peak-valley-details"
	d.Views = []dataset.View{peakValleyLoadDetailsV1()}
	d.Source = dataset.Source{Ref: portal("load", "PeakValley_Load_Details"), Confidence: "M", Guess: "The fields after date (client L's schema); one record per source of each peak and valley."}
	d.ExactlyOne = []string{"peak_load_GW", "valley_load_GW"}
	d.Demo = demo.PeakValleyDetails
	d.DemoFrom = []string{"total-load"}
	d.Import = &dataset.ImportSpec{Parse: importPeakValleyDetails,
		Formats: "CSV or XLSX with the columns date (yyyy-mm-dd hh:mm:ss, Europe/Rome), date_offset (optional; needed in the repeated autumn hour), peak_load_GW, valley_load_GW (one of the two empty), primary_source_GW, type"}
	d.NoResolution = peakValleyNoResolution
	return d
}

// detailsFile is the shape of peak-valley-load-details import files: the
// dataset's fields without the hidden kind, which a record's filled value
// tells (a peak or a valley), keyed by moment and type.
func detailsFile() *dataset.Dataset {
	d := PeakValleyLoadDetails()
	d.Name, d.Grain, d.Import = d.Name+"-file", dataset.QuarterHour, &dataset.ImportSpec{}
	d.Demo, d.DemoFrom, d.Views = nil, nil, nil
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
