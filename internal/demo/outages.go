package demo

import (
	"fmt"
	"math"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// The Outages and Adequacy areas' demo data: a few production units per
// zone, their outages, and the capacity they leave available.

// outageLayout is how generation-unit-unavailability writes an outage's
// start and stop (its descriptor declares the same layout).
const outageLayout = "2006-01-02 15:04"

// macroUsers are the demo's market participants owning production units,
// each with its share of every macroarea's capacity.
var macroUsers = []struct {
	name  string
	share float64
}{{"A2A", 0.12}, {"EDISON", 0.13}, {"ENEL", 0.35}, {"ENI", 0.15}, {"ALTRI", 0.25}}

// MacroUsers returns the demo's market participants, in the order the
// expected available capacity lists them.
func MacroUsers() []string {
	out := make([]string, len(macroUsers))
	for i, u := range macroUsers {
		out[i] = u.name
	}
	return out
}

// The prevailing fuels of the demo's plant types, from the Adequacy
// pages' list (energy.PrevailingFuels): thermal units burn traditional
// fuels; hydro units burn none, so ALTRO (other).
var thermalFuel, hydroFuel = energy.PrevailingFuels()[0], energy.PrevailingFuels()[1]

// genUnit is a demo production unit.
type genUnit struct {
	name, plant, plantType, fuel string
	zone                         int // index in energy.BiddingZones
	capacityMW                   float64
}

// genUnits returns the demo's production units as they stand at Unix time
// at: two thermal units in every zone and a hydro unit in the zones with
// the most hydro, each a fortieth (thermal) or twentieth (hydro) of the
// zone's share of Italy's installed capacity of that type (installedAt,
// zoneTable's capacity).
func genUnits(in dataset.DemoInput, at int64) []genUnit {
	installed := installedAt(in, at)
	var units []genUnit
	for z, bz := range biddingZones {
		share := zoneTable[z].capacity
		for n := 1; n <= 2; n++ {
			units = append(units, genUnit{fmt.Sprintf("UP_%s_TERM_%d", bz.Code, n), "Centrale termoelettrica " + bz.Italian, "TERMOELETTRICO", thermalFuel, z,
				math.Round(installed["Thermal"] * share / 40)})
		}
		if bz.Zone == energy.North || bz.Zone == energy.CentreSouth || bz.Zone == energy.Calabria {
			units = append(units, genUnit{"UP_" + bz.Code + "_IDRO_1", "Centrale idroelettrica " + bz.Italian, "IDROELETTRICO", hydroFuel, z,
				math.Round(installed["Hydro"] * share / 20)})
		}
	}
	return units
}

// fleet is the demo's units and Italy's installed capacity by type (MW)
// at a moment.
type fleet struct {
	units     []genUnit
	installed map[string]float64
}

// fleetAt returns the fleet at a moment, computed once per year of
// installed-capacity: an hour's fleet depends on its year alone, so any
// span of the demo data sees the same fleet in the same hour.
func fleetAt(in dataset.DemoInput) func(at int64) fleet {
	byYear := map[int]fleet{}
	return func(at int64) fleet {
		y := time.Unix(at, 0).In(energy.Rome()).Year()
		f, ok := byYear[y]
		if !ok {
			f = fleet{genUnits(in, at), installedAt(in, at)}
			byYear[y] = f
		}
		return f
	}
}

// Outages starts one outage a day, of two to six days, taking out 30 to
// 100% of a unit's capacity; one in five is unplanned, one in four has its
// end moved. The units take turns (the day's number modulo their count),
// so that a unit's next outage starts after its last has ended, and each
// outage is seeded by its day alone: any span of the demo data holds the
// same outages on the same days.
func Outages(in dataset.DemoInput) []dataset.Row {
	var rows []dataset.Row
	at := fleetAt(in)
	epoch := energy.Date{Year: 2000, Month: time.January, Day: 1}
	for d := in.First; d.Compare(in.Last) <= 0; d = d.AddDays(1) {
		lo := d.Start().Unix()
		units := at(lo).units
		k := epoch.DaysUntil(d) % len(units)
		rows = append(rows, outageRow(lo, k, units[k], d))
	}
	return rows
}

// outageSpan bounds how many days before a moment an outage that still
// holds at that moment can have started: six days, and two more when its
// end is moved.
const outageSpan = 8

// outageRow is the outage of unit u, the kth, starting on start, which
// starts at Unix time lo.
func outageRow(lo int64, k int, u genUnit, start energy.Date) dataset.Row {
	stop := start.AddDays(int(4 + 2*dataNoise(lo, 500+k)))
	typ, update := "Planned", ""
	if dataNoise(lo, 600+k) > 0.6 {
		typ = "Unplanned"
	}
	if dataNoise(lo, 700+k) > 0.5 {
		update = stop.AddDays(2).Start().Format(outageLayout)
	}
	pub := start.AddDays(-7)
	if typ == "Unplanned" {
		pub = start
	}
	off := math.Round(u.capacityMW * (0.65 + 0.35*dataNoise(lo, 800+k)))
	return dataset.Row{Time: start.Start().Unix(),
		Text: []string{pub.String(), u.name, u.plant, u.plantType, biddingZones[u.zone].Code, typ, stop.Start().Format(outageLayout), update, "Active"},
		Num:  []float64{u.capacityMW, off}}
}

// installedAt returns the demo installed capacity by type, in MW, of the
// latest year installed-capacity holds up to Unix time at, or of its first
// year for a moment before it (the series start before the statistics'
// window does).
func installedAt(in dataset.DemoInput, at int64) map[string]float64 {
	var latest, first int64
	for _, r := range in.From["installed-capacity"] {
		if r.Time <= at && r.Time > latest {
			latest = r.Time
		}
		if first == 0 || r.Time < first {
			first = r.Time
		}
	}
	if latest == 0 {
		latest = first
	}
	out := map[string]float64{}
	for _, r := range in.From["installed-capacity"] {
		if r.Time == latest {
			out[r.Text[0]] = r.Num[0] * 1000
		}
	}
	return out
}

// outage is a demo outage as generation-unit-unavailability publishes it.
type outage struct {
	unit       string
	start, end int64 // Unix seconds: the first day's start, the last day's end
	mw         float64
}

// outagesOf reads the demo outages: unit, start, the updated stop date if
// any else the stop date, and the capacity out.
func outagesOf(in dataset.DemoInput) []outage {
	// The outages that hold within in's range, generated from the days
	// before it too (outageSpan), so that an hour's capacity is the same
	// whatever span of the demo data is generated.
	wide := in
	wide.First = in.First.AddDays(-outageSpan)
	var out []outage
	for _, r := range Outages(wide) {
		stop := r.Text[6]
		if r.Text[7] != "" {
			stop = r.Text[7]
		}
		t, _ := dataset.ParseStoredTime(stop)
		end := energy.Date{Year: t.Year(), Month: t.Month(), Day: t.Day()}.End().Unix()
		out = append(out, outage{r.Text[1], r.Time, end, r.Num[1]})
	}
	return out
}

// unitOut returns how many MW of unit are out in the hour starting at u.
func unitOut(outages []outage, unit string, u int64) float64 {
	var mw float64
	for _, o := range outages {
		if o.unit == unit && u >= o.start && u < o.end {
			mw += o.mw
		}
	}
	return mw
}

// AvailableCapacity writes, per hour of the v1.0 window, macroarea and
// plant type, the installed capacity of that type in the macroarea
// (Italy's installed-capacity split by zoneTable's capacity shares) less
// what the demo outages take out.
func AvailableCapacity(in dataset.DemoInput) []dataset.Row { return available(in, false) }

// ExpectedAvailableCapacity is AvailableCapacity split among the macro
// users by their shares.
func ExpectedAvailableCapacity(in dataset.DemoInput) []dataset.Row { return available(in, true) }

func available(in dataset.DemoInput, split bool) []dataset.Row {
	lo, hi := v1Window(in)
	at := fleetAt(in)
	outages := outagesOf(in)
	kinds := []struct{ plant, fuel, typ string }{{"TERMOELETTRICO", thermalFuel, "Thermal"}, {"IDROELETTRICO", hydroFuel, "Hydro"}}
	var rows []dataset.Row
	for u := lo; u < hi; u += 3600 {
		units, installed := at(u).units, at(u).installed
		for _, area := range energy.Macroareas() {
			for _, k := range kinds {
				mw := 0.0
				for z, bz := range biddingZones {
					if bz.Macroarea == area {
						mw += installed[k.typ] * zoneTable[z].capacity
					}
				}
				for _, unit := range units {
					if biddingZones[unit.zone].Macroarea == area && unit.plantType == k.plant {
						mw -= unitOut(outages, unit.name, u)
					}
				}
				if !split {
					rows = append(rows, dataset.Row{Time: u, Text: []string{area, k.plant, k.fuel}, Num: []float64{energy.Round(mw, 2)}})
					continue
				}
				for _, user := range macroUsers {
					rows = append(rows, dataset.Row{Time: u, Text: []string{area, user.name, k.plant, k.fuel}, Num: []float64{energy.Round(mw*user.share, 2)}})
				}
			}
		}
	}
	return rows
}

// UnitAvailableCapacity writes each unit's capacity less its outages,
// every hour of the v1.0 window: first published the next day, final
// seven days after the day (CapacityAt); the records carry both times
// (their final values).
func UnitAvailableCapacity(in dataset.DemoInput) []dataset.Row {
	lo, hi := v1Window(in)
	at := fleetAt(in)
	outages := outagesOf(in)
	var rows []dataset.Row
	for u := lo; u < hi; u += 3600 {
		first, final := CapacityAt(energy.DateOf(time.Unix(u, 0)))
		for _, unit := range at(u).units {
			mw := math.Round(unit.capacityMW - unitOut(outages, unit.name, u))
			rows = append(rows, dataset.Row{Time: u, Text: []string{unit.name}, Num: []float64{mw}, Pub: first.UnixMicro(), Rev: final.UnixMicro()})
		}
	}
	return rows
}

// FCR writes the auctions of the days of the v1.0 window (zeros before
// the auctions start) and at least a month of auctions from their first
// day, beyond the other datasets' end if need be.
func FCR(in dataset.DemoInput) []dataset.Row {
	lo, _ := v1Window(in)
	last := in.Last
	if end := FCRStart.AddDays(30); last.Compare(end) < 0 {
		last = end
	}
	var rows []dataset.Row
	for d := energy.DateOf(time.Unix(lo, 0)); d.Compare(last) <= 0; d = d.AddDays(1) {
		if d.Compare(in.Last) > 0 && d.Compare(FCRStart) < 0 {
			d = FCRStart // nothing to write between the window and the auctions
		}
		for a, area := range FCRAreas {
			for _, dir := range energy.Directions() {
				r := FCRAuction(in.Seed, d, a, dir == "UP")
				known := FCRKnownAt(d).UnixMicro()
				rows = append(rows, dataset.Row{Time: d.Start().Unix(), Text: []string{"FCR", area, dir}, Num: []float64{r.PriceEURMW, r.QuantityMW, r.RequiredMW}, Pub: known, Rev: known})
			}
		}
	}
	return rows
}
