package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
)

// PreliminaryMacrozonalImbalance is the macrozonal imbalance as first
// published, every quarter hour with at most half an hour's delay.
func PreliminaryMacrozonalImbalance() *dataset.Dataset {
	d := feesImbalance("preliminary-macrozonal-imbalance", "Preliminary macrozonal imbalance", "preliminary_macrozonal_imbalance",
		"Preliminary aggregate imbalance of each macrozone, hourly and quarter-hourly, in MWh: daily-macrozonal-imbalance's fields, published within half an hour."+unseen)
	d.Demo = demo.PreliminaryImbalance
	d.Source = dataset.Source{Ref: portal("fees", "Preliminary_Macrozonal_Imbalance"), Confidence: "M", Guess: "The fields after data_type follow daily-macrozonal-imbalance."}
	return d
}
