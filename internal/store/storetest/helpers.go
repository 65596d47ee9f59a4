package storetest

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// wantCode fails the test unless err carries the given code.
func wantCode(t testing.TB, what string, err error, code energy.Code) {
	t.Helper()
	if got := energy.ErrorCode(err); got != code {
		t.Fatalf("%s: got error %v (code %q), want code %q", what, err, got, code)
	}
}

// noErr fails the test if err is not nil.
func noErr(t testing.TB, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: got error %v, want nil", what, err)
	}
}

func readData(t testing.TB, s Store) energy.Data {
	t.Helper()
	d, err := s.ReadData(t.Context())
	noErr(t, "ReadData", err)
	return d
}

func dataVersion(t testing.TB, s Store) int64 {
	t.Helper()
	v, err := s.DataVersion(t.Context())
	noErr(t, "DataVersion", err)
	return v
}

// at parses an RFC 3339 instant written in a test table.
func at(t testing.TB, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatalf("bad instant in test table: %v", err)
	}
	return v
}

// day returns the Date y-m-d, which a test table must give as a real day.
func day(t testing.TB, y int, m time.Month, d int) energy.Date {
	t.Helper()
	v, ok := energy.NewDate(y, m, d)
	if !ok {
		t.Fatalf("bad day in test table: %d-%d-%d", y, m, d)
	}
	return v
}

// dayView is a DayExtremes in a form that compares with == and reads well in
// failure messages: instants in UTC, RFC 3339.
type dayView struct {
	Day      string
	PeakAt   string
	PeakGW   float64
	ValleyAt string
	ValleyGW float64
}

func (v dayView) String() string {
	return fmt.Sprintf("{%s peak %v GW at %s, valley %v GW at %s}", v.Day, v.PeakGW, v.PeakAt, v.ValleyGW, v.ValleyAt)
}

func viewDays(days []energy.DayExtremes) []dayView {
	vs := make([]dayView, len(days))
	for i, d := range days {
		vs[i] = dayView{
			Day:      d.Day.String(),
			PeakAt:   d.Peak.At.UTC().Format(time.RFC3339),
			PeakGW:   d.Peak.GW,
			ValleyAt: d.Valley.At.UTC().Format(time.RFC3339),
			ValleyGW: d.Valley.GW,
		}
	}
	return vs
}

// wantDays fails the test unless got's days are exactly want.
func wantDays(t testing.TB, got energy.Data, want []dayView) {
	t.Helper()
	if g := viewDays(got.PeakValley); !slices.Equal(g, want) {
		t.Fatalf("PeakValley:\ngot  %v\nwant %v", g, want)
	}
}

// wantThermo fails the test unless got's thermoelectric records are exactly want.
func wantThermo(t testing.TB, got energy.Data, want []energy.ThermoRecord) {
	t.Helper()
	if !slices.Equal(got.Thermo, want) {
		t.Fatalf("Thermo:\ngot  %+v\nwant %+v", got.Thermo, want)
	}
}

// wantSameData fails the test unless got is the same data as want: version,
// update time and every record.
func wantSameData(t testing.TB, got, want energy.Data) {
	t.Helper()
	if got.Version != want.Version || !got.Updated.Equal(want.Updated) {
		t.Fatalf("got version %d updated %v, want %d updated %v", got.Version, got.Updated, want.Version, want.Updated)
	}
	wantThermo(t, got, want.Thermo)
	wantDays(t, got, viewDays(want.PeakValley))
}

// italy returns a point of Italy's total load with no forecast.
func italy(t testing.TB, instant string, mw float64) energy.LoadPoint {
	t.Helper()
	return energy.LoadPoint{At: at(t, instant), Zone: energy.Italy, TotalMW: mw, ForecastMW: math.NaN()}
}

// zones returns one point per bidding zone in zs at the instant, each with
// the given load and no forecast.
func zones(t testing.TB, instant string, mw float64, zs ...energy.Zone) []energy.LoadPoint {
	t.Helper()
	pts := make([]energy.LoadPoint, len(zs))
	for i, z := range zs {
		pts[i] = energy.LoadPoint{At: at(t, instant), Zone: z, TotalMW: mw, ForecastMW: math.NaN()}
	}
	return pts
}

// biddingZones returns the seven zones whose sum stands for Italy when
// Italy's own value is missing.
func biddingZones() []energy.Zone {
	return energy.Zones()[:7] // Zones lists them first and Italy last
}
