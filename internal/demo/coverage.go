package demo

import (
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// DemandCoverage splits each year of the demo system over the
// regions: the year's hourly generation by source (the hours of
// actual-generation), each source over the regions as the yearly
// statistics place its production (electrical-energy-by-source), demand
// by region (RegionDemandShares). Bioenergies are the statistics'
// share of thermal output; traditional hydro is what the pumps give back
// (70 % of their energy, at most a fifth of hydro), the rest of hydro
// renewable. Saldo import/export is what the region's demand lacks after
// its own production, thermal included, so that the regions' balances add
// up to Italy's net import less pumping.
func DemandCoverage(in dataset.DemoInput) []dataset.Row {
	type year struct{ pv, wind, hydro, geo, thermal, pumping, netImport float64 } // GWh
	years := map[int]*year{}
	var order []int
	rome := energy.Rome()
	for _, g := range HourlyGeneration(in) {
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
	for _, st := range generationStats(in).EnergyBySource {
		share[key{st.Year, st.Region, st.Source}] += st.Value
		total[key{st.Year, "", st.Source}] += st.Value
	}
	demandShares := RegionDemandShares()
	var out []dataset.Row
	for _, y := range order {
		t := years[y]
		sy := min(max(y, ThermoFirstYear), ThermoLastYear)
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

// DemandByType splits each region's demand of the statistics' years
// (PublishedDemandTWh by RegionDemandShares). In the years the demo
// range covers whole, renewables and the balance are demand-coverage's;
// in the others they come from the yearly generation statistics (the
// region's net renewable production, and its demand less its whole net
// production). Traditional sources are the rest. types names the three,
// renewable, traditional and the balance, as the dataset writes them.
func DemandByType(in dataset.DemoInput, types []string) []dataset.Row {
	type key struct {
		year   int
		region string
	}
	renewable, balance := map[key]float64{}, map[key]float64{}
	covered := map[int]bool{}
	for _, r := range in.From["demand-coverage"] {
		y := time.Unix(r.Time, 0).In(energy.Rome()).Year()
		if in.First.Compare(energy.Date{Year: y, Month: time.January, Day: 1}) > 0 || in.Last.Compare(energy.Date{Year: y, Month: time.December, Day: 31}) < 0 {
			continue // a year the demo range covers in part
		}
		covered[y] = true
		k := key{y, r.Text[0]}
		switch r.Text[1] {
		case "Saldo import/export":
			balance[k] = r.Num[0]
		case "Idrico tradizionale":
		default:
			renewable[k] += r.Num[0]
		}
	}
	shares := RegionDemandShares()
	production := map[key]float64{}
	for _, st := range generationStats(in).EnergyBySource {
		k := key{st.Year, st.Region}
		production[k] += st.Value
		if st.Source != "Termoelettrico" && !covered[st.Year] {
			renewable[k] += st.Value
		}
	}
	var rows []dataset.Row
	for y := ThermoFirstYear; y <= ThermoLastYear; y++ {
		for _, region := range energy.RegionNames().Values() {
			k := key{y, region}
			demand := PublishedDemandTWh(y) * 1000 * shares[region]
			if !covered[y] {
				balance[k] = demand - production[k]
			}
			for i, v := range []float64{renewable[k], demand - renewable[k] - balance[k], balance[k]} {
				rows = append(rows, yearRow(y, energy.Round(v, 3), region, types[i]))
			}
		}
	}
	return rows
}

// yearRow returns a yearly record as a row: the year's first instant.
func yearRow(year int, num float64, text ...string) dataset.Row {
	return dataset.Row{Time: time.Date(year, time.January, 1, 0, 0, 0, 0, energy.Rome()).Unix(), Text: text, Num: []float64{num}}
}
