package dataset

import (
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// GrainChange says that a dataset's records come at another grain from a
// day on: the Italian markets moved from hourly to quarter-hourly periods
// (catalogue.md 5.3), so a dataset keeps its hours before that day and
// has quarter hours from it. Dataset.Grain is the grain before the first
// change.
type GrainChange struct {
	// From is the first Europe/Rome day whose records come at Grain.
	From  energy.Date
	Grain Grain
	// Source is where the change and its day were read, how far to trust
	// them, and what is still a guess.
	Source Source
}

// grainOn returns the grain of records on day, base before the first of
// changes (in day order) and each change's grain from its day on.
func grainOn(base Grain, changes []GrainChange, day energy.Date) Grain {
	g := base
	for _, c := range changes {
		if day.Compare(c.From) >= 0 {
			g = c.Grain
		}
	}
	return g
}

// GrainOn returns the grain of d's records on the Europe/Rome day.
func (d *Dataset) GrainOn(day energy.Date) Grain { return grainOn(d.Grain, d.GrainChanges, day) }

// GrainAt returns the grain of d's record at Unix time t.
func (d *Dataset) GrainAt(t int64) Grain {
	if len(d.GrainChanges) == 0 {
		return d.Grain
	}
	return d.GrainOn(energy.DateOf(time.Unix(t, 0)))
}

// FinestGrain returns the finest grain of d's records on any day: the
// finest resolution d can be answered at.
func (d *Dataset) FinestGrain() Grain {
	g := d.Grain
	for _, c := range d.GrainChanges {
		g = min(g, c.Grain)
	}
	return g
}

// grainsIn returns the finest and the coarsest grain of d's records on
// the Unix interval [lo, hi).
func (d *Dataset) grainsIn(lo, hi int64) (finest, coarsest Grain) {
	finest, coarsest = d.GrainAt(lo), d.GrainAt(lo)
	for _, c := range d.GrainChanges {
		if s := c.From.Start().Unix(); s > lo && s < hi {
			finest, coarsest = min(finest, c.Grain), max(coarsest, c.Grain)
		}
	}
	return finest, coarsest
}

// GrainOn returns the grain the generated dataset's records come at on
// day, as its descriptor declares it (Dataset.GrainOn); 0 when the input
// was not made for one dataset (a generator called directly), which
// generators read as their own grain.
func (in DemoInput) GrainOn(day energy.Date) Grain { return grainOn(in.Grain, in.GrainChanges, day) }

// checkGrainChanges checks d's grain changes: each on a later day than
// the one before, to another grain, and every grain, d's and the
// changes', finer than a day. Records of such grains are keyed by their
// moment and kept in monthly parts alike (Bucket, PartID), so storing,
// merging and deriving need not know of the change.
func (d *Dataset) checkGrainChanges() error {
	prev, g := energy.Date{}, d.Grain
	for _, c := range d.GrainChanges {
		switch {
		case c.From.Compare(prev) <= 0:
			return d.errorf("grain change on %s is not after the one before", c.From)
		case c.Grain == g:
			return d.errorf("grain change on %s changes nothing", c.From)
		case g >= Day || c.Grain < QuarterHour || c.Grain >= Day:
			return d.errorf("grain change on %s: only grains finer than a day can change", c.From)
		}
		prev, g = c.From, c.Grain
	}
	return nil
}
