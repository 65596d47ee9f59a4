package catalog

import (
	"fmt"
	"math"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Values of the outages' text fields.
var (
	plantTypes     = energy.Plain("TERMOELETTRICO", "IDROELETTRICO")
	outageTypes    = energy.Plain("Planned", "Unplanned")
	outageStatuses = energy.Plain("Active", "Cancelled")
)

// outageLayout is how the live service writes an outage's start and stop:
// the probe code that reads it parses yyyy-mm-dd hh:mm.
const outageLayout = "2006-01-02 15:04"

// GenerationUnitUnavailability is the published unavailability of
// production units: planned and unplanned outages.
func GenerationUnitUnavailability() *dataset.Dataset {
	d := v1("outages", "generation-unit-unavailability", "generation-unit-unavailability", "Unavailability of production units",
		"Outages of production units, one record per unit and outage start day: the capacity they take out and until when. dateFrom and dateTo select outages by start_date. "+
			"The array and the dates are as the live service sends them (unavailability_productive_units, yyyy-mm-dd hh:mm); the page shows planned_outages and yyyy/mm/dd.",
		"unavailability_productive_units", dataset.Day,
		[]dataset.Param{v1Dates(0)},
		[]dataset.Field{
			storedDate("publication_date", "2006-01-02", "Day the outage was published, yyyy-mm-dd."),
			zoneField(),
			text("unit_name", nil, "Production unit (UP) code."),
			text("plant_name", nil, "Plant the unit belongs to."),
			text("plant_type", plantTypes, "TERMOELETTRICO or IDROELETTRICO."),
			text("biddingZone", zoneCodes, "Bidding zone code (e.g. SICI)."),
			number("installed_capacity", "Installed capacity of the unit, MW", 0, 5000),
			text("outage_type", outageTypes, "Planned or Unplanned."),
			{Name: "start_date", Kind: dataset.DateOf, Layout: outageLayout, Doc: "Start of the outage, yyyy-mm-dd hh:mm (local time)."},
			storedDate("stop_date", outageLayout, "End of the outage as first published, yyyy-mm-dd hh:mm."),
			storedDate("stop_date_update", outageLayout, "End as updated since, yyyy-mm-dd hh:mm; empty when unchanged."),
			number("unavailable_capacity", "Capacity the outage takes out, MW", 0, 5000),
			text("unavailable_status", outageStatuses, "Active or Cancelled."),
		})
	d.Key = []string{"unit_name"}
	d.DemoFrom = []string{"installed-capacity"}
	d.Demo = demoOutages
	d.Source = dataset.Source{Ref: portal("outages", "Unavailability_Productive_Units"), Confidence: "H",
		Guess: "The live probe code (which wins) reads the array unavailability_productive_units and parses start_date and stop_date as yyyy-mm-dd hh:mm; the other fields are the page's, publication_date still yyyy-mm-dd. Outages start and stop at midnight in the demo."}
	return d
}

// genUnit is a demo production unit.
type genUnit struct {
	name, plant, plantType, fuel string
	zone                         int // index in v1Zones
	capacityMW                   float64
}

// genUnits returns the demo's production units as they stand at Unix
// time at: two thermal units in every zone and a hydro unit in the zones
// with the most hydro, each a fortieth (thermal) or twentieth (hydro) of
// the zone's share of Italy's installed capacity of that type
// (installedAt).
func genUnits(in dataset.DemoInput, at int64) []genUnit {
	installed := installedAt(in, at)
	var units []genUnit
	for z, vz := range v1Zones {
		for n := 1; n <= 2; n++ {
			units = append(units, genUnit{fmt.Sprintf("UP_%s_TERM_%d", vz.code, n), "Centrale termoelettrica " + vz.name, "TERMOELETTRICO", "GAS NATURALE", z,
				math.Round(installed["Thermal"] * vz.capacityShare / 40)})
		}
		if vz.zone == energy.North || vz.zone == energy.CentreSouth || vz.zone == energy.Calabria {
			units = append(units, genUnit{"UP_" + vz.code + "_IDRO_1", "Centrale idroelettrica " + vz.name, "IDROELETTRICO", "ACQUA", z,
				math.Round(installed["Hydro"] * vz.capacityShare / 20)})
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

// demoOutages starts one outage a day, of two to six days, taking out 30
// to 100% of a unit's capacity; one in five is unplanned, one in four has
// its end moved. The units take turns (the day's number modulo their
// count), so that a unit's next outage starts after its last has ended,
// and each outage is seeded by its day alone: any span of the demo data
// holds the same outages on the same days.
func demoOutages(in dataset.DemoInput) []dataset.Row {
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
		Text: []string{pub.String(), u.name, u.plant, u.plantType, v1Zones[u.zone].code, typ, stop.Start().Format(outageLayout), update, "Active"},
		Num:  []float64{u.capacityMW, off}}
}

// installedAt returns the demo installed capacity by type, in MW, of the
// latest year installed-capacity holds up to Unix time at.
func installedAt(in dataset.DemoInput, at int64) map[string]float64 {
	var latest int64
	for _, r := range in.From["installed-capacity"] {
		if r.Time <= at && r.Time > latest {
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
