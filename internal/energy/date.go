package energy

import (
	"cmp"
	"fmt"
	"time"
	_ "time/tzdata" // Europe/Rome must resolve on machines without a zoneinfo database.
)

// TimeZone is the IANA name of the zone in which the API presents instants.
const TimeZone = "Europe/Rome"

// rome is loaded once; time.Location is immutable and safe for concurrent use.
var rome = mustLoadLocation(TimeZone)

func mustLoadLocation(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(fmt.Sprintf("energy: load %s: %v", name, err)) // unreachable: tzdata is embedded
	}
	return loc
}

// Rome returns the Europe/Rome location.
func Rome() *time.Location { return rome }

// Date is a calendar day in Europe/Rome. The zero Date is not a valid day.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// DateOf returns the Europe/Rome calendar day of the instant t.
func DateOf(t time.Time) Date {
	y, m, d := t.In(rome).Date()
	return Date{y, m, d}
}

// NewDate returns the Date y-m-d and whether it is a real calendar day.
func NewDate(y int, m time.Month, d int) (Date, bool) {
	t := time.Date(y, m, d, 12, 0, 0, 0, time.UTC)
	if t.Year() != y || t.Month() != m || t.Day() != d {
		return Date{}, false
	}
	return Date{y, m, d}, true
}

// Start returns the first instant of the day in Europe/Rome.
func (d Date) Start() time.Time { return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, rome) }

// End returns the first instant of the following day in Europe/Rome, so that a
// day is the half-open interval [Start, End): 23, 24 or 25 hours long.
func (d Date) End() time.Time { return d.AddDays(1).Start() }

// AddDays returns the day n calendar days after d (before it for negative n).
func (d Date) AddDays(n int) Date {
	y, m, dd := time.Date(d.Year, d.Month, d.Day+n, 12, 0, 0, 0, time.UTC).Date()
	return Date{y, m, dd}
}

// Compare returns -1, 0 or +1 as d is before, equal to or after o.
func (d Date) Compare(o Date) int {
	switch {
	case d.Year != o.Year:
		return cmp.Compare(d.Year, o.Year)
	case d.Month != o.Month:
		return cmp.Compare(int(d.Month), int(o.Month))
	default:
		return cmp.Compare(d.Day, o.Day)
	}
}

// DaysUntil returns the number of calendar days from d to o (o - d).
func (d Date) DaysUntil(o Date) int {
	a := time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, time.UTC)
	b := time.Date(o.Year, o.Month, o.Day, 12, 0, 0, 0, time.UTC)
	return int(b.Sub(a).Hours() / 24)
}

// String returns the day as yyyy-mm-dd.
func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day) }

// DMY returns the day as zero-padded dd/mm/yyyy, the API's query format.
func (d Date) DMY() string { return fmt.Sprintf("%02d/%02d/%04d", d.Day, int(d.Month), d.Year) }

// unixIn returns the instant u (Unix seconds) located in Europe/Rome.
func unixIn(u int64) time.Time { return time.Unix(u, 0).In(rome) }
