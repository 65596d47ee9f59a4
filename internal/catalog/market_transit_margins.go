package catalog

import (
	"math"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// MarketTransitMargins are what the transit limits leave free after the
// scheduled exchanges.
func MarketTransitMargins() *dataset.Dataset {
	d := transitSeries("input/transit-margins", "Transit margins",
		"Transfer capacity left between neighbouring bidding zones for each market session, every hour, in MW: the transit limit less the exchange scheduled in that direction."+unseen,
		"transit_margins", number("margin_MW", "Capacity left, MW", -20000, 20000))
	d.DemoFrom = []string{"scheduled-internal-exchange"}
	d.Demo = func(in dataset.DemoInput) []dataset.Row {
		lo, hi := v1Window(in)
		scheduled := map[[2]int64]float64{} // hour, link -> MW in the portal direction
		links := map[string]int64{}
		for k, l := range energy.ZoneLinks() {
			links[energy.FlowName(l[0], l[1])] = int64(k)
		}
		for _, r := range within(in.From["scheduled-internal-exchange"], lo, hi) {
			if k, ok := links[r.Text[0]]; ok && r.Time >= lo && r.Time < hi {
				scheduled[[2]int64{r.Time, k}] = r.Num[0]
			}
		}
		return transitRows(in, func(u int64, k, dir, s int) float64 {
			x := scheduled[[2]int64{u, int64(k)}]
			if dir == 1 {
				x = -x
			}
			return math.Round(transitLimit(u, k, dir, s) - x)
		})
	}
	d.Source = dataset.Source{Ref: portal("market", "Transit_Margins"), Confidence: "L", Guess: "The page was not seen: the fields follow forecast-transit-limit."}
	return d
}
