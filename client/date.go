package client

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Date is a calendar day, as the API's date-range parameters name days.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// NewDate returns the day y-m-d, and false if there is no such day.
func NewDate(y int, m time.Month, d int) (Date, bool) {
	t := time.Date(y, m, d, 12, 0, 0, 0, time.UTC)
	if t.Year() != y || t.Month() != m || t.Day() != d || y < 1 || y > 9999 {
		return Date{}, false
	}
	return Date{y, m, d}, true
}

// ParseDate parses a day written d/m/yyyy, the API's format, with day and
// month zero-padded or not ("01/03/2024", "1/3/2024").
func ParseDate(s string) (Date, error) {
	parts := strings.Split(s, "/")
	if len(parts) == 3 && len(parts[0]) <= 2 && len(parts[1]) <= 2 && len(parts[2]) == 4 && allDigits(parts[0]) && allDigits(parts[1]) && allDigits(parts[2]) {
		d, _ := strconv.Atoi(parts[0])
		m, _ := strconv.Atoi(parts[1])
		y, _ := strconv.Atoi(parts[2])
		if date, ok := NewDate(y, time.Month(m), d); ok {
			return date, nil
		}
		return Date{}, fmt.Errorf("client: %q is not a calendar day", s)
	}
	return Date{}, fmt.Errorf("client: %q is not a date of the form dd/mm/yyyy", s)
}

// String returns the day as dd/mm/yyyy, the form the API's queries take.
func (d Date) String() string { return fmt.Sprintf("%02d/%02d/%04d", d.Day, int(d.Month), d.Year) }

// AddDays returns the day n days after d (before it for negative n).
func (d Date) AddDays(n int) Date {
	y, m, dd := d.noon().AddDate(0, 0, n).Date()
	return Date{y, m, dd}
}

// Compare returns -1, 0 or +1 as d is before, equal to or after o.
func (d Date) Compare(o Date) int { return d.noon().Compare(o.noon()) }

// noon is a UTC instant within the day, free of any time zone's transitions.
func (d Date) noon() time.Time { return time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, time.UTC) }

// window is one request's part of a date range, both ends included.
type window struct{ from, to Date }

// splitRange cuts from..to into windows of at most maxDays days, in order.
// maxDays of 0 or less means one window.
func splitRange(from, to Date, maxDays int) []window {
	if maxDays <= 0 {
		return []window{{from, to}}
	}
	var out []window
	for start := from; start.Compare(to) <= 0; start = start.AddDays(maxDays) {
		end := start.AddDays(maxDays - 1)
		if end.Compare(to) > 0 {
			end = to
		}
		out = append(out, window{start, end})
	}
	return out
}
