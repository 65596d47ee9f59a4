package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// macroareas are the Adequacy pages' macroareas.
var macroareas = energy.Plain(energy.Macroareas()...)

// fuels are the prevailing fuels the Adequacy pages' examples show.
var fuels = energy.Plain(energy.PrevailingFuels()...)

// AggregateEffectiveAvailableCapacity is the capacity of the units of at
// least 100 MW that was available, per macroarea and plant type.
func AggregateEffectiveAvailableCapacity() *dataset.Dataset {
	d := adequacy("aggregate-effective-available-capacity", "Aggregate effective available capacity", "aggregate_available_capacity",
		"Capacity of the production units of 100 MW or more that was available in each hour, per macroarea, plant type and prevailing fuel, in MW; the final value for the day before.", "")
	d.Demo = demo.AvailableCapacity
	d.Source = dataset.Source{Ref: portal("adequacy", "Aggregate_Effective_Available_Capacity"), Confidence: "H",
		Guess: "The prevailing fuels beyond the examples' ALTRO (here) and TERMICO TRADIZIONALE (expected capacity), and which plant type has which: the example pairs IDROELETTRICO with both."}
	return d
}

// adequacy is the shape of the aggregate and expected available capacity:
// with by set, a field of that name splits each figure.
func adequacy(resource, title, array, doc, by string) *dataset.Dataset {
	fields := []dataset.Field{
		referenceDate("market_date", false),
		zoneField(),
		text("macroarea", macroareas, "Macroarea: "+joinNames(energy.Macroareas())+"."),
	}
	if by != "" {
		fields = append(fields, text(by, macrousers, "Market participant (macro user) owning the units."))
	}
	fields = append(fields,
		text("plant_type", plantTypes, "TERMOELETTRICO or IDROELETTRICO."),
		text("prevailing_fuel", fuels, "Prevailing fuel: TERMICO TRADIZIONALE (traditional thermal fuels) or ALTRO (other: the hydro units here)."),
		number(dataset.Mean, "available_capacity_MW", "Available capacity, MW", 0, 100000))
	d := v1("adequacy", resource, resource, title, doc, array, dataset.Hour, []dataset.Param{v1Dates(0)}, fields)
	d.DemoFrom = []string{"installed-capacity", "generation-unit-unavailability"}
	return d
}
