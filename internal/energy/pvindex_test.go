package energy

import (
	"fmt"
	"testing"
	"time"
)

// dayExt returns a DayExtremes for y-m-d whose peak GW is tag, so that a test
// can tell which of two entries for the same day survived.
func dayExt(tb testing.TB, y int, m time.Month, d int, tag float64) DayExtremes {
	tb.Helper()
	day, ok := NewDate(y, m, d)
	if !ok {
		tb.Fatalf("test setup: %d-%d-%d is not a day", y, m, d)
	}
	return DayExtremes{
		Day:    day,
		Peak:   Extreme{At: time.Date(y, m, d, 11, 0, 0, 0, Rome()), GW: tag},
		Valley: Extreme{At: time.Date(y, m, d, 4, 0, 0, 0, Rome()), GW: 20},
	}
}

// summary renders days as "yyyy-mm-dd=tag" items for readable comparisons.
func summary(days []DayExtremes) string {
	s := ""
	for i, d := range days {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%v=%g", d.Day, d.Peak.GW)
	}
	return s
}

func TestPeakValleyIndexRange(t *testing.T) {
	// Unsorted, with a gap (2024-03-04 missing) and 2024-03-02 given twice.
	ix := NewPeakValleyIndex([]DayExtremes{
		dayExt(t, 2024, time.March, 5, 5),
		dayExt(t, 2024, time.March, 2, 2),
		dayExt(t, 2024, time.February, 29, 29),
		dayExt(t, 2024, time.March, 3, 3),
		dayExt(t, 2024, time.March, 1, 1),
		dayExt(t, 2024, time.March, 2, 22),
	})
	d := func(y int, m time.Month, day int) Date { return Date{y, m, day} }
	tests := []struct {
		name     string
		from, to Date
		want     string
	}{
		{"everything", d(2024, 1, 1), d(2024, 12, 31), "2024-02-29=29 2024-03-01=1 2024-03-02=22 2024-03-03=3 2024-03-05=5"},
		{"both ends included", d(2024, 3, 1), d(2024, 3, 3), "2024-03-01=1 2024-03-02=22 2024-03-03=3"},
		{"one day", d(2024, 3, 2), d(2024, 3, 2), "2024-03-02=22"},
		{"ends in the gap", d(2024, 3, 3), d(2024, 3, 4), "2024-03-03=3"},
		{"starts in the gap", d(2024, 3, 4), d(2024, 3, 9), "2024-03-05=5"},
		{"only the gap", d(2024, 3, 4), d(2024, 3, 4), ""},
		{"across the month end", d(2024, 2, 28), d(2024, 3, 1), "2024-02-29=29 2024-03-01=1"},
		{"before every day", d(2023, 1, 1), d(2024, 2, 28), ""},
		{"after every day", d(2024, 3, 6), d(2025, 1, 1), ""},
		{"from after to", d(2024, 3, 3), d(2024, 3, 1), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ix.Range(tt.from, tt.to)
			if s := summary(got); s != tt.want {
				t.Errorf("Range(%v, %v): got [%s], want [%s]", tt.from, tt.to, s, tt.want)
			}
		})
	}
}

func TestPeakValleyIndexCopiesInput(t *testing.T) {
	in := []DayExtremes{dayExt(t, 2024, time.March, 2, 2), dayExt(t, 2024, time.March, 1, 1)}
	ix := NewPeakValleyIndex(in)
	in[0].Peak.GW, in[1].Peak.GW = 99, 99
	got := summary(ix.Range(Date{2024, 3, 1}, Date{2024, 3, 2}))
	if want := "2024-03-01=1 2024-03-02=2"; got != want {
		t.Errorf("after changing the input: got [%s], want [%s]", got, want)
	}
}

func TestPeakValleyIndexRangeAppendDoesNotOverwrite(t *testing.T) {
	ix := NewPeakValleyIndex([]DayExtremes{
		dayExt(t, 2024, time.March, 1, 1),
		dayExt(t, 2024, time.March, 2, 2),
		dayExt(t, 2024, time.March, 3, 3),
	})
	r := ix.Range(Date{2024, 3, 1}, Date{2024, 3, 1})
	_ = append(r, dayExt(t, 2030, time.January, 1, 99))
	got := summary(ix.Range(Date{2024, 3, 1}, Date{2024, 3, 3}))
	if want := "2024-03-01=1 2024-03-02=2 2024-03-03=3"; got != want {
		t.Errorf("after appending to a result: got [%s], want [%s]", got, want)
	}
}

func TestPeakValleyIndexRangeAllocatesNothing(t *testing.T) {
	ix := NewPeakValleyIndex(sevenYears(t))
	from, to := Date{2022, time.May, 1}, Date{2022, time.June, 29}
	if n := len(ix.Range(from, to)); n != 60 {
		t.Fatalf("Range(%v, %v): got %d days, want 60", from, to, n)
	}
	if allocs := testing.AllocsPerRun(100, func() { ix.Range(from, to) }); allocs != 0 {
		t.Errorf("Range: got %v allocations per call, want 0", allocs)
	}
}

func TestPeakValleyIndexBounds(t *testing.T) {
	tests := []struct {
		name        string
		ix          *PeakValleyIndex
		wantLen     int
		first, last Date
		wantOK      bool
	}{
		{"nil index", nil, 0, Date{}, Date{}, false},
		{"empty", NewPeakValleyIndex(nil), 0, Date{}, Date{}, false},
		{"one day", NewPeakValleyIndex([]DayExtremes{dayExt(t, 2024, time.March, 1, 1)}), 1, Date{2024, 3, 1}, Date{2024, 3, 1}, true},
		{"duplicates count once", NewPeakValleyIndex([]DayExtremes{
			dayExt(t, 2025, time.January, 2, 1),
			dayExt(t, 2019, time.January, 1, 1),
			dayExt(t, 2025, time.January, 2, 2),
		}), 2, Date{2019, 1, 1}, Date{2025, 1, 2}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.ix.Len(); got != tt.wantLen {
				t.Errorf("Len: got %d, want %d", got, tt.wantLen)
			}
			first, ok := tt.ix.First()
			if first != tt.first || ok != tt.wantOK {
				t.Errorf("First: got %v, %v; want %v, %v", first, ok, tt.first, tt.wantOK)
			}
			last, ok := tt.ix.Last()
			if last != tt.last || ok != tt.wantOK {
				t.Errorf("Last: got %v, %v; want %v, %v", last, ok, tt.last, tt.wantOK)
			}
			if got := tt.ix.Range(Date{1, 1, 1}, Date{9999, 12, 31}); len(got) != tt.wantLen {
				t.Errorf("Range over all time: got %d days, want %d", len(got), tt.wantLen)
			}
		})
	}
}

// sevenYears returns one DayExtremes per day of 2019-2025, newest first.
func sevenYears(tb testing.TB) []DayExtremes {
	tb.Helper()
	var days []DayExtremes
	for d := (Date{2025, time.December, 31}); d.Year >= 2019; d = d.AddDays(-1) {
		days = append(days, dayExt(tb, d.Year, d.Month, d.Day, 40))
	}
	return days
}

func BenchmarkPeakValleyIndexRange(b *testing.B) {
	ix := NewPeakValleyIndex(sevenYears(b))
	for _, n := range []int{31, 60} {
		from := Date{2023, time.July, 10}
		to := from.AddDays(n - 1)
		b.Run(fmt.Sprintf("%ddays", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if got := ix.Range(from, to); len(got) != n {
					b.Fatalf("got %d days, want %d", len(got), n)
				}
			}
		})
	}
}
