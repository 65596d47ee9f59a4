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

// genUnit is a demo production unit.
type genUnit struct {
	name, plant, plantType, fuel string
	zone                         int // index in energy.BiddingZones
	capacityMW                   float64
}

// genUnits returns the demo's production units: two thermal units in every
// zone and a hydro unit in the zones with the most hydro, each a fortieth
// (thermal) or twentieth (hydro) of the zone's share of Italy's installed
// capacity of that type (latestInstalled, zoneTable's capacity).
func genUnits(in dataset.DemoInput) []genUnit {
	installed := latestInstalled(in)
	var units []genUnit
	for z, bz := range biddingZones {
		share := zoneTable[z].capacity
		for n := 1; n <= 2; n++ {
			units = append(units, genUnit{fmt.Sprintf("UP_%s_TERM_%d", bz.Code, n), "Centrale termoelettrica " + bz.Italian, "TERMOELETTRICO", "GAS NATURALE", z,
				math.Round(installed["Thermal"] * share / 40)})
		}
		if bz.Zone == energy.North || bz.Zone == energy.CentreSouth || bz.Zone == energy.Calabria {
			units = append(units, genUnit{"UP_" + bz.Code + "_IDRO_1", "Centrale idroelettrica " + bz.Italian, "IDROELETTRICO", "ACQUA", z,
				math.Round(installed["Hydro"] * share / 20)})
		}
	}
	return units
}

// Outages gives each demo unit one outage in the v1.0 window, of three
// to seven days, starting on a seeded day, taking out 30 to 100% of its
// capacity; one in five is unplanned, one in four has its end moved.
func Outages(in dataset.DemoInput) []dataset.Row {
	lo, _ := v1Window(in)
	first := energy.DateOf(time.Unix(lo, 0))
	var rows []dataset.Row
	for k, u := range genUnits(in) {
		start := first.AddDays(int(6 + 6*dataNoise(lo, 400+k)))
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
		rows = append(rows, dataset.Row{Time: start.Start().Unix(),
			Text: []string{pub.String(), u.name, u.plant, u.plantType, biddingZones[u.zone].Code, typ, stop.Start().Format(outageLayout), update, "Active"},
			Num:  []float64{u.capacityMW, off}})
	}
	return rows
}

// latestInstalled returns the demo installed capacity by type, in MW, of
// the latest year installed-capacity holds up to the v1.0 window's.
func latestInstalled(in dataset.DemoInput) map[string]float64 {
	_, hi := v1Window(in)
	var latest int64
	for _, r := range in.From["installed-capacity"] {
		if r.Time < hi && r.Time > latest {
			latest = r.Time
		}
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
	var out []outage
	for _, r := range in.From["generation-unit-unavailability"] {
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
	units := genUnits(in)
	outages := outagesOf(in)
	installed := latestInstalled(in)
	kinds := []struct{ plant, fuel, typ string }{{"TERMOELETTRICO", "GAS NATURALE", "Thermal"}, {"IDROELETTRICO", "ACQUA", "Hydro"}}
	var rows []dataset.Row
	for u := lo; u < hi; u += 3600 {
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
	units := genUnits(in)
	outages := outagesOf(in)
	var rows []dataset.Row
	for u := lo; u < hi; u += 3600 {
		first, final := CapacityAt(energy.DateOf(time.Unix(u, 0)))
		for _, unit := range units {
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
