package catalog

import (
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
		Demo:     demoDemandCoverage,
		DemoFrom: []string{"total-load"},
		Import:   &dataset.ImportSpec{Formats: "CSV or XLSX with the columns year, region, source, coverage_GWh (Italian or decimal-point numbers)"},
	}
}

// demoDemandCoverage splits each year of the demo system over the
// regions: the year's hourly generation by source (the hours of
// actual-generation), each source over the regions as the yearly
// statistics place its production (electrical-energy-by-source), demand
// by region (demo.RegionDemandShares). Bioenergies are the statistics'
// share of thermal output; traditional hydro is what the pumps give back
// (70 % of their energy, at most a fifth of hydro), the rest of hydro
// renewable. Saldo import/export is what the region's demand lacks after
// its own production, thermal included, so that the regions' balances add
// up to Italy's net import less pumping.
func demoDemandCoverage(in dataset.DemoInput) []dataset.Row {
	type year struct{ pv, wind, hydro, geo, thermal, pumping, netImport float64 } // GWh
	years := map[int]*year{}
	var order []int
	rome := energy.Rome()
	for _, g := range hourlyGeneration(in) {
		y := time.Unix(g.At, 0).In(rome).Year()
		t := years[y]
		if t == nil {
			t = &year{}
			years[y] = t
			order = append(order, y)
		}
		t.pv += g.Photovoltaic
		t.wind += g.Wind
		t.hydro += g.Hydro
		t.geo += g.Geothermal
		t.thermal += g.Thermal + g.Self
		t.pumping += g.Pumping
		t.netImport += g.NetImport
	}
	// Regional shares of each statistics source, per statistics year.
	type key struct {
		year           int
		region, source string
	}
	share := map[key]float64{}
	total := map[key]float64{}
	for _, st := range demo.GenerationStats().EnergyBySource {
		share[key{st.Year, st.Region, st.Source}] += st.Value
		total[key{st.Year, "", st.Source}] += st.Value
	}
	demandShares := demo.RegionDemandShares()
	var out []dataset.Row
	for _, y := range order {
		t := years[y]
		sy := min(max(y, demo.ThermoFirstYear), demo.ThermoLastYear)
		part := func(region, source string) float64 {
			if tot := total[key{sy, "", source}]; tot > 0 {
				return share[key{sy, region, source}] / tot
			}
			return 0
		}
		bioShare := total[key{sy, "", "Bioenergie"}] / (total[key{sy, "", "Bioenergie"}] + total[key{sy, "", "Termoelettrico"}])
		bio := t.thermal * bioShare
		traditional := min(0.7*t.pumping, 0.2*t.hydro)
		demand := t.pv + t.wind + t.hydro + t.geo + t.thermal + t.netImport - t.pumping
		at := time.Date(y, time.January, 1, 0, 0, 0, 0, rome).Unix()
		for _, region := range energy.RegionNames().Values() {
			hydro := part(region, "Idrico")
			cov := [6]float64{
				bio * part(region, "Bioenergie"),
				t.wind * part(region, "Eolico"),
				t.pv * part(region, "Fotovoltaico"),
				t.geo * part(region, "Geotermoelettrico"),
				(t.hydro - traditional) * hydro,
				traditional * hydro,
			}
			saldo := demand*demandShares[region] - (t.thermal-bio)*part(region, "Termoelettrico")
			for si, src := range energy.CoverageSourceNames().Values() {
				v := saldo
				if si < len(cov) {
					v = cov[si]
					saldo -= v
				}
				out = append(out, dataset.Row{Time: at, Text: []string{region, src}, Num: []float64{energy.Round(v, 3)}})
			}
		}
	}
	return out
}
