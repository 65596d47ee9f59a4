package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// macrousers are the demo's market participants owning production units.
var macrousers = energy.Plain(demo.MacroUsers()...)

// ExpectedAvailableCapacity is the capacity expected to be available, per
// macroarea, market participant and plant type.
func ExpectedAvailableCapacity() *dataset.Dataset {
	d := adequacy("expected-available-capacity", "Expected available capacity", "expected_available_capacity",
		"Capacity of the production units of 100 MW or more expected to be available in each hour, per macroarea, market participant (macro user), plant type and prevailing fuel, in MW.", "macrouser_name")
	d.Demo = demo.ExpectedAvailableCapacity
	d.Source = dataset.Source{Ref: portal("adequacy", "Expected_Available_Capacity"), Confidence: "H",
		Guess: "The prevailing fuels beyond the examples' TERMICO TRADIZIONALE (here) and ALTRO (aggregate capacity), and which plant type has which."}
	return d
}
