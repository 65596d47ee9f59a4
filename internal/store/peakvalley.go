package store

import (
	"math"
	"slices"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// PVRow is a peak_valley row's values with instants as Unix seconds: what
// both stores keep of a DayExtremes, since instants are kept to the second.
type PVRow struct {
	PeakTS   int64
	PeakGW   float64
	ValleyTS int64
	ValleyGW float64
}

// PVRowOf returns the row values a store keeps for d.
func PVRowOf(d energy.DayExtremes) PVRow {
	return PVRow{d.Peak.At.Unix(), d.Peak.GW, d.Valley.At.Unix(), d.Valley.GW}
}

// Extremes returns the stored row of day as ReadData returns it, with
// instants in Europe/Rome.
func (v PVRow) Extremes(day energy.Date) energy.DayExtremes {
	rome := energy.Rome()
	return energy.DayExtremes{
		Day:    day,
		Peak:   energy.Extreme{At: time.Unix(v.PeakTS, 0).In(rome), GW: v.PeakGW},
		Valley: energy.Extreme{At: time.Unix(v.ValleyTS, 0).In(rome), GW: v.ValleyGW},
	}
}

// PreparePeakValley validates days and returns a copy in day order. It
// returns an error with code Invalid if a day is not a calendar day, a value
// is not a finite number, or two entries share a day.
func PreparePeakValley(days []energy.DayExtremes) ([]energy.DayExtremes, error) {
	finite := func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
	for _, d := range days {
		if _, ok := energy.NewDate(d.Day.Year, d.Day.Month, d.Day.Day); !ok {
			return nil, energy.Errorf(energy.Invalid, "peak valley: %d-%d-%d is not a calendar day", d.Day.Year, d.Day.Month, d.Day.Day)
		}
		if !finite(d.Peak.GW) || !finite(d.Valley.GW) {
			return nil, energy.Errorf(energy.Invalid, "peak valley %s: load is not a finite number", d.Day)
		}
	}
	sorted := slices.Clone(days)
	slices.SortFunc(sorted, func(a, b energy.DayExtremes) int { return a.Day.Compare(b.Day) })
	for i := 1; i < len(sorted); i++ {
		if sorted[i].Day == sorted[i-1].Day {
			return nil, energy.Errorf(energy.Invalid, "peak valley %s appears twice", sorted[i].Day)
		}
	}
	return sorted, nil
}

// DiffPeakValley compares sorted, as PreparePeakValley returns it, with
// stored, the imported rows of the days from its first to its last, and
// counts each day. It calls write, in day order, with each day that is new or
// whose row changed, and returns write's first error.
func DiffPeakValley(sorted []energy.DayExtremes, stored map[energy.Date]PVRow, write func(energy.DayExtremes, Change) error) (energy.ImportStats, error) {
	return diff(sorted, stored, func(d energy.DayExtremes) (energy.Date, PVRow) {
		return d.Day, PVRowOf(d)
	}, write)
}
