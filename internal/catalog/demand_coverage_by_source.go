package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// DemandCoverageBySource is the yearly coverage of each region's demand by
// source.
func DemandCoverageBySource() *dataset.Dataset {
	d := yearlyStat("load", "demand-coverage-by-source", "Demand coverage by source",
		"How much of each region's yearly electricity demand each source covered, in GWh, Italian number format. "+
			"Thermal generation is not among the sources, so a region's sources add up to its demand less its thermal part; "+
			"Saldo import/export is the region's net import from other regions and abroad (negative for a net exporter).",
		"demand_coverage_by_source",
		[]dataset.Param{regionParam(), enumParam("source", "source", false, false, "Source to extract.")},
		[]dataset.Field{regionField(), text("source", energy.CoverageSourceNames(), "Source."),
			{Name: "coverage_GWh", Kind: dataset.Number, Format: dataset.Italian3, Doc: "The part of the region's demand the source covered, GWh, Italian number format (\"1.234,567\").", Min: -100000, Max: 100000}})
	d.Name = "demand-coverage" // the resource's older, shorter name
	d.Source = dataset.Source{Ref: portal("load", "Demand_coverage_by_source"), Confidence: "H"}
	d.Import.Formats += italianOrPoint
	d.Demo = demo.DemandCoverage
	d.DemoFrom = []string{"total-load"}
	return d
}
