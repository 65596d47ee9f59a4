package ingest

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// wantDay is a parsed day written by hand: instants in UTC, with the wall
// clock and offset Europe/Rome must show for them.
type wantDay struct {
	day                  energy.Date
	peakAt, valleyAt     time.Time
	peakWall, valleyWall string // "2006-01-02 15:04 -07:00"
	peakGW, valleyGW     float64
}

func checkDays(tb testing.TB, got []energy.DayExtremes, want []wantDay) {
	tb.Helper()
	if len(got) != len(want) {
		tb.Fatalf("got %d days, want %d", len(got), len(want))
	}
	const layout = "2006-01-02 15:04 -07:00"
	for i, w := range want {
		g := got[i]
		if g.Day != w.day {
			tb.Errorf("day %d: got %v, want %v", i, g.Day, w.day)
		}
		if !g.Peak.At.Equal(w.peakAt) || g.Peak.At.Format(layout) != w.peakWall || g.Peak.GW != w.peakGW {
			tb.Errorf("%v peak: got %s %v GW, want %s %v GW", w.day, g.Peak.At.Format(layout), g.Peak.GW, w.peakWall, w.peakGW)
		}
		if !g.Valley.At.Equal(w.valleyAt) || g.Valley.At.Format(layout) != w.valleyWall || g.Valley.GW != w.valleyGW {
			tb.Errorf("%v valley: got %s %v GW, want %s %v GW", w.day, g.Valley.At.Format(layout), g.Valley.GW, w.valleyWall, w.valleyGW)
		}
	}
}

// pvDays is what every file in TestParsePeakValley holds.
var pvDays = []wantDay{
	{
		day:    energy.Date{Year: 2024, Month: time.March, Day: 31},
		peakAt: utc(2024, time.March, 31, 18, 0), peakWall: "2024-03-31 20:00 +02:00", peakGW: 31.5,
		valleyAt: utc(2024, time.March, 31, 1, 0), valleyWall: "2024-03-31 03:00 +02:00", valleyGW: 18.25,
	},
	{
		day:    energy.Date{Year: 2024, Month: time.October, Day: 27},
		peakAt: utc(2024, time.October, 27, 18, 15), peakWall: "2024-10-27 19:15 +01:00", peakGW: 33.75,
		valleyAt: utc(2024, time.October, 27, 1, 30), valleyWall: "2024-10-27 02:30 +01:00", valleyGW: 19.123,
	},
	{
		day:    energy.Date{Year: 2024, Month: time.October, Day: 28},
		peakAt: utc(2024, time.October, 28, 10, 0), peakWall: "2024-10-28 11:00 +01:00", peakGW: 41,
		valleyAt: utc(2024, time.October, 27, 23, 0), valleyWall: "2024-10-28 00:00 +01:00", valleyGW: 22.5,
	},
}

func TestParsePeakValley(t *testing.T) {
	tests := []struct {
		name, file, content string
	}{
		{
			name: "CSV, days out of order",
			file: "pv.csv",
			content: "date,date_tz,date_offset,peak_load_GW,valley_load_GW\n" +
				"2024-10-28 11:00:00,Europe/Rome,+01:00,41.000,\n" +
				"2024-10-27 02:30:00,Europe/Rome,+01:00,,19.123\n" +
				"2024-03-31 03:00:00,Europe/Rome,+02:00,,18.25\n" +
				"2024-10-27 19:15:00,Europe/Rome,+01:00,33.75,\n" +
				"2024-10-28 00:00:00,Europe/Rome,+01:00,,22.5\n" +
				"2024-03-31 20:00:00,Europe/Rome,+02:00,31.5,\n",
		},
		{
			name: "CSV with semicolons, decimal commas, other column order and a title row",
			file: "pv.csv",
			content: "Peak and valley load;;;;\n" + // a spreadsheet pads the title row with separators
				"peak_load_GW;valley_load_GW;date;date_tz;date_offset\n" +
				";18,25;2024-03-31 03:00:00;Europe/Rome;+02:00\n" +
				"31,5;;2024-03-31 20:00:00;Europe/Rome;+02:00\n" +
				";19,123;2024-10-27 02:30:00;Europe/Rome;+01:00\n" +
				"33,75;;2024-10-27 19:15:00;Europe/Rome;+01:00\n" +
				";22,5;2024-10-28 00:00:00;Europe/Rome;+01:00\n" +
				"41;;2024-10-28 11:00:00;Europe/Rome;+01:00\n",
		},
		{
			name: "JSON in the endpoint's shape",
			file: "pv.json",
			content: `{"result": {"message": "Operation completed for the following input. Date from: 31/03/2024, date to: 28/10/2024", "status": "Completed"},
			"peak_valley_load": [
				{"date": "2024-03-31 03:00:00", "date_tz": "Europe/Rome", "date_offset": "+02:00", "peak_load_GW": "", "valley_load_GW": "18.25"},
				{"date": "2024-03-31 20:00:00", "date_tz": "Europe/Rome", "date_offset": "+02:00", "peak_load_GW": "31.5", "valley_load_GW": ""},
				{"date": "2024-10-27 02:30:00", "date_tz": "Europe/Rome", "date_offset": "+01:00", "peak_load_GW": "", "valley_load_GW": "19.123"},
				{"date": "2024-10-27 19:15:00", "date_tz": "Europe/Rome", "date_offset": "+01:00", "peak_load_GW": "33.75", "valley_load_GW": ""},
				{"date": "2024-10-28 00:00:00", "date_tz": "Europe/Rome", "date_offset": "+01:00", "peak_load_GW": null, "valley_load_GW": 22.5},
				{"date": "2024-10-28 11:00:00", "date_tz": "Europe/Rome", "date_offset": "+01:00", "peak_load_GW": 41, "extra": true}
			]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParsePeakValley(tt.file, strings.NewReader(tt.content))
			if err != nil {
				t.Fatalf("ParsePeakValley: %v", err)
			}
			checkDays(t, got, pvDays)
		})
	}
}

func TestParsePeakValleyRepeatedHourOffsets(t *testing.T) {
	// The same wall time twice on 27/10/2024: the offset alone says which.
	tests := []struct {
		offset   string
		wantAt   time.Time
		wantWall string
	}{
		{"+02:00", utc(2024, time.October, 27, 0, 30), "02:30 +02:00"},
		{"+01:00", utc(2024, time.October, 27, 1, 30), "02:30 +01:00"},
	}
	for _, tt := range tests {
		t.Run(tt.offset, func(t *testing.T) {
			content := "date,date_tz,date_offset,peak_load_GW,valley_load_GW\n" +
				"2024-10-27 02:30:00,Europe/Rome," + tt.offset + ",,19\n" +
				"2024-10-27 19:00:00,Europe/Rome,+01:00,33,\n"
			got, err := ParsePeakValley("pv.csv", strings.NewReader(content))
			if err != nil {
				t.Fatalf("ParsePeakValley: %v", err)
			}
			if len(got) != 1 {
				t.Fatalf("got %d days, want 1", len(got))
			}
			v := got[0].Valley.At
			if !v.Equal(tt.wantAt) || v.Format("15:04 -07:00") != tt.wantWall {
				t.Errorf("valley: got %v (%s), want %v (%s)", v.UTC(), v.Format("15:04 -07:00"), tt.wantAt, tt.wantWall)
			}
		})
	}
}

func TestParsePeakValleyXLSX(t *testing.T) {
	rows := [][]any{
		{"date", "date_tz", "date_offset", "peak_load_GW", "valley_load_GW"},
		// 45382 is 31/03/2024; 0.125 of a day is 03:00.
		{45382.125, "Europe/Rome", "+02:00", nil, 18.25},
		{time.Date(2024, time.March, 31, 20, 0, 0, 0, time.UTC), "Europe/Rome", "+02:00", 31.5, nil},
		{"2024-10-27 02:30:00", "Europe/Rome", "+01:00", "", "19.123"},
		{"2024-10-27 19:15:00", "Europe/Rome", "+01:00", 33.75, ""},
		{"2024-10-28 00:00:00", "Europe/Rome", "+01:00", "", 22.5},
		{"2024-10-28 11:00:00", "Europe/Rome", "+01:00", 41, ""},
	}
	got, err := ParsePeakValley("pv.xlsx", bytes.NewReader(workbook(t, rows)))
	if err != nil {
		t.Fatalf("ParsePeakValley: %v", err)
	}
	checkDays(t, got, pvDays)
}

func TestParsePeakValleyErrors(t *testing.T) {
	const hdr = "date,date_tz,date_offset,peak_load_GW,valley_load_GW\n"
	const okDay = "2024-05-15 04:00:00,Europe/Rome,+02:00,,20\n2024-05-15 11:00:00,Europe/Rome,+02:00,40,\n"
	tests := []struct {
		name, file, content, want string
	}{
		{"time zone", "f.csv", hdr + "2024-05-15 04:00:00,Europe/Paris,+02:00,,20\n",
			`f.csv:2: date_tz "Europe/Paris": want Europe/Rome`},
		{"empty time zone", "f.csv", hdr + "2024-05-15 04:00:00,,+02:00,,20\n",
			`f.csv:2: date_tz "": want Europe/Rome`},
		{"winter offset in summer", "f.csv", hdr + okDay + "2024-05-16 04:00:00,Europe/Rome,+01:00,,20\n",
			`f.csv:4: date_offset +01:00 is not Europe/Rome's offset at 2024-05-16 04:00:00 (+02:00)`},
		{"offset outside the repeated hour's two", "f.csv", hdr + "2024-10-27 02:30:00,Europe/Rome,+00:00,,20\n",
			`f.csv:2: date_offset +00:00 is not Europe/Rome's offset at 2024-10-27 02:30:00 (+02:00 the first time, +01:00 the second)`},
		{"offset malformed", "f.csv", hdr + "2024-05-15 04:00:00,Europe/Rome,+2,,20\n",
			`f.csv:2: date_offset "+2": want a sign and hh:mm, like +01:00`},
		{"spring gap", "f.csv", hdr + "2024-03-31 02:30:00,Europe/Rome,+01:00,,20\n",
			`f.csv:2: date 2024-03-31 02:30:00 does not exist in Europe/Rome`},
		{"date format", "f.csv", hdr + "15/05/2024 04:00:00,Europe/Rome,+02:00,,20\n",
			`f.csv:2: date "15/05/2024 04:00:00": want yyyy-mm-dd hh:mm:ss`},
		{"both loads", "f.csv", hdr + "2024-05-15 04:00:00,Europe/Rome,+02:00,40,20\n",
			`f.csv:2: both peak_load_GW and valley_load_GW are set`},
		{"neither load", "f.csv", hdr + "2024-05-15 04:00:00,Europe/Rome,+02:00,,\n",
			`f.csv:2: neither peak_load_GW nor valley_load_GW is set`},
		{"not a number", "f.csv", hdr + "2024-05-15 04:00:00,Europe/Rome,+02:00,,about 20\n",
			`f.csv:2: valley_load_GW: invalid number "about 20"`},
		{"negative", "f.csv", hdr + "2024-05-15 04:00:00,Europe/Rome,+02:00,-40,\n",
			`f.csv:2: peak_load_GW: "-40" is negative`},
		{"second peak", "f.csv", hdr + okDay + "2024-05-15 19:00:00,Europe/Rome,+02:00,41,\n",
			`f.csv:4: second peak for 2024-05-15 (the first is on line 3)`},
		{"second valley", "f.csv", hdr + okDay + "2024-05-15 03:00:00,Europe/Rome,+02:00,,19\n",
			`f.csv:4: second valley for 2024-05-15 (the first is on line 2)`},
		{"no valley", "f.csv", hdr + okDay + "2024-05-16 11:00:00,Europe/Rome,+02:00,40,\n",
			`f.csv:4: 2024-05-16 has a peak but no valley`},
		{"no peak", "f.csv", hdr + "2024-05-14 04:00:00,Europe/Rome,+02:00,,20\n" + okDay,
			`f.csv:2: 2024-05-14 has a valley but no peak`},
		{"peak below valley", "f.csv", hdr + "2024-05-15 04:00:00,Europe/Rome,+02:00,,30\n2024-05-15 11:00:00,Europe/Rome,+02:00,25,\n",
			`f.csv:3: peak 25 GW of 2024-05-15 is below its valley 30 GW (line 2)`},
		{"no header", "f.csv", "giorno,picco\n2024-05-15,40\n",
			`f.csv: no header row with the columns "date", "date_tz", "date_offset", "peak_load_GW", "valley_load_GW"`},
		{"no rows", "f.csv", hdr,
			`f.csv: no data rows below the header`},
		{"unknown extension", "f.xml", hdr,
			`f.xml: unknown file type ".xml"`},
		{"JSON record index", "f.json", `{"peak_valley_load": [
			{"date": "2024-05-15 04:00:00", "date_tz": "Europe/Rome", "date_offset": "+02:00", "peak_load_GW": "", "valley_load_GW": "20"},
			{"date": "2024-05-15 11:00:00", "date_tz": "Europe/Rome", "date_offset": "+02:00", "peak_load_GW": "40", "valley_load_GW": ""},
			{"date": "2024-05-16 11:00:00", "date_tz": "UTC", "date_offset": "+02:00", "peak_load_GW": "40", "valley_load_GW": ""}]}`,
			`f.json: record 3: date_tz "UTC": want Europe/Rome`},
		{"JSON second peak names the first record", "f.json", `{"peak_valley_load": [
			{"date": "2024-05-15 11:00:00", "date_tz": "Europe/Rome", "date_offset": "+02:00", "peak_load_GW": "40", "valley_load_GW": ""},
			{"date": "2024-05-15 12:00:00", "date_tz": "Europe/Rome", "date_offset": "+02:00", "peak_load_GW": "41", "valley_load_GW": ""}]}`,
			`f.json: record 2: second peak for 2024-05-15 (the first is on record 1)`},
		{"JSON wrong value type", "f.json", `{"peak_valley_load": [{"date": ["2024-05-15 11:00:00"]}]}`,
			`f.json: record 1: want a string or a number`},
		{"JSON not JSON", "f.json", `date,date_tz`,
			`f.json: not a peak-valley response:`},
		{"JSON without the array", "f.json", `{"result": {"status": "Completed"}}`,
			`f.json: no records in peak_valley_load`},
		{"JSON record not an object", "f.json", `{"peak_valley_load": ["x"]}`,
			`f.json: record 1: `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			days, err := ParsePeakValley(tt.file, strings.NewReader(tt.content))
			wantInvalid(t, err, fmt.Sprintf("%d days", len(days)), tt.want)
		})
	}
}
