package energy

import (
	"math"
	"testing"
	"time"
)

var bidding = []Zone{North, CentreNorth, CentreSouth, South, Calabria, Sicily, Sardinia}

// zonePoints returns one point per bidding zone at instant at, whose loads sum
// to totalMW (the North takes the remainder of equal shares of 1000 MW).
func zonePoints(tb testing.TB, at time.Time, totalMW float64) []LoadPoint {
	tb.Helper()
	pts := make([]LoadPoint, 0, len(bidding))
	for _, z := range bidding[1:] {
		pts = append(pts, LoadPoint{At: at, Zone: z, TotalMW: 1000, ForecastMW: math.NaN()})
	}
	return append(pts, LoadPoint{At: at, Zone: North, TotalMW: totalMW - 6000, ForecastMW: math.NaN()})
}

func italyPoint(at time.Time, mw float64) LoadPoint {
	return LoadPoint{At: at, Zone: Italy, TotalMW: mw, ForecastMW: math.NaN()}
}

func romeAt(tb testing.TB, y int, m time.Month, d, hh, mm int) time.Time {
	tb.Helper()
	return time.Date(y, m, d, hh, mm, 0, 0, Rome())
}

func assertExtreme(tb testing.TB, what string, got Extreme, wantAt time.Time, wantGW float64) {
	tb.Helper()
	if !got.At.Equal(wantAt) {
		tb.Errorf("%s at: got %v, want %v", what, got.At, wantAt)
	}
	if got.GW != wantGW {
		tb.Errorf("%s GW: got %v, want %v", what, got.GW, wantGW)
	}
}

// quarterHours returns the points of each quarter hour from start until
// end, from point of its index and moment.
func quarterHours(start, end time.Time, point func(i int, at time.Time) []LoadPoint) []LoadPoint {
	var pts []LoadPoint
	for i, at := 0, start; at.Before(end); i, at = i+1, at.Add(15*time.Minute) {
		pts = append(pts, point(i, at)...)
	}
	return pts
}

func TestDeriveDay(t *testing.T) {
	day := Date{2024, time.May, 14}
	at := func(hh, mm int) time.Time { return romeAt(t, 2024, time.May, 14, hh, mm) }
	// The seven zones without Italy at the valley and the peak of two cases.
	zonesOnly := concat(zonePoints(t, at(3, 45), 22750), zonePoints(t, at(12, 15), 40500))
	tests := []struct {
		name     string
		pts      []LoadPoint
		peakAt   time.Time
		peakGW   float64
		valleyAt time.Time
		valleyGW float64
	}{
		{
			name: "Italy present wins over the zones",
			pts: concat(
				[]LoadPoint{italyPoint(at(4, 0), 21500), italyPoint(at(11, 0), 41250), italyPoint(at(19, 0), 38000)},
				zonePoints(t, at(4, 0), 50000), // would be the peak if the zones were summed
				zonePoints(t, at(11, 0), 10000),
			),
			peakAt: at(11, 0), peakGW: 41.25,
			valleyAt: at(4, 0), valleyGW: 21.5,
		},
		{
			name:   "Italy missing: the sum of all seven zones is used",
			pts:    concat(zonesOnly, zonePoints(t, at(18, 0), 39000)),
			peakAt: at(12, 15), peakGW: 40.5,
			valleyAt: at(3, 45), valleyGW: 22.75,
		},
		{
			name: "Italy missing and six zones: the instant is skipped",
			pts: concat(
				zonesOnly,
				zonePoints(t, at(5, 0), 12000)[:6],  // no North: would be the valley
				zonePoints(t, at(13, 0), 90000)[1:], // no Centre-North: would be the peak
			),
			peakAt: at(12, 15), peakGW: 40.5,
			valleyAt: at(3, 45), valleyGW: 22.75,
		},
		{
			name: "Italy with a NaN load falls back to the zones",
			pts: concat(
				[]LoadPoint{italyPoint(at(9, 0), math.NaN()), italyPoint(at(2, 0), 25000)},
				zonePoints(t, at(9, 0), 43000),
			),
			peakAt: at(9, 0), peakGW: 43,
			valleyAt: at(2, 0), valleyGW: 25,
		},
		{
			name: "ties go to the earliest instant, whatever the input order",
			pts: []LoadPoint{
				italyPoint(at(20, 0), 40000),
				italyPoint(at(5, 30), 20000),
				italyPoint(at(10, 45), 40000),
				italyPoint(at(15, 0), 30000),
				italyPoint(at(3, 15), 20000),
				italyPoint(at(18, 0), 40000),
			},
			peakAt: at(10, 45), peakGW: 40,
			valleyAt: at(3, 15), valleyGW: 20,
		},
		{
			name: "points outside the day are ignored",
			pts: []LoadPoint{
				italyPoint(at(0, 0).Add(-15*time.Minute), 99000), // last quarter hour of the day before
				italyPoint(at(0, 0), 30000),
				italyPoint(at(23, 45), 31000),
				italyPoint(romeAt(t, 2024, time.May, 15, 0, 0), 1000), // first quarter hour of the next day
			},
			peakAt: at(23, 45), peakGW: 31,
			valleyAt: at(0, 0), valleyGW: 30,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := DeriveDay(day, tt.pts)
			if !ok {
				t.Fatalf("DeriveDay: got ok false, want true")
			}
			if got.Day != day {
				t.Errorf("Day: got %v, want %v", got.Day, day)
			}
			assertExtreme(t, "peak", got.Peak, tt.peakAt, tt.peakGW)
			assertExtreme(t, "valley", got.Valley, tt.valleyAt, tt.valleyGW)
		})
	}
}

func TestDeriveDayNothingQualifies(t *testing.T) {
	day := Date{2024, time.May, 14}
	tests := []struct {
		name string
		pts  []LoadPoint
	}{
		{"no points", nil},
		{"only six zones", zonePoints(t, romeAt(t, 2024, time.May, 14, 12, 0), 40000)[1:]},
		{"only other days", []LoadPoint{italyPoint(romeAt(t, 2024, time.May, 13, 12, 0), 40000)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok := DeriveDay(day, tt.pts); ok {
				t.Errorf("DeriveDay: got %v, true; want ok false", got)
			}
		})
	}
}

func TestDeriveDaySpringForward(t *testing.T) {
	day := Date{2024, time.March, 31}
	// 00:00 +01:00 is 23:00 UTC the day before; the day ends at 22:00 UTC.
	start := time.Date(2024, time.March, 30, 23, 0, 0, 0, time.UTC)
	pts := quarterHours(start, time.Date(2024, time.March, 31, 22, 0, 0, 0, time.UTC), func(i int, at time.Time) []LoadPoint {
		return []LoadPoint{italyPoint(at, 25000+float64(i)*10)}
	})
	if len(pts) != 92 {
		t.Fatalf("test setup: got %d quarter hours, want 92", len(pts))
	}
	// 03:00 +02:00 (01:00 UTC) is the ninth quarter hour: the clocks jump from 02:00 to 03:00.
	pts[8].TotalMW = 18000
	got, ok := DeriveDay(day, pts)
	if !ok {
		t.Fatal("DeriveDay: got ok false, want true")
	}
	assertExtreme(t, "peak", got.Peak, time.Date(2024, time.March, 31, 21, 45, 0, 0, time.UTC), 25.91)
	assertExtreme(t, "valley", got.Valley, time.Date(2024, time.March, 31, 1, 0, 0, 0, time.UTC), 18)
	if s := got.Peak.At.Format("15:04 -07:00"); s != "23:45 +02:00" {
		t.Errorf("peak wall clock: got %s, want 23:45 +02:00", s)
	}
	if s := got.Valley.At.Format("15:04 -07:00"); s != "03:00 +02:00" {
		t.Errorf("valley wall clock: got %s, want 03:00 +02:00", s)
	}
}

func TestDeriveDayFallBack(t *testing.T) {
	day := Date{2024, time.October, 27}
	// 00:00 +02:00 is 22:00 UTC the day before; the day ends at 23:00 UTC.
	start := time.Date(2024, time.October, 26, 22, 0, 0, 0, time.UTC)
	pts := quarterHours(start, time.Date(2024, time.October, 27, 23, 0, 0, 0, time.UTC), func(_ int, at time.Time) []LoadPoint {
		return zonePoints(t, at, 30000)
	})
	if len(pts) != 100*7 {
		t.Fatalf("test setup: got %d points, want 100 quarter hours of 7 zones", len(pts))
	}
	// 02:30 happens twice: at 00:30 UTC (+02:00) and 01:30 UTC (+01:00). Only
	// the second is the valley; the first is the peak.
	first := time.Date(2024, time.October, 27, 0, 30, 0, 0, time.UTC)
	second := time.Date(2024, time.October, 27, 1, 30, 0, 0, time.UTC)
	for i := range pts {
		if pts[i].Zone != North {
			continue
		}
		switch {
		case pts[i].At.Equal(first):
			pts[i].TotalMW += 5000
		case pts[i].At.Equal(second):
			pts[i].TotalMW -= 12000
		}
	}
	got, ok := DeriveDay(day, pts)
	if !ok {
		t.Fatal("DeriveDay: got ok false, want true")
	}
	assertExtreme(t, "peak", got.Peak, first, 35)
	assertExtreme(t, "valley", got.Valley, second, 18)
	if s := got.Peak.At.Format("15:04 -07:00"); s != "02:30 +02:00" {
		t.Errorf("peak wall clock: got %s, want 02:30 +02:00", s)
	}
	if s := got.Valley.At.Format("15:04 -07:00"); s != "02:30 +01:00" {
		t.Errorf("valley wall clock: got %s, want 02:30 +01:00", s)
	}
}

func concat(parts ...[]LoadPoint) []LoadPoint {
	var out []LoadPoint
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestCheckDay(t *testing.T) {
	spring := Date{Year: 2024, Month: time.March, Day: 31} // 92 quarter hours
	points := func(day Date, n int, zones ...Zone) []LoadPoint {
		var pts []LoadPoint
		for k, at := 0, day.Start(); k < n; k, at = k+1, at.Add(15*time.Minute) {
			for _, z := range zones {
				pts = append(pts, LoadPoint{At: at, Zone: z, TotalMW: 20000})
			}
		}
		return pts
	}
	seven := []Zone{North, CentreNorth, CentreSouth, South, Calabria, Sicily, Sardinia}
	mixed := append(points(spring, 46, Italy), points(spring, 92, seven...)[46*7:]...)
	for _, tc := range []struct {
		name string
		pts  []LoadPoint
		ok   bool
		why  string
	}{
		{"Italy all day", points(spring, 92, Italy), true, ""},
		{"seven zones all day", points(spring, 92, seven...), true, ""},
		{"ten quarter hours", points(spring, 10, Italy), false, "has 10 of its 92 quarter hours"},
		{"six zones", points(spring, 92, seven[:6]...), false, "has 0 of its 92 quarter hours"},
		{"Italy then zone sums", mixed, false, "mixes Italy's values with sums of the zones"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if ok, why := CheckDay(spring, tc.pts); ok != tc.ok || why != tc.why {
				t.Errorf("got %v %q, want %v %q", ok, why, tc.ok, tc.why)
			}
		})
	}
}
