package dataset

import (
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// TestServedInstantsCannotBeMisread serves a quarter-hourly series over
// every day from 2019 to 2026 in both time zones and reads the answers back
// as a client would: from date and date_offset in Europe/Rome, from date in
// UTC. Both must give the same instants, rising strictly one quarter hour
// apart with no gap, and each Rome day must hold 92, 96 or 100 of them (the
// clock changes' days 92 and 100). Together with TestDemoSeriesHaveWholeDays
// (internal/catalog), which checks the demo data's instants themselves, this
// proves that every served instant of every quarter-hourly and hourly
// dataset reads back unambiguously.
func TestServedInstantsCannotBeMisread(t *testing.T) {
	t.Parallel()
	d := &Dataset{
		Name: "test-quarters", Area: "test", Version: "v2.0", Resource: "quarters", Array: "quarters",
		Message: MessageDates, Grain: QuarterHour,
		Params: []Param{{Name: "dateFrom", To: "dateTo", Kind: DateRange, Required: true, MaxDays: -1}},
		Fields: []Field{
			{Name: "date", Kind: Instant, TZ: "date_tz", Offset: "date_offset"},
			{Name: "value", Kind: Number, Format: PointFull},
		},
	}
	c := newTestCatalog(t, d)
	m := NewMemory()
	first, last := time.Date(2019, 1, 1, 0, 0, 0, 0, energy.Rome()), time.Date(2027, 1, 1, 0, 0, 0, 0, energy.Rome())
	var rows []Row
	for at := first.Unix(); at < last.Unix(); at += 900 {
		rows = append(rows, Row{Time: at, Text: []string{}, Num: []float64{1}})
	}
	if _, err := Import(t.Context(), m, c, d, rows, time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	live, err := NewLive(t.Context(), c, m)
	if err != nil {
		t.Fatal(err)
	}
	read := map[string]func(date, tz, offset string) (time.Time, error){
		"Europe/Rome": func(date, tz, offset string) (time.Time, error) {
			if tz != "Europe/Rome" {
				t.Fatalf("date_tz %q, want Europe/Rome", tz)
			}
			return time.Parse("2006-01-02 15:04:05-07:00", date+offset)
		},
		"UTC": func(date, tz, offset string) (time.Time, error) {
			if tz != "UTC" || offset != "+00:00" {
				t.Fatalf("date_tz %q, date_offset %q; want UTC, +00:00", tz, offset)
			}
			return time.Parse("2006-01-02 15:04:05", date)
		},
	}
	for zone, parse := range read {
		q, err := c.ParseQuery(d, map[string][]string{"dateFrom": {"01/01/2019"}, "dateTo": {"31/12/2026"}, "timeZone": {zone}}, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(answerCSV(t, live.Snapshot(), q), "\r\n"), "\r\n")[1:]
		if len(lines) != len(rows) {
			t.Fatalf("%s: %d records, want %d", zone, len(lines), len(rows))
		}
		perDay := map[energy.Date]int{}
		prev := first.Add(-15 * time.Minute)
		for _, l := range lines {
			f := strings.Split(l, ",")
			at, err := parse(f[0], f[1], f[2])
			if err != nil {
				t.Fatalf("%s: %q: %v", zone, l, err)
			}
			if at.Sub(prev) != 15*time.Minute {
				t.Fatalf("%s: %q follows %s: want one quarter hour later", zone, l, prev)
			}
			prev = at
			perDay[energy.DateOf(at)]++
		}
		if !prev.Equal(last.Add(-15 * time.Minute)) {
			t.Errorf("%s: last instant %s, want %s", zone, prev, last.Add(-15*time.Minute))
		}
		counts := map[int]int{}
		for day, n := range perDay {
			counts[n]++
			if n != 96 && (day.Month != time.March && day.Month != time.October || day.Day < 25) {
				t.Errorf("%s: %s has %d quarter hours, want 96", zone, day, n)
			}
		}
		// Eight years: eight spring and eight autumn clock changes.
		if counts[92] != 8 || counts[100] != 8 || counts[96] != len(perDay)-16 || len(perDay) != 2922 {
			t.Errorf("%s: days by quarter hours: got %v over %d days, want 8 of 92, 8 of 100, the other 2906 of 96", zone, counts, len(perDay))
		}
	}
}
