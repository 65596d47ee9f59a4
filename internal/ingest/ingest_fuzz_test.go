package ingest_test

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/ingest"
	"github.com/xuri/excelize/v2"
)

// The parsers read files that operators download from elsewhere: whatever
// bytes they hold, a parser must return records that satisfy the domain's
// rules or an Invalid error that names the file, and never panic.

// addFiles seeds f with the first 40 lines of each testdata file whose name
// matches pattern. Small seeds keep the fuzzer fast: it mutates, and
// minimizes, inputs of the seeds' size, and a 100 KB input spends the whole
// run being minimized.
func addFiles(f *testing.F, pattern string) {
	f.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil || len(names) == 0 {
		f.Fatalf("seed files %s: %v (found %d)", pattern, err, len(names))
	}
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		f.Add(bytes.Join(lines[:min(len(lines), 40)], nil))
	}
}

// fuzzParse returns a fuzz target that has parse read its input as the
// file name: an error must be one checkParseError accepts, and a result
// must pass check.
func fuzzParse[T any](name string, parse func(string, io.Reader) (T, error), check func(*testing.T, T)) func(*testing.T, []byte) {
	return func(t *testing.T, data []byte) {
		v, err := parse(name, bytes.NewReader(data))
		if err != nil {
			checkParseError(t, name, err)
			return
		}
		check(t, v)
	}
}

// checkParseError asserts the error contract shared by every parser.
func checkParseError(t *testing.T, name string, err error) {
	t.Helper()
	if c := energy.ErrorCode(err); c != energy.Invalid {
		t.Fatalf("error %q has code %q, want %q", err, c, energy.Invalid)
	}
	if !strings.HasPrefix(err.Error(), name+":") {
		t.Fatalf("error %q does not begin with the file name %q", err, name+":")
	}
}

func FuzzParseThermoelectricCSV(f *testing.F) {
	addFiles(f, "thermo_*.csv")
	// The specification's example values: the response spellings of category
	// and subcategory, a region and province, Italian numbers.
	f.Add([]byte("year,capacity_type,region,province,category,subcategory,production_GWh\n" +
		"2023,Lorda,Abruzzo,Chieti,Non cogenerative,Celle combustibili,\"20,976\"\n" +
		"2023,Netta,Friuli-Venezia Giulia,Udine,Cogenerativa,Contropressione,\"-16.368,385\"\n" +
		"2022,Lorda,Puglia,Brindisi,Non cogenerativa,Ciclo combinato,\"27.389,400\"\n"))
	f.Add([]byte("year;capacity_type;region;province;category;subcategory;production_GWh\n2023;Lorda;Abruzzo;Chieti;Non cogenerativa;Altro genere;0,408\n"))
	f.Add([]byte("year,capacity_type,region,province,category,subcategory,production_GWh\n2023,Lorda,Abruzzo,Chieti,Non cogenerativa,Altro genere,1e308\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const name = "thermo.csv"
		recs, err := parseThermo(t, name, bytes.NewReader(data))
		if err != nil {
			checkParseError(t, name, err)
			return
		}
		if len(recs) == 0 {
			t.Fatal("no records and no error, want the no-data-row error")
		}
		c, d := thermoDataset(t)
		seen := map[string]bool{}
		for _, r := range recs {
			canon := dataset.Row{Time: r.Time, Text: slices.Clone(r.Text), Num: slices.Clone(r.Num)}
			if err := c.Canonical(d, &canon); err != nil {
				t.Fatalf("record %+v fails validation: %v", r, err)
			}
			if y := time.Unix(r.Time, 0).In(energy.Rome()); y.Year() < energy.MinYear || y.Year() > energy.MaxYear || y.YearDay() != 1 || y.Hour() != 0 {
				t.Fatalf("record %+v: time %v is not the start of a year from %d to %d", r, y, energy.MinYear, energy.MaxYear)
			}
			if !slices.Equal(canon.Text, r.Text) || !slices.Equal(canon.Num, r.Num) {
				t.Fatalf("record %+v is not in canonical form %+v", r, canon)
			}
			if k := c.KeyOf(d, r); seen[k] {
				t.Fatalf("key %q returned twice", k)
			} else {
				seen[k] = true
			}
		}
	})
}

// checkLoadPoints asserts what every total-load result must hold.
func checkLoadPoints(t *testing.T, pts []energy.LoadPoint) {
	t.Helper()
	if len(pts) == 0 {
		t.Fatal("no points and no error, want the no-data-row error")
	}
	zones := energy.Zones()
	order := func(p energy.LoadPoint) (int64, int) { return p.At.Unix(), slices.Index(zones, p.Zone) }
	seen := map[energy.LoadKey]bool{}
	for i, p := range pts {
		// On a quarter hour of UTC too: years are bounded to the domain's
		// range, where Rome's offsets are whole hours.
		if u := p.At.Unix(); u%900 != 0 || p.At.Nanosecond() != 0 {
			t.Fatalf("point %d at %v is not on a quarter hour", i, p.At)
		}
		if p.At.Location().String() != energy.TimeZone {
			t.Fatalf("point %d at %v is in %v, want %s", i, p.At, p.At.Location(), energy.TimeZone)
		}
		if !slices.Contains(zones, p.Zone) {
			t.Fatalf("point %d has unknown zone %q", i, p.Zone)
		}
		if math.IsNaN(p.TotalMW) || math.IsInf(p.TotalMW, 0) {
			t.Fatalf("point %d has total %v, want a finite number", i, p.TotalMW)
		}
		if math.IsInf(p.ForecastMW, 0) {
			t.Fatalf("point %d has forecast %v, want finite or NaN", i, p.ForecastMW)
		}
		if seen[p.Key()] {
			t.Fatalf("key %+v returned twice", p.Key())
		}
		seen[p.Key()] = true
		if i > 0 {
			pu, pz := order(pts[i-1])
			u, z := order(p)
			if u < pu || u == pu && z < pz {
				t.Fatalf("point %d (%v %s) comes after %v %s, want instant then zone order", i, p.At, p.Zone, pts[i-1].At, pts[i-1].Zone)
			}
		}
	}
}

func FuzzParseTotalLoadCSV(f *testing.F) {
	addFiles(f, "totalload_*.csv")
	// The download file's columns as the reference notes give them, with a
	// title row, newest first, and the AM/PM clock some exports write.
	f.Add([]byte("Total Load\nDate,Total Load [MW],Forecast Total load [MW],Bidding zone\n" +
		"23/04/2022 12:15:00 PM,34218.5,34100,Italy\n23/04/2022 12:00:00 PM,34000,,Italy\n"))
	f.Add([]byte("Date;Total Load [MW];Bidding zone\n27/10/2024 2:00:00;1.000,5;Centre North\n27/10/2024 2:00:00;1.000,5;Centre North\n"))
	f.Add([]byte("Date,Total Load [MW],Bidding zone\n31/03/2024 02:15:00,1,North\n"))
	f.Add([]byte("Date,Total Load [MW],Bidding zone\n1/1/0001 0:00,0,North\n")) // found by the fuzzer
	// The repeated autumn hour, oldest first: its second pass is +01:00.
	f.Add([]byte("Date,Total Load [MW],Bidding zone\n27/10/2024 01:45:00,5,Italy\n27/10/2024 02:00:00,4,Italy\n" +
		"27/10/2024 02:30:00,3,Italy\n27/10/2024 02:00:00,2,Italy\n27/10/2024 02:30:00,1,Italy\n27/10/2024 03:00:00,6,Italy\n"))
	f.Fuzz(fuzzParse("load.csv", ingest.ParseTotalLoad, checkLoadPoints))
}

// checkDays asserts what every peak-valley result must hold.
func checkDays(t *testing.T, days []energy.DayExtremes) {
	t.Helper()
	if len(days) == 0 {
		t.Fatal("no days and no error, want the no-record error")
	}
	for i, d := range days {
		if i > 0 && days[i-1].Day.Compare(d.Day) >= 0 {
			t.Fatalf("day %v follows %v, want strictly ascending days", d.Day, days[i-1].Day)
		}
		for _, e := range []energy.Extreme{d.Peak, d.Valley} {
			if energy.DateOf(e.At) != d.Day {
				t.Fatalf("extreme at %v lies outside its day %v", e.At, d.Day)
			}
			if math.IsNaN(e.GW) || math.IsInf(e.GW, 0) || e.GW < 0 {
				t.Fatalf("extreme of %v has %v GW, want a finite number of 0 or more", d.Day, e.GW)
			}
		}
		if d.Peak.GW < d.Valley.GW {
			t.Fatalf("%v: peak %v below valley %v", d.Day, d.Peak.GW, d.Valley.GW)
		}
	}
}

func FuzzParsePeakValleyCSV(f *testing.F) {
	// The specification's record fields (2.4) with values in its formats.
	f.Add([]byte("date,date_tz,date_offset,peak_load_GW,valley_load_GW\n" +
		"2022-04-23 04:00:00,Europe/Rome,+02:00,,21.335\n" +
		"2022-04-23 20:15:00,Europe/Rome,+02:00,34.218,\n"))
	f.Add([]byte("date;date_tz;date_offset;peak_load_GW;valley_load_GW\n" +
		"2024-10-27 02:30:00;Europe/Rome;+01:00;;18,5\n2024-10-27 02:30:00;Europe/Rome;+02:00;19;\n"))
	f.Add([]byte("date,date_tz,date_offset,peak_load_GW,valley_load_GW\n2024-03-31 02:30:00,Europe/Rome,+01:00,30,\n"))
	f.Fuzz(fuzzParse("pv.csv", ingest.ParsePeakValley, checkDays))
}

func FuzzParsePeakValleyJSON(f *testing.F) {
	// A response of the peak-valley endpoint, as the specification shapes it.
	f.Add([]byte(`{"result":{"message":"Operation completed for the following input. Date from: 23/04/2022, date to: 23/04/2022","status":"Completed"},` +
		`"peak_valley_load":[{"date":"2022-04-23 04:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"","valley_load_GW":"21.335"},` +
		`{"date":"2022-04-23 20:15:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"34.218","valley_load_GW":""}]}`))
	f.Add([]byte(`{"peak_valley_load":[{"date":"2022-04-23 20:15:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":34.218,"valley_load_GW":null}]}`))
	f.Add([]byte(`{"peak_valley_load":[]}`))
	f.Fuzz(fuzzParse("pv.json", ingest.ParsePeakValley, checkDays))
}

// FuzzParseTotalLoadXLSX writes fuzzed cell text into a generated workbook:
// random bytes would almost never get past the zip and XML layers to the row
// parsing, which is the code of ours that reads XLSX rows.
func FuzzParseTotalLoadXLSX(f *testing.F) {
	f.Add("27/10/2024 02:30:00", "20000.5", "20100,25", "Italy", "45592.9375", "25000")
	f.Add("45293.0104166667", "30000", "", "North", "02/01/2024 00:30:00", "1.000,5")
	f.Add("23/04/2022 12:15:00 PM", "34218.5", "", "centre_south", "-1", "1e400")
	f.Fuzz(func(t *testing.T, date1, total1, forecast1, zone, date2, total2 string) {
		book := excelize.NewFile()
		defer book.Close()
		sheet := book.GetSheetName(0)
		rows := [][]any{
			{"Date", "Total Load [MW]", "Forecast Total load [MW]", "Bidding zone"},
			{date1, total1, forecast1, zone},
			{date2, total2, "", zone},
		}
		for i, r := range rows {
			cell, _ := excelize.CoordinatesToCellName(1, i+1)
			if err := book.SetSheetRow(sheet, cell, &r); err != nil {
				return // text a workbook cannot hold (over 32767 characters): not an input
			}
		}
		var buf bytes.Buffer
		if err := book.Write(&buf); err != nil {
			t.Fatalf("writing the workbook: %v", err)
		}
		const name = "load.xlsx"
		pts, err := ingest.ParseTotalLoad(name, &buf)
		if err != nil {
			checkParseError(t, name, err)
			return
		}
		checkLoadPoints(t, pts)
	})
}
