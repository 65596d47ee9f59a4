package demo

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

func date(y int, m time.Month, d int) energy.Date { return energy.Date{Year: y, Month: m, Day: d} }

// dayExtremes returns the demo load's peak and valley of d.
func dayExtremes(tb testing.TB, d energy.Date) energy.DayExtremes {
	tb.Helper()
	ext, ok := energy.DeriveDay(d, TotalLoad(d, d))
	if !ok {
		tb.Fatalf("DeriveDay(%v): no peak or valley", d)
	}
	return ext
}

func TestLoadRange(t *testing.T) {
	from, to := LoadRange()
	if want := date(2019, time.January, 1); from != want {
		t.Errorf("from: got %v, want %v", from, want)
	}
	if want := date(2025, time.December, 31); to != want {
		t.Errorf("to: got %v, want %v", to, want)
	}
}

func TestTotalLoadDeterministic(t *testing.T) {
	a := TotalLoad(date(2024, time.March, 30), date(2024, time.April, 2))
	b := TotalLoad(date(2024, time.March, 30), date(2024, time.April, 2))
	// A day's values must not depend on the range it was generated in.
	alone := TotalLoad(date(2024, time.March, 31), date(2024, time.March, 31))
	if len(a) != len(b) {
		t.Fatalf("two runs: got %d and %d points, want the same", len(a), len(b))
	}
	for i := range a {
		if !a[i].At.Equal(b[i].At) || a[i].Zone != b[i].Zone || a[i].TotalMW != b[i].TotalMW || a[i].ForecastMW != b[i].ForecastMW {
			t.Fatalf("point %d: got %+v in the first run and %+v in the second, want them equal", i, a[i], b[i])
		}
	}
	// 30/03 is an ordinary day of 96 quarter hours × 8 zones before 31/03.
	const offset = 96 * 8
	if len(alone) != 92*8 {
		t.Fatalf("31/03/2024 alone: got %d points, want %d", len(alone), 92*8)
	}
	for i, p := range alone {
		q := a[offset+i]
		if !p.At.Equal(q.At) || p.Zone != q.Zone || p.TotalMW != q.TotalMW || p.ForecastMW != q.ForecastMW {
			t.Fatalf("31/03/2024 point %d: got %+v alone and %+v within a range, want them equal", i, p, q)
		}
	}
}

func TestTotalLoadCounts(t *testing.T) {
	tests := []struct {
		name     string
		from, to energy.Date
		want     int
	}{
		// 2024 has 366 days; its 23-hour and 25-hour days cancel out.
		{"leap year 2024", date(2024, time.January, 1), date(2024, time.December, 31), 366 * 96 * 8},
		{"spring-forward day", date(2024, time.March, 31), date(2024, time.March, 31), 92 * 8},
		{"fall-back day", date(2024, time.October, 27), date(2024, time.October, 27), 100 * 8},
		{"ordinary day", date(2024, time.October, 28), date(2024, time.October, 28), 96 * 8},
		{"from after to", date(2024, time.October, 28), date(2024, time.October, 27), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := len(TotalLoad(tt.from, tt.to)); got != tt.want {
				t.Errorf("TotalLoad(%v, %v): got %d points, want %d", tt.from, tt.to, got, tt.want)
			}
		})
	}
}

func TestTotalLoadOrder(t *testing.T) {
	pts := TotalLoad(date(2024, time.October, 27), date(2024, time.October, 28))
	zones := energy.Zones()
	// 27/10/2024 00:00 +02:00 is 26/10 22:00 UTC; 29/10 00:00 +01:00 is 28/10 23:00 UTC.
	first := time.Date(2024, time.October, 26, 22, 0, 0, 0, time.UTC)
	last := time.Date(2024, time.October, 28, 22, 45, 0, 0, time.UTC)
	for i, p := range pts {
		want := first.Add(time.Duration(i/8) * 15 * time.Minute)
		if !p.At.Equal(want) || p.Zone != zones[i%8] {
			t.Fatalf("point %d: got %v %s, want %v %s", i, p.At, p.Zone, want, zones[i%8])
		}
		if p.At.Location() != time.UTC {
			t.Fatalf("point %d: got location %v, want UTC", i, p.At.Location())
		}
	}
	if got := pts[len(pts)-1].At; !got.Equal(last) {
		t.Errorf("last instant: got %v, want %v", got, last)
	}
}

func TestTotalLoadFullRange(t *testing.T) {
	from, to := LoadRange()
	pts := TotalLoad(from, to)
	// 2557 days; each year's 23-hour and 25-hour days cancel out.
	if want := 2557 * 96 * 8; len(pts) != want {
		t.Fatalf("got %d points, want %d", len(pts), want)
	}
	t.Run("Italy is the sum of the zones", func(t *testing.T) {
		for i := 0; i < len(pts); i += 8 {
			var sum, fsum float64
			for _, p := range pts[i : i+7] {
				sum += p.TotalMW
				fsum += p.ForecastMW
			}
			it := pts[i+7]
			if it.Zone != energy.Italy {
				t.Fatalf("point %d: got zone %s, want Italy", i+7, it.Zone)
			}
			if math.Abs(it.TotalMW-sum) > 0.001 || math.Abs(it.ForecastMW-fsum) > 0.001 {
				t.Fatalf("%v: got Italy %v (forecast %v), want the zones' sum %v (forecast %v)", it.At, it.TotalMW, it.ForecastMW, sum, fsum)
			}
		}
	})
	t.Run("values rounded to the kW", func(t *testing.T) {
		for _, p := range pts {
			for _, v := range []float64{p.TotalMW, p.ForecastMW} {
				if k := v * 1000; math.Abs(k-math.Round(k)) > 1e-6 {
					t.Fatalf("%v %s: got %v, want three decimals at most", p.At, p.Zone, v)
				}
			}
		}
	})
	// Published extremes: 17 GW on holiday nights to 59 GW in July heat
	// waves (Terna's yearly statistics).
	t.Run("national load within 16 to 60 GW", func(t *testing.T) {
		for _, p := range pts {
			if p.Zone == energy.Italy && (p.TotalMW < 16000 || p.TotalMW > 60000) {
				t.Fatalf("%v: got Italy %v MW, want 16000 to 60000", p.At, p.TotalMW)
			}
		}
	})
	t.Run("zones positive and forecasts within 10%", func(t *testing.T) {
		for _, p := range pts {
			if p.TotalMW <= 0 {
				t.Fatalf("%v %s: got %v MW, want a positive load", p.At, p.Zone, p.TotalMW)
			}
			// 0.001 MW of slack for the rounding of both values.
			if math.Abs(p.ForecastMW-p.TotalMW) > 0.1*p.TotalMW+0.001 {
				t.Fatalf("%v %s: got forecast %v for load %v, want within 10%%", p.At, p.Zone, p.ForecastMW, p.TotalMW)
			}
		}
	})
	t.Run("zone shares", func(t *testing.T) {
		// Over the whole range, each zone's energy share stays close to
		// its weight (North 44 of 92.5, and so on).
		want := map[energy.Zone]float64{
			energy.North: 0.476, energy.CentreNorth: 0.108, energy.CentreSouth: 0.162, energy.South: 0.130,
			energy.Calabria: 0.022, energy.Sicily: 0.070, energy.Sardinia: 0.032,
		}
		sums := map[energy.Zone]float64{}
		for _, p := range pts {
			sums[p.Zone] += p.TotalMW
		}
		for z, w := range want {
			if got := sums[z] / sums[energy.Italy]; math.Abs(got-w) > 0.005 {
				t.Errorf("%s: got share %.3f, want %.3f ± 0.005", z, got, w)
			}
		}
	})
}

func TestTotalLoadWeekdayShape(t *testing.T) {
	days := []energy.Date{
		date(2019, time.February, 12), date(2019, time.May, 22), date(2020, time.October, 7),
		date(2021, time.March, 17), date(2022, time.June, 21), date(2023, time.September, 13),
		date(2024, time.January, 17), date(2024, time.July, 10), date(2025, time.November, 19),
	}
	for _, d := range days {
		t.Run(d.String(), func(t *testing.T) {
			ext := dayExtremes(t, d)
			if h := ext.Valley.At.In(energy.Rome()).Hour(); h < 2 || h >= 6 {
				t.Errorf("valley at %s: got hour %d, want 02:00 to 05:59", ext.Valley.At.In(energy.Rome()).Format("15:04"), h)
			}
			if h := ext.Peak.At.In(energy.Rome()).Hour(); h < 9 || h >= 21 {
				t.Errorf("peak at %s: got hour %d, want 09:00 to 20:59", ext.Peak.At.In(energy.Rome()).Format("15:04"), h)
			}
		})
	}
}

func TestTotalLoadSummerAfternoonPeak(t *testing.T) {
	for _, d := range []energy.Date{date(2019, time.July, 17), date(2022, time.July, 13), date(2024, time.July, 10)} {
		t.Run(d.String(), func(t *testing.T) {
			ext := dayExtremes(t, d)
			if h := ext.Peak.At.In(energy.Rome()).Hour(); h < 12 || h >= 18 {
				t.Errorf("peak at %s: got hour %d, want an afternoon hour, 12:00 to 17:59", ext.Peak.At.In(energy.Rome()).Format("15:04"), h)
			}
		})
	}
}

func TestTotalLoadLowDays(t *testing.T) {
	tests := []struct {
		name      string
		low, high energy.Date
	}{
		{"Sunday below the Wednesday before", date(2024, time.March, 10), date(2024, time.March, 6)},
		{"Sunday below the Wednesday before", date(2019, time.June, 16), date(2019, time.June, 12)},
		{"Sunday below the Wednesday before", date(2023, time.November, 19), date(2023, time.November, 15)},
		{"Sunday below the Wednesday before", date(2025, time.July, 13), date(2025, time.July, 9)},
		{"Sunday below the Wednesday before", date(2021, time.January, 24), date(2021, time.January, 20)},
		{"Liberation Day (Thursday) below the Wednesday before", date(2024, time.April, 25), date(2024, time.April, 24)},
		{"Labour Day (Wednesday) below the Wednesday before", date(2024, time.May, 1), date(2024, time.April, 24)},
		{"Republic Day (Monday) below the Wednesday before", date(2025, time.June, 2), date(2025, time.May, 28)},
		{"All Saints (Friday) below the Wednesday before", date(2024, time.November, 1), date(2024, time.October, 30)},
		{"Epiphany (Friday) below the Wednesday before", date(2023, time.January, 6), date(2023, time.January, 4)},
		{"Easter Monday below the Wednesday before", date(2025, time.April, 21), date(2025, time.April, 16)},
		{"Easter Monday below the Wednesday before", date(2024, time.April, 1), date(2024, time.March, 27)},
		{"15/08 below 15/07", date(2019, time.August, 15), date(2019, time.July, 15)},
		{"15/08 below 15/07", date(2020, time.August, 15), date(2020, time.July, 15)},
		{"15/08 below 15/07", date(2021, time.August, 15), date(2021, time.July, 15)},
		{"15/08 below 15/07", date(2022, time.August, 15), date(2022, time.July, 15)},
		{"15/08 below 15/07", date(2023, time.August, 15), date(2023, time.July, 15)},
		{"15/08 below 15/07", date(2024, time.August, 15), date(2024, time.July, 15)},
		{"15/08 below 15/07", date(2025, time.August, 15), date(2025, time.July, 15)},
		{"mid-August weekday below mid-July weekday", date(2024, time.August, 13), date(2024, time.July, 16)},
		{"mid-August weekday below mid-July weekday", date(2023, time.August, 21), date(2023, time.July, 17)},
		// The second Tuesday of December; 2020's is 8/12, itself a holiday.
		{"25/12 below the second Tuesday of December", date(2019, time.December, 25), date(2019, time.December, 10)},
		{"25/12 below the second Tuesday of December", date(2021, time.December, 25), date(2021, time.December, 14)},
		{"25/12 below the second Tuesday of December", date(2022, time.December, 25), date(2022, time.December, 13)},
		{"25/12 below the second Tuesday of December", date(2023, time.December, 25), date(2023, time.December, 12)},
		{"25/12 below the second Tuesday of December", date(2024, time.December, 25), date(2024, time.December, 10)},
		{"25/12 below the second Tuesday of December", date(2025, time.December, 25), date(2025, time.December, 9)},
		{"2020 lockdown below 2019", date(2020, time.April, 8), date(2019, time.April, 10)},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %v", tt.name, tt.low), func(t *testing.T) {
			low, high := dayExtremes(t, tt.low), dayExtremes(t, tt.high)
			if low.Peak.GW >= high.Peak.GW {
				t.Errorf("got peak %.3f GW on %v and %.3f GW on %v, want the first lower", low.Peak.GW, tt.low, high.Peak.GW, tt.high)
			}
		})
	}
}

func TestEasterSunday(t *testing.T) {
	tests := []struct {
		year int
		want energy.Date
	}{
		{2008, date(2008, time.March, 23)},
		{2019, date(2019, time.April, 21)},
		{2020, date(2020, time.April, 12)},
		{2021, date(2021, time.April, 4)},
		{2022, date(2022, time.April, 17)},
		{2023, date(2023, time.April, 9)},
		{2024, date(2024, time.March, 31)},
		{2025, date(2025, time.April, 20)},
		{2038, date(2038, time.April, 25)},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.year), func(t *testing.T) {
			if got := easterSunday(tt.year); got != tt.want {
				t.Errorf("easterSunday(%d): got %v, want %v", tt.year, got, tt.want)
			}
		})
	}
}

func BenchmarkTotalLoad(b *testing.B) {
	from, to := LoadRange()
	b.ReportAllocs()
	for b.Loop() {
		if pts := TotalLoad(from, to); len(pts) != 2557*96*8 {
			b.Fatalf("got %d points, want %d", len(pts), 2557*96*8)
		}
	}
}
