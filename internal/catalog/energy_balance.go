package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// EnergyBalance is Italy's daily electricity balance by type: what each
// source generated, what pumps took and what came in from abroad.
func EnergyBalance() *dataset.Dataset {
	d := series("generation", "energy-balance", "Energy balance",
		"Italy's daily electricity balance in GWh: generation by type, pumping consumption (negative) and the net foreign exchange "+
			"(positive when Italy imports); a day's values add up to its demand. One record per Europe/Rome day and type, dated at midnight.",
		"energy_balance", dataset.Day,
		[]dataset.Param{enumParam("type", "type", false, true, "Types to extract (repeat the key for several).")},
		[]dataset.Field{
			{Name: "energy_balance_GWh", Kind: dataset.Number, Format: dataset.PointFull, Min: -2000, Max: 2000, Agg: dataset.Sum,
				Doc: "The day's energy, GWh, decimal point; negative for pumping consumption and for net exports. " +
					"The name is this server's choice (no published answer shows it), after the family's <quantity>_<unit> pattern."},
			text("type", energy.BalanceTypeNames(),
				"Type: the six generation types, Pumping-consumption or Net Foreign Exchange. The field's name is this server's choice, after the filter's."),
		})
	d.Views = []dataset.View{energyBalanceV1()}
	d.Source = dataset.Source{Ref: portal("generation", "Energy_Balance"), Confidence: "L", Guess: "The field names and the daily grain were not seen."}
	d.Demo = demo.EnergyBalance
	d.DemoFrom = []string{"total-load"}
	d.Import = &dataset.ImportSpec{Formats: "CSV or XLSX with the columns date (the day, yyyy-mm-dd 00:00:00 or dd/mm/yyyy 00:00:00, Europe/Rome), energy_balance_GWh, type"}
	return d
}
