package demo

import (
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// When the live service publishes the v1.0 data (catalogue.md 4.4), so
// that the demo records carry the times a client of the live service
// would see them appear: changedSince and asOf then select as they would
// there. Times are Europe/Rome.

// at returns day d's wall time hh:mm, days later (or earlier).
func at(d energy.Date, days, hh, mm int) time.Time {
	return time.Date(d.Year, d.Month, d.Day+days, hh, mm, 0, 0, energy.Rome())
}

// FinalImbalanceAt is when day d's final macrozonal imbalance is
// published: 17:00 the next day; clients read the preliminary values
// before.
func FinalImbalanceAt(d energy.Date) time.Time { return at(d, 1, 17, 0) }

// PreliminaryImbalanceAt is when the preliminary imbalance of the period
// ending at Unix time end is published: every 15 minutes, at most 30
// minutes after the period, so 15 to 30 minutes after its end.
func PreliminaryImbalanceAt(end int64) time.Time {
	return time.Unix(end, 0).Add(time.Duration(15+15*(end/900%2)) * time.Minute)
}

// CapacityAt is when the available capacity of day d's units is first
// published (10:00 the next day) and when it becomes final (seven days
// after the day).
func CapacityAt(d energy.Date) (first, final time.Time) { return at(d, 1, 10, 0), at(d, 7, 10, 0) }

// msdSessions are the dispatching-services market's ex-ante sessions
// MSD1 to MSD6: when each publishes its requirements, as days relative to
// the delivery day and a wall time, and the first hour of the day it
// (re)states: each session restates the hours still ahead.
var msdSessions = []struct{ days, hh, mm, firstHour int }{
	{-1, 14, 30, 0}, {-1, 23, 0, 4}, {0, 3, 0, 8}, {0, 7, 0, 12}, {0, 11, 0, 16}, {0, 15, 0, 20},
}

// MSDSessions returns the number of ex-ante MSD sessions.
func MSDSessions() int { return len(msdSessions) }

// MSDSession returns when session s (0 for MSD1) publishes its
// requirements for day d, and the first hour of d it states.
func MSDSession(d energy.Date, s int) (published time.Time, firstHour int) {
	m := msdSessions[s]
	return at(d, m.days, m.hh, m.mm), m.firstHour
}

// FCRKnownAt is when the FCR auction results for day d are known: the day
// before, at noon; they never change.
func FCRKnownAt(d energy.Date) time.Time { return at(d, -1, 12, 0) }
