package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// DemandCoverageBySource is the yearly coverage of each region's demand by
// source.
func DemandCoverageBySource() *dataset.Dataset {
	return &dataset.Dataset{
		Name: "demand-coverage", Title: "Demand coverage by source",
		Source: dataset.Source{Ref: portal("load", "Demand_coverage_by_source"), Confidence: "H"},
		Doc: "How much of each region's yearly electricity demand each source covered, in GWh, Italian number format. " +
			"Thermal generation is not among the sources, so a region's sources add up to its demand less its thermal part; " +
			"Saldo import/export is the region's net import from other regions and abroad (negative for a net exporter).",
		Area: "load", Version: "v2.0", Resource: "demand-coverage-by-source",
		Array: "demand_coverage_by_source", Message: dataset.MessageOK, Grain: dataset.Year,
		Params: []dataset.Param{
			{Name: "year", Kind: dataset.YearParam, Required: true, Doc: "Year to extract (yyyy)."},
			{Name: "region", Kind: dataset.Enum, Field: "region", Doc: "Region to extract."},
			{Name: "source", Kind: dataset.Enum, Field: "source", Doc: "Source to extract."},
		},
		Fields: []dataset.Field{
			{Name: "year", Kind: dataset.YearOf, Doc: "Year, four digits."},
			{Name: "region", Kind: dataset.Text, Ref: energy.RegionNames(), Doc: "Region."},
			{Name: "source", Kind: dataset.Text, Ref: energy.CoverageSourceNames(), Doc: "Source."},
			{Name: "coverage_GWh", Kind: dataset.Number, Format: dataset.Italian3, Doc: "The part of the region's demand the source covered, GWh, Italian number format (\"1.234,567\").", Min: -100000, Max: 100000},
		},
		Demo:     demo.DemandCoverage,
		DemoFrom: []string{"total-load"},
		Import:   &dataset.ImportSpec{Formats: "CSV or XLSX with the columns year, region, source, coverage_GWh (Italian or decimal-point numbers)"},
	}
}
