package ingest

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

func parseTotalLoadFile(tb testing.TB, name string) []energy.LoadPoint {
	tb.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	pts, err := ParseTotalLoad(name, f)
	if err != nil {
		tb.Fatalf("ParseTotalLoad(%s): %v", name, err)
	}
	return pts
}

// byZone splits pts by zone, keeping their order.
func byZone(pts []energy.LoadPoint) map[energy.Zone][]energy.LoadPoint {
	m := map[energy.Zone][]energy.LoadPoint{}
	for _, p := range pts {
		m[p.Zone] = append(m[p.Zone], p)
	}
	return m
}

// findPoint returns the point of zone z at the instant at.
func findPoint(tb testing.TB, pts []energy.LoadPoint, z energy.Zone, at time.Time) energy.LoadPoint {
	tb.Helper()
	for _, p := range pts {
		if p.Zone == z && p.At.Equal(at) {
			return p
		}
	}
	tb.Fatalf("no %s point at %v", z, at)
	return energy.LoadPoint{}
}

func utc(y int, m time.Month, d, hh, mm int) time.Time {
	return time.Date(y, m, d, hh, mm, 0, 0, time.UTC)
}

func TestParseTotalLoadAutumnDay(t *testing.T) {
	// Both fixtures hold 27/10/2024 for every zone; the newest-first one, which
	// also has a title row, is the oldest-first one upside down. Total load is
	// 1000 × (zone's place in energy.Zones(), from 1) + (quarter hour of the
	// day, from 0) + 0.5, so each value names the instant it belongs to.
	for _, name := range []string{"totalload_autumn_oldest.csv", "totalload_autumn_newest.csv"} {
		t.Run(name, func(t *testing.T) {
			pts := parseTotalLoadFile(t, name)
			if len(pts) != 800 {
				t.Fatalf("got %d points, want 800 (100 quarter hours × 8 zones)", len(pts))
			}
			zones := byZone(pts)
			for zi, z := range energy.Zones() {
				zp := zones[z]
				if len(zp) != 100 {
					t.Fatalf("%s: got %d quarter hours, want 100", z, len(zp))
				}
				start := utc(2024, time.October, 26, 22, 0) // 00:00 +02:00
				for k, p := range zp {
					want := start.Add(time.Duration(k) * 15 * time.Minute)
					if !p.At.Equal(want) {
						t.Fatalf("%s quarter hour %d: got %v, want %v", z, k, p.At, want)
					}
					wantMW := float64(1000*(zi+1)+k) + 0.5
					if z == energy.Italy {
						wantMW += 20000 // the fixture's Italy rows are 20 GW higher, to be plausible
					}
					if p.TotalMW != wantMW {
						t.Fatalf("%s at %v: got %v MW, want %v", z, p.At, p.TotalMW, wantMW)
					}
				}
			}
			tests := []struct {
				zone            energy.Zone
				at              time.Time
				wall            string
				total, forecast float64
			}{
				{energy.North, utc(2024, time.October, 27, 0, 15), "02:15 +02:00", 1009.5, 1059.5},
				{energy.North, utc(2024, time.October, 27, 1, 15), "02:15 +01:00", 1013.5, 1063.5},
				{energy.Italy, utc(2024, time.October, 27, 0, 45), "02:45 +02:00", 28011.5, 28061.5},
				{energy.Italy, utc(2024, time.October, 27, 1, 0), "02:00 +01:00", 28012.5, 28062.5},
				{energy.Italy, utc(2024, time.October, 27, 2, 0), "03:00 +01:00", 28016.5, 28066.5},
				{energy.Sardinia, utc(2024, time.October, 27, 1, 30), "02:30 +01:00", 7014.5, math.NaN()},
			}
			for _, tt := range tests {
				p := findPoint(t, pts, tt.zone, tt.at)
				if got := p.At.Format("15:04 -07:00"); got != tt.wall {
					t.Errorf("%s at %v: got wall clock %s, want %s", tt.zone, tt.at, got, tt.wall)
				}
				if p.TotalMW != tt.total {
					t.Errorf("%s at %s: got total %v, want %v", tt.zone, tt.wall, p.TotalMW, tt.total)
				}
				if !sameFloat(p.ForecastMW, tt.forecast) {
					t.Errorf("%s at %s: got forecast %v, want %v", tt.zone, tt.wall, p.ForecastMW, tt.forecast)
				}
			}
		})
	}
}

func sameFloat(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

func TestParseTotalLoadSpringDay(t *testing.T) {
	// Semicolons, decimal commas with thousands points, unpadded day, month
	// and hour, no forecast column.
	pts := parseTotalLoadFile(t, "totalload_spring.csv")
	if len(pts) != 92*8 {
		t.Fatalf("got %d points, want 736 (92 quarter hours × 8 zones)", len(pts))
	}
	for z, zp := range byZone(pts) {
		if len(zp) != 92 {
			t.Errorf("%s: got %d quarter hours, want 92", z, len(zp))
		}
	}
	tests := []struct {
		zone  energy.Zone
		at    time.Time
		wall  string
		total float64
	}{
		{energy.North, utc(2024, time.March, 30, 23, 0), "00:00 +01:00", 1000.25},
		{energy.North, utc(2024, time.March, 31, 0, 45), "01:45 +01:00", 1007.25},
		{energy.North, utc(2024, time.March, 31, 1, 0), "03:00 +02:00", 1008.25},
		{energy.Italy, utc(2024, time.March, 31, 21, 45), "23:45 +02:00", 28091.25},
	}
	for _, tt := range tests {
		p := findPoint(t, pts, tt.zone, tt.at)
		if got := p.At.Format("15:04 -07:00"); got != tt.wall {
			t.Errorf("%s at %v: got wall clock %s, want %s", tt.zone, tt.at, got, tt.wall)
		}
		if p.TotalMW != tt.total {
			t.Errorf("%s at %s: got total %v, want %v", tt.zone, tt.wall, p.TotalMW, tt.total)
		}
		if !math.IsNaN(p.ForecastMW) {
			t.Errorf("%s at %s: got forecast %v, want NaN (no forecast column)", tt.zone, tt.wall, p.ForecastMW)
		}
	}
}

func TestParseTotalLoadSpringGapFixture(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "totalload_spring_gap.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = ParseTotalLoad("totalload_spring_gap.csv", f)
	want := "totalload_spring_gap.csv:66: Date 31/03/2024 02:15:00 does not exist in Europe/Rome"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got error %v, want one starting %q", err, want)
	}
}

// wantInvalid asserts that a parse that read got failed with an error
// of code Invalid whose message starts with want.
func wantInvalid(t *testing.T, err error, got, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got %s and no error, want %q", got, want)
	}
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got error %q, want one starting %q", err, want)
	}
	if code := energy.ErrorCode(err); code != energy.Invalid {
		t.Errorf("got code %q, want %q", code, energy.Invalid)
	}
}

// wantPoint is a parsed point written by hand.
type wantPoint struct {
	at       time.Time
	zone     energy.Zone
	total    float64
	forecast float64
}

func checkPoints(tb testing.TB, got []energy.LoadPoint, want []wantPoint) {
	tb.Helper()
	if len(got) != len(want) {
		tb.Fatalf("got %d points, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if !g.At.Equal(w.at) || g.Zone != w.zone || g.TotalMW != w.total || !sameFloat(g.ForecastMW, w.forecast) {
			tb.Errorf("point %d: got {%v %s %v %v}, want {%v %s %v %v}",
				i, g.At.UTC(), g.Zone, g.TotalMW, g.ForecastMW, w.at, w.zone, w.total, w.forecast)
		}
	}
}

func TestParseTotalLoadSmallFiles(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name, file, content string
		want                []wantPoint
	}{
		{
			name: "AM/PM newest first through the repeated hour",
			file: "ampm.csv",
			content: "Date,Total Load [MW],Forecast Total load [MW],Bidding zone\n" +
				"27/10/2024 3:00:00 AM,21003,,Italy\n" +
				"27/10/2024 2:30:00 AM,21002,,Italy\n" + // +01:00
				"27/10/2024 2:30:00 AM,21001,,Italy\n" + // +02:00
				"27/10/2024 12:15:00 AM,21000,,Italy\n" +
				"26/10/2024 11:45:00 PM,23000,,Italy\n" +
				"26/10/2024 12:00:00 PM,41000,40000,Italy\n" +
				"26/10/2024 11:45:00 AM,40500,40600,Italy\n",
			want: []wantPoint{
				{utc(2024, time.October, 26, 9, 45), energy.Italy, 40500, 40600},
				{utc(2024, time.October, 26, 10, 0), energy.Italy, 41000, 40000},
				{utc(2024, time.October, 26, 21, 45), energy.Italy, 23000, nan},
				{utc(2024, time.October, 26, 22, 15), energy.Italy, 21000, nan},
				{utc(2024, time.October, 27, 0, 30), energy.Italy, 21001, nan},
				{utc(2024, time.October, 27, 1, 30), energy.Italy, 21002, nan},
				{utc(2024, time.October, 27, 2, 0), energy.Italy, 21003, nan},
			},
		},
		{
			name: "title row, zones in other spellings, seconds left out, sorted by zone",
			file: "zones.csv",
			content: "Total Load - Italy - 27/10/2024\n\n" +
				"Bidding zone,Date,Total Load [MW]\n" +
				"centre north,27/10/2024 02:15,2001\n" +
				"Centre North,27/10/2024 02:15,2002\n" +
				"CENTRE_SOUTH,27/10/2024 02:15,3001\n" +
				"Centre-South,27/10/2024 02:15,3002\n",
			want: []wantPoint{
				{utc(2024, time.October, 27, 0, 15), energy.CentreNorth, 2001, nan},
				{utc(2024, time.October, 27, 0, 15), energy.CentreSouth, 3001, nan},
				{utc(2024, time.October, 27, 1, 15), energy.CentreNorth, 2002, nan},
				{utc(2024, time.October, 27, 1, 15), energy.CentreSouth, 3002, nan},
			},
		},
		{
			name: "semicolons, decimal comma, blank lines skipped",
			file: "semi.csv",
			content: "Date;Total Load [MW];Forecast Total load [MW];Bidding zone\n" +
				"15/05/2024 10:00:00;1.234,5;1.200,25;Sicily\n" +
				";;;\n" +
				"15/05/2024 10:15:00;1234.75;;Sicily\n\n",
			want: []wantPoint{
				{utc(2024, time.May, 15, 8, 0), energy.Sicily, 1234.5, 1200.25},
				{utc(2024, time.May, 15, 8, 15), energy.Sicily, 1234.75, nan},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseTotalLoad(tt.file, strings.NewReader(tt.content))
			if err != nil {
				t.Fatalf("ParseTotalLoad: %v", err)
			}
			checkPoints(t, got, tt.want)
		})
	}
}

func TestParseTotalLoadXLSX(t *testing.T) {
	rows := [][]any{
		{"Total Load"},
		{"Date", "Total Load [MW]", "Forecast Total load [MW]", "Bidding zone"},
		// A real date cell: excelize stores the wall clock of the time given.
		{time.Date(2024, time.October, 27, 1, 45, 0, 0, energy.Rome()), 20000.5, 20100.25, "Italy"},
		// The repeated hour, oldest first, as date cells.
		{utc(2024, time.October, 27, 0, 0).In(energy.Rome()), 20001, nil, "Italy"},
		{utc(2024, time.October, 27, 1, 0).In(energy.Rome()), 20002, nil, "Italy"},
		// Serial numbers as a sheet would hold them: 45592 is 27/10/2024 and
		// 0.9375 of a day is 22:30; 45293.0104166667 is 02/01/2024 00:15.
		{45592.9375, 25000, 25500, "Italy"},
		{45293.0104166667, 30000, "", "North"},
		// Text dates are accepted in a workbook too.
		{"02/01/2024 00:30:00", 30500, "30400.5", "North"},
	}
	got, err := ParseTotalLoad("load.xlsx", bytes.NewReader(workbook(t, rows)))
	if err != nil {
		t.Fatalf("ParseTotalLoad: %v", err)
	}
	nan := math.NaN()
	checkPoints(t, got, []wantPoint{
		{utc(2024, time.January, 1, 23, 15), energy.North, 30000, nan},
		{utc(2024, time.January, 1, 23, 30), energy.North, 30500, 30400.5},
		{utc(2024, time.October, 26, 23, 45), energy.Italy, 20000.5, 20100.25},
		{utc(2024, time.October, 27, 0, 0), energy.Italy, 20001, nan},
		{utc(2024, time.October, 27, 1, 0), energy.Italy, 20002, nan},
		{utc(2024, time.October, 27, 21, 30), energy.Italy, 25000, 25500},
	})
}

func TestParseTotalLoadErrors(t *testing.T) {
	const hdr = "Date,Total Load [MW],Forecast Total load [MW],Bidding zone\n"
	tests := []struct {
		name, content, want string
	}{
		{"year before the domain's range", hdr + "01/01/1890 00:00:00,20000,,Italy\n",
			"f.csv:2: Date 01/01/1890 00:00:00: year 1890 is outside 1900..2100"},
		{"spring gap", hdr + "31/03/2024 01:45:00,20000,,Italy\n31/03/2024 02:15:00,20000,,Italy\n",
			"f.csv:3: Date 31/03/2024 02:15:00 does not exist in Europe/Rome"},
		{"duplicate names both lines", hdr + "15/05/2024 10:00:00,1,,North\n15/05/2024 10:15:00,1,,North\n15/05/2024 10:00:00,2,,north\n",
			"f.csv:4: North at 15/05/2024 10:00:00 repeats line 2"},
		{"repeated hour a third time", hdr + "27/10/2024 02:15:00,1,,Sicily\n27/10/2024 02:15:00,2,,Sicily\n27/10/2024 02:15:00,3,,Sicily\n",
			"f.csv:4: Sicily at 27/10/2024 02:15:00 appears a third time; the repeated hour has two (lines 2 and 3)"},
		{"repeated hour once only", hdr + "27/10/2024 02:00:00,1,,Sicily\n27/10/2024 02:15:00,2,,Sicily\n27/10/2024 02:00:00,3,,Sicily\n",
			"f.csv:3: Sicily at 27/10/2024 02:15:00 appears once"},
		{"minute off the quarter hour", hdr + "15/05/2024 10:07:00,1,,North\n",
			"f.csv:2: Date 15/05/2024 10:07:00: not on a quarter hour"},
		{"seconds", hdr + "15/05/2024 10:15:30,1,,North\n",
			"f.csv:2: Date 15/05/2024 10:15:30: not on a quarter hour"},
		{"impossible day", hdr + "31/04/2024 10:00:00,1,,North\n",
			`f.csv:2: Date "31/04/2024 10:00:00": want dd/mm/yyyy hh:mm:ss`},
		{"ISO date", hdr + "2024-05-15 10:00:00,1,,North\n",
			`f.csv:2: Date "2024-05-15 10:00:00": want dd/mm/yyyy hh:mm:ss`},
		{"empty date", hdr + ",1,,North\n",
			`f.csv:2: Date "": want dd/mm/yyyy hh:mm:ss`},
		{"hour 24", hdr + "15/05/2024 24:00:00,1,,North\n",
			`f.csv:2: Date "15/05/2024 24:00:00": hour 24 is past 23`},
		{"minute 60", hdr + "15/05/2024 10:60:00,1,,North\n",
			`f.csv:2: Date "15/05/2024 10:60:00": want minutes and seconds from 00 to 59`},
		{"PM hour 13", hdr + "15/05/2024 13:00:00 PM,1,,North\n",
			`f.csv:2: Date "15/05/2024 13:00:00 PM": hour 13 is not 1 to 12 on the 12-hour clock`},
		{"AM hour 0", hdr + "15/05/2024 0:15:00 AM,1,,North\n",
			`f.csv:2: Date "15/05/2024 0:15:00 AM": hour 0 is not 1 to 12 on the 12-hour clock`},
		{"not AM or PM", hdr + "15/05/2024 10:00:00 CET,1,,North\n",
			`f.csv:2: Date "15/05/2024 10:00:00 CET": "CET" after the time is neither AM nor PM`},
		{"unknown zone", hdr + "15/05/2024 10:00:00,1,,Nord\n",
			`f.csv:2: Bidding zone "Nord" is not one of North, Centre-North, Centre-South, South, Calabria, Sicily, Sardinia, Italy`},
		{"empty zone", hdr + "15/05/2024 10:00:00,1,,\n",
			`f.csv:2: Bidding zone "" is not one of`},
		{"total not a number", hdr + "15/05/2024 10:00:00,n/a,,North\n",
			`f.csv:2: Total Load [MW]: invalid number "n/a"`},
		{"total empty", hdr + "15/05/2024 10:00:00,,,North\n",
			`f.csv:2: Total Load [MW]: empty`},
		{"total negative", hdr + "15/05/2024 10:00:00,-5,,North\n",
			`f.csv:2: Total Load [MW]: "-5" is negative`},
		{"forecast not a number", hdr + "15/05/2024 10:00:00,5,1e3,North\n",
			`f.csv:2: Forecast Total load [MW]: invalid number "1e3"`},
		{"first bad row wins", hdr + "15/05/2024 10:00:00,5,,North\n15/05/2024 10:15:00,x,,North\n15/05/2024 10:30:00,5,,Nowhere\n",
			`f.csv:3: Total Load [MW]: invalid number "x"`},
		{"no header", "Data,Carico,Zona\n15/05/2024 10:00:00,5,North\n",
			`f.csv: no header row with the columns "Date", "Total Load [MW]", "Bidding zone"`},
		{"no data rows", hdr + "\n",
			`f.csv: no data rows below the header`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pts, err := ParseTotalLoad("f.csv", strings.NewReader(tt.content))
			wantInvalid(t, err, fmt.Sprintf("%d points", len(pts)), tt.want)
		})
	}
}

func TestParseTotalLoadXLSXBadSerial(t *testing.T) {
	data := workbook(t, [][]any{
		{"Date", "Total Load [MW]", "Bidding zone"},
		{45292.5, 1000, "North"},
		{-3, 1000, "North"},
	})
	_, err := ParseTotalLoad("bad.xlsx", bytes.NewReader(data))
	want := `bad.xlsx:3: Date "-3": not a date`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got error %v, want one starting %q", err, want)
	}
}
