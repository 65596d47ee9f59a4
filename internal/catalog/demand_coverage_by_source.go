package catalog

import (
	"math"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// DemandCoverageBySource is the yearly coverage of each region's demand by
// source.
func DemandCoverageBySource() *dataset.Dataset {
	return &dataset.Dataset{
		Name: "demand-coverage", Title: "Demand coverage by source",
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
		Demo:     demoDemandCoverage,
		DemoFrom: []string{"total-load"},
		Import:   &dataset.ImportSpec{Formats: "CSV or XLSX with the columns year, region, source, coverage_GWh (Italian or decimal-point numbers)"},
	}
}

// coverageMix returns a region's coverage by source as fractions of its
// demand, in energy.CoverageSourceNames order, after the regional
// statistics: hydro in the Alps, wind and sun in the south and the
// islands, geothermal in Tuscany, net imports into the industrial north.
func coverageMix(region string) [7]float64 {
	//                     Bio   Wind  PV    Geo   HydroR HydroT Saldo
	switch region {
	case "Valle d'Aosta":
		return [7]float64{0.01, 0.01, 0.03, 0, 2.6, 0.05, -1.8}
	case "Trentino-Alto Adige":
		return [7]float64{0.04, 0, 0.06, 0, 1.2, 0.08, -0.5}
	case "Lombardia", "Piemonte":
		return [7]float64{0.06, 0, 0.05, 0, 0.17, 0.02, 0.25}
	case "Toscana":
		return [7]float64{0.03, 0.01, 0.05, 0.3, 0.03, 0.01, 0.2}
	case "Puglia":
		return [7]float64{0.07, 0.3, 0.22, 0, 0, 0, -0.45}
	case "Basilicata", "Molise":
		return [7]float64{0.05, 0.6, 0.12, 0, 0.03, 0, 0.1}
	case "Sicilia", "Sardegna", "Calabria", "Campania":
		return [7]float64{0.05, 0.16, 0.1, 0, 0.04, 0.01, -0.05}
	}
	return [7]float64{0.05, 0.01, 0.07, 0, 0.05, 0.01, 0.35}
}

// demoDemandCoverage splits each region's share of Italy's yearly demo
// demand (total-load) by coverageMix, with the renewables' growth over
// the years and a noise of ±5%.
func demoDemandCoverage(in dataset.DemoInput) []dataset.Row {
	yearly := map[int]float64{} // GWh
	var years []int
	for _, r := range in.From["total-load"] {
		if r.Text[0] != string(energy.Italy) {
			continue
		}
		y := time.Unix(r.Time, 0).In(energy.Rome()).Year()
		if _, ok := yearly[y]; !ok {
			years = append(years, y)
		}
		yearly[y] += r.Num[0] / 4000
	}
	shares := demo.RegionDemandShares()
	sources := energy.CoverageSourceNames().Values()
	growth := [7]float64{0, 0.04, 0.1, 0, 0, 0, 0} // yearly growth of wind and photovoltaic
	var out []dataset.Row
	for _, y := range years {
		at := time.Date(y, time.January, 1, 0, 0, 0, 0, energy.Rome()).Unix()
		for ri, region := range energy.RegionNames().Values() {
			demand := yearly[y] * shares[region]
			mix := coverageMix(region)
			for si, src := range sources {
				g := demand * mix[si] * math.Pow(1+growth[si], float64(y-2019)) * (1 + 0.05*demo.Noise(0xc0e7, at, int64(ri), int64(si)))
				out = append(out, dataset.Row{Time: at, Text: []string{region, src}, Num: []float64{round3(g)}})
			}
		}
	}
	return out
}
