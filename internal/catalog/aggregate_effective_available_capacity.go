package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// macroareas are the Adequacy pages' macroareas.
var macroareas = energy.Plain("NORD", "CENTRO_NORD", "CENTRO_SUD", "SUD_ISOLE")

// fuels are the prevailing fuels of the demo's plant types.
var fuels = energy.Plain("GAS NATURALE", "ACQUA")

// AggregateEffectiveAvailableCapacity is the capacity of the units of at
// least 100 MW that was available, per macroarea and plant type.
func AggregateEffectiveAvailableCapacity() *dataset.Dataset {
	d := adequacy("aggregate-effective-available-capacity", "Aggregate effective available capacity", "aggregate_available_capacity",
		"Capacity of the production units of 100 MW or more that was available in each hour, per macroarea, plant type and prevailing fuel, in MW; the final value for the day before.", "")
	d.Demo = func(in dataset.DemoInput) []dataset.Row { return demoAvailable(in, nil) }
	d.Source = dataset.Source{Ref: portal("adequacy", "Aggregate_Effective_Available_Capacity"), Confidence: "H"}
	return d
}

// adequacy is the shape of the aggregate and expected available capacity:
// with by set, a field of that name splits each figure.
func adequacy(resource, title, array, doc, by string) *dataset.Dataset {
	fields := []dataset.Field{
		referenceDate("market_date", false),
		zoneField(),
		text("macroarea", macroareas, "Macroarea: NORD, CENTRO_NORD, CENTRO_SUD or SUD_ISOLE."),
	}
	if by != "" {
		fields = append(fields, text(by, macrousers, "Market participant (macro user) owning the units."))
	}
	fields = append(fields,
		text("plant_type", plantTypes, "TERMOELETTRICO or IDROELETTRICO."),
		text("prevailing_fuel", fuels, "Prevailing fuel: GAS NATURALE or ACQUA."),
		number("available_capacity_MW", "Available capacity, MW", 0, 100000))
	d := v1("adequacy", resource, resource, title, doc, array, dataset.Hour, []dataset.Param{v1Dates(0)}, fields)
	d.DemoFrom = []string{"installed-capacity", "generation-unit-unavailability"}
	return d
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
	for _, r := range demoOutages(wide) {
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

// demoAvailable writes, per hour of the v1.0 window, macroarea and plant
// type, the installed capacity of that type in the macroarea (Italy's
// installed-capacity split by the zones' shares) less what the demo
// outages take out, or with split per macro user (its share of each).
func demoAvailable(in dataset.DemoInput, split map[string]float64) []dataset.Row {
	lo, hi := v1Window(in)
	at := fleetAt(in)
	outages := outagesOf(in)
	kinds := []struct{ plant, fuel, typ string }{{"TERMOELETTRICO", "GAS NATURALE", "Thermal"}, {"IDROELETTRICO", "ACQUA", "Hydro"}}
	var rows []dataset.Row
	for u := lo; u < hi; u += 3600 {
		units, installed := at(u).units, at(u).installed
		for _, area := range macroareas.Values() {
			for _, k := range kinds {
				mw := 0.0
				for _, z := range v1Zones {
					if z.adeq == area {
						mw += installed[k.typ] * z.capacityShare
					}
				}
				for _, unit := range units {
					if v1Zones[unit.zone].adeq == area && unit.plantType == k.plant {
						mw -= unitOut(outages, unit.name, u)
					}
				}
				if split == nil {
					rows = append(rows, dataset.Row{Time: u, Text: []string{area, k.plant, k.fuel}, Num: []float64{energy.Round(mw, 2)}})
					continue
				}
				for _, user := range macrousers.Values() {
					rows = append(rows, dataset.Row{Time: u, Text: []string{area, user, k.plant, k.fuel}, Num: []float64{energy.Round(mw*split[user], 2)}})
				}
			}
		}
	}
	return rows
}
