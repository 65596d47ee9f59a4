package demo

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/energyapi/energyapi/internal/energy"
)

// statsSeed fixes the yearly generation statistics.
const statsSeed = 0x9e7_57a7_2015

// renewableTWh returns Italy's net renewable production in a year, after the
// published statistics (the 2022 drought, the photovoltaic boom that
// followed): hydro, wind, photovoltaic, geothermal and bioenergies, TWh.
// Years after ThermoLastYear, which the hourly demo series reach, continue
// the trend.
func renewableTWh(year int) (hydro, wind, pv, geo, bio float64) {
	t := [...][5]float64{
		{46.0, 14.8, 22.9, 6.2, 19.4}, // 2015
		{42.4, 17.7, 22.1, 6.3, 19.5},
		{36.2, 17.7, 24.4, 6.2, 19.4},
		{48.8, 17.7, 22.7, 6.1, 19.2},
		{46.3, 20.2, 23.7, 6.1, 19.6},
		{47.6, 18.8, 24.9, 6.0, 19.6}, // 2020
		{45.4, 20.9, 25.0, 5.9, 19.0},
		{28.4, 20.5, 28.1, 5.8, 17.0},
		{40.5, 23.4, 30.7, 5.7, 16.4},
		{52.0, 22.1, 36.1, 5.3, 15.8},
		{45.0, 23.0, 43.0, 5.3, 15.5}, // 2025
	}
	i := min(max(year-ThermoFirstYear, 0), len(t)-1)
	r := t[i]
	return r[0], r[1], r[2], r[3], r[4]
}

// capacityGW returns Italy's net installed wind, photovoltaic and hydro
// capacity at the end of a year, GW.
func capacityGW(year int) (wind, pv, hydro float64) {
	w := [...]float64{9.16, 9.41, 9.77, 10.27, 10.72, 10.91, 11.29, 11.86, 12.34, 12.97, 13.5}
	p := [...]float64{18.90, 19.28, 19.68, 20.11, 20.87, 21.65, 22.59, 25.06, 30.32, 37.08, 43.5}
	h := [...]float64{22.40, 22.45, 22.55, 22.75, 22.85, 22.95, 23.00, 23.05, 23.10, 23.20, 23.25}
	i := min(max(year-ThermoFirstYear, 0), len(w)-1)
	return w[i], p[i], h[i]
}

// Weights of the provinces in each source's national total. Photovoltaic
// is everywhere and weighted by the seeded generator.
func windProvinces() map[string]float64 {
	return map[string]float64{
		"Foggia": 25, "Potenza": 10, "Avellino": 8, "Benevento": 7, "Catanzaro": 5, "Crotone": 5,
		"Trapani": 8, "Palermo": 5, "Agrigento": 4, "Catania": 3, "Sassari": 6, "Sud Sardegna": 4,
		"Campobasso": 4, "Chieti": 2, "L'Aquila": 2, "Bari": 3, "Taranto": 2, "Brindisi": 1,
		"Lecce": 1, "Cosenza": 3, "Vibo Valentia": 2, "Salerno": 3, "Grosseto": 1, "Savona": 1,
		"Matera": 2, "Nuoro": 2, "Messina": 1, "Enna": 2, "Caltanissetta": 2, "Ragusa": 1,
	}
}

func hydroProvinces() map[string]float64 {
	return map[string]float64{
		"Sondrio": 12, "Bolzano": 13, "Trento": 9, "Brescia": 5, "Bergamo": 3, "Verbano-Cusio-Ossola": 6,
		"Torino": 4, "Cuneo": 4, "Aosta": 7, "Belluno": 4, "Udine": 3, "Pordenone": 2, "L'Aquila": 2,
		"Terni": 2, "Cosenza": 2, "Pescara": 1, "Frosinone": 1, "Vicenza": 1, "Como": 1, "Lecco": 1,
		"Catanzaro": 1, "Nuoro": 1, "Rieti": 1,
	}
}

func geoProvinces() map[string]float64 {
	return map[string]float64{"Pisa": 45, "Siena": 35, "Grosseto": 20}
}

// southRegions get more sun.
func sunFactor(region string) float64 {
	switch region {
	case "Puglia", "Sicilia", "Sardegna", "Calabria", "Basilicata":
		return 1.8
	case "Campania", "Lazio", "Molise", "Abruzzo", "Marche", "Umbria", "Toscana":
		return 1.3
	}
	return 1
}

// ProvinceStat is one yearly value of a province: a production in GWh or a
// capacity in MW, of a kind (a source, a kind of hydro or cogeneration
// plant), gross or net (Type "Lorda" or "Netta"; empty when neither).
type ProvinceStat struct {
	Year             int
	Type             string
	Region, Province string
	Kind             string
	Value            float64
}

// RegionStat is one yearly value of a region and a source.
type RegionStat struct {
	Year           int
	Region, Source string
	Value          float64
}

// NationalStat is one yearly national value of a type.
type NationalStat struct {
	Year  int
	Type  string
	Value float64
}

// ThermoCapacity is the capacity of a province's thermoelectric plants of
// one kind, MW.
type ThermoCapacity struct {
	Year                  int
	CapacityType          string
	Region, Province      string
	Category, Subcategory string
	MW                    float64
}

// Stats are the yearly generation statistics of the demo, one synthetic
// power system with the thermoelectric production of Thermoelectric. They
// agree with each other:
//
//   - thermoelectric capacity exists where and when thermoelectric
//     production does, sized from its average output and a capacity factor
//     per kind of plant; geothermal condensing plants are listed under
//     "Non cogenerativa" as thermoelectric-capacity's list has them;
//   - thermoelectric heat comes from the cogeneration plants' gross
//     production, with a heat-to-power ratio per kind;
//   - renewable production per province is the national figure of each
//     year split by fixed province weights; hydro's net production is the
//     sum of the hydric records; bioenergies are a share of the province's
//     net thermoelectric production (they burn in thermoelectric plants);
//   - generation plants' efficient power splits the national capacities
//     the same way; Termoelettrico is the thermoelectric capacity minus the
//     bioenergy plants' and geothermal plants' (shown as Bioenergie and
//     Geotermoelettrico), so that the sources add up to the country's;
//   - electrical energy by source is the regions' net production: the
//     renewable sources, and Termoelettrico as net thermoelectric
//     production minus bioenergies;
//   - installed capacity is the national sum of the net efficient power, in
//     GW: Thermal is Termoelettrico plus Bioenergie.
type Stats struct {
	ThermoCapacity    []ThermoCapacity
	ThermoHeat        []ProvinceStat // Kind: cogeneration plant, GWh
	RenewableSources  []ProvinceStat // Kind: renewable source, GWh
	Hydric            []ProvinceStat // Kind: hydric plant, GWh
	GenerationPlants  []ProvinceStat // Kind: source, MW
	EnergyBySource    []RegionStat   // GWh, net
	InstalledCapacity []NationalStat // GW, net
}

// capacityFactor is the share of the year a kind of plant would have to run
// at full power to produce its average output. Italy's thermoelectric fleet
// runs well below these nominal factors (reserve, mothballed units): the
// fleet factor brings its capacity to the published 60 GW or so.
func capacityFactor(sub string) float64 { return 0.84 * nominalFactor(sub) }

func nominalFactor(sub string) float64 {
	switch sub {
	case "Condensazione":
		return 0.32
	case "Ciclo combinato", "Ripotenziato":
		return 0.36
	case "Turbine a gas", "Turbo espansione":
		return 0.08
	case "Combustione interna":
		return 0.30
	case "Ciclo combinato con cogenerazione", "Condensazione e spillamento":
		return 0.55
	}
	return 0.45 // the other cogeneration plants, fuel cells, "Altro genere"
}

// heatRatio is the heat produced per unit of electricity by a kind of
// cogeneration plant; zero for kinds thermoelectric-heat does not list.
func heatRatio(sub string) float64 {
	switch sub {
	case "Ciclo combinato con cogenerazione":
		return 0.45
	case "Combustione interna con cogenerazione":
		return 0.9
	case "Condensazione e spillamento":
		return 0.35
	case "Contropressione":
		return 1.6
	case "Turbine a gas con cogenerazione":
		return 1.3
	}
	return 0
}

// GenerationStats returns the demo's yearly generation statistics for the
// years of Thermoelectric, sorted by year and then by their text fields.
// Productions are rounded to the MWh and capacities to the kW. Every call
// returns the same values in new slices.
func GenerationStats() Stats {
	rng := rand.New(rand.NewPCG(statsSeed, statsSeed>>9))
	thermo := thermoRecords()
	var s Stats
	round := func(v float64) float64 { return energy.Round(v, 3) }

	// Thermoelectric capacity: average gross production over the years a
	// record exists.
	type tkey struct{ province, category, subcategory string }
	sum, n := map[tkey]float64{}, map[tkey]int{}
	netShare := map[tkey]float64{}
	for _, r := range thermo {
		if r.CapacityType == energy.Lorda {
			k := tkey{r.Province, r.Category, r.Subcategory}
			sum[k] += r.ProductionGWh
			n[k]++
			if _, ok := netShare[k]; !ok {
				netShare[k] = 0.95 + 0.03*rng.Float64()
			}
		}
	}
	thermoNet := map[[2]string]float64{} // year|province -> net GWh
	capNet := map[[2]string]float64{}    // year|province -> net thermoelectric MW (geothermal excluded)
	for _, r := range thermo {
		yp := [2]string{strconv.Itoa(r.Year), r.Province}
		if r.CapacityType == energy.Netta {
			thermoNet[yp] += r.ProductionGWh
			continue
		}
		k := tkey{r.Province, r.Category, r.Subcategory}
		sub := r.Subcategory
		if sub == "Celle a combustibile" {
			sub = energy.CelleCombustibili
		}
		gross := round(sum[k] / float64(n[k]) * 1000 / (8760 * capacityFactor(r.Subcategory)) * (1 + 0.02*(rng.Float64()-0.5)))
		net := round(gross * netShare[k])
		for _, v := range [...]struct {
			ct string
			mw float64
		}{{energy.Lorda, gross}, {energy.Netta, net}} {
			s.ThermoCapacity = append(s.ThermoCapacity, ThermoCapacity{r.Year, v.ct, r.Region, r.Province, r.Category, sub, v.mw})
		}
		capNet[yp] += net
		if h := heatRatio(r.Subcategory); h > 0 {
			s.ThermoHeat = append(s.ThermoHeat, ProvinceStat{r.Year, "", r.Region, r.Province, r.Subcategory,
				round(r.ProductionGWh * h * (0.9 + 0.2*rng.Float64()))})
		}
	}
	// Geothermal condensing plants, by the weights of geothermal production.
	geoCapNet := map[[2]string]float64{}
	for year := ThermoFirstYear; year <= ThermoLastYear; year++ {
		for _, p := range sortedKeys(geoProvinces()) {
			region, _ := energy.RegionOf(p)
			gross := round(870 * geoProvinces()[p] / 100)
			net := round(gross * 0.89)
			for _, v := range [...]struct {
				ct string
				mw float64
			}{{energy.Lorda, gross}, {energy.Netta, net}} {
				s.ThermoCapacity = append(s.ThermoCapacity, ThermoCapacity{year, v.ct, region, p, energy.NonCogenerativa, energy.GeotermoCondens, v.mw})
			}
			geoCapNet[[2]string{strconv.Itoa(year), p}] = net
		}
	}

	// Province weights, fixed over the years.
	provinces := allProvinces()
	pvWeight := map[string]float64{}
	for _, p := range provinces {
		region, _ := energy.RegionOf(p)
		pvWeight[p] = sunFactor(region) * (0.4 + 1.2*rng.Float64())
	}
	bioShare := map[string]float64{}
	for _, p := range provinces {
		bioShare[p] = 0.04 + 0.12*rng.Float64()
	}
	hydricShares := map[string][3]float64{} // Bacino, Fluente, Serbatoio
	for _, p := range provinces {
		b, f, r := 0.2+0.3*rng.Float64(), 0.3+0.4*rng.Float64(), 0.1+0.4*rng.Float64()
		t := b + f + r
		hydricShares[p] = [3]float64{b / t, f / t, r / t}
	}
	allWind, allHydro, geoW, allPV := windProvinces(), hydroProvinces(), geoProvinces(), pvWeight

	for year := ThermoFirstYear; year <= ThermoLastYear; year++ {
		y := strconv.Itoa(year)
		// Only the provinces of the year, Sud Sardegna's plants counted
		// in Cagliari before it existed.
		provinces := provincesIn(year)
		windW, hydroW, pvWeight := foldProvinces(year, allWind), foldProvinces(year, allHydro), foldProvinces(year, allPV)
		hydro, wind, pv, geo, bio := renewableTWh(year)
		windCap, pvCap, hydroCap := capacityGW(year)
		split := func(w map[string]float64, total float64) map[string]float64 {
			t := 0.0
			for _, p := range provinces {
				t += w[p]
			}
			out := map[string]float64{}
			for _, p := range provinces {
				if w[p] > 0 {
					out[p] = total * w[p] / t * (0.96 + 0.08*rng.Float64())
				}
			}
			return out
		}
		// Bioenergies: a share of net thermoelectric production, scaled
		// towards the national figure but never above 60% of it.
		bioRaw, bioT := map[string]float64{}, 0.0
		for _, p := range provinces {
			bioRaw[p] = bioShare[p] * thermoNet[[2]string{y, p}]
			bioT += bioRaw[p]
		}
		bioGWh := map[string]float64{}
		for _, p := range provinces {
			if bioRaw[p] > 0 {
				bioGWh[p] = round(min(bioRaw[p]*bio*1000/bioT, 0.6*thermoNet[[2]string{y, p}]))
			}
		}
		net := map[string]map[string]float64{
			"Bioenergie":        bioGWh,
			"Eolico":            split(windW, wind*1000),
			"Fotovoltaico":      split(pvWeight, pv*1000),
			"Geotermoelettrico": split(geoW, geo*1000),
		}
		// Hydro: the hydric records, whose net values add up per province.
		hydroNet := split(hydroW, hydro*1000)
		idrico, idricoGross := map[string]float64{}, map[string]float64{}
		for _, p := range provinces {
			if hydroNet[p] == 0 {
				continue
			}
			region, _ := energy.RegionOf(p)
			for i, kind := range energy.HydricPlantNames().Values() {
				nv := round(hydroNet[p] * hydricShares[p][i])
				gv := round(nv / (0.985 - 0.01*rng.Float64()))
				s.Hydric = append(s.Hydric,
					ProvinceStat{year, energy.Lorda, region, p, kind, gv},
					ProvinceStat{year, energy.Netta, region, p, kind, nv})
				idrico[p] += nv
				idricoGross[p] += gv
			}
		}
		for p := range idrico {
			idrico[p] = round(idrico[p])
		}
		net["Idrico"] = idrico
		for _, src := range energy.RenewableSourceNames().Values() {
			for _, p := range provinces {
				v := round(net[src][p])
				if v == 0 {
					continue
				}
				region, _ := energy.RegionOf(p)
				g := round(v / (0.97 + 0.02*rng.Float64()))
				if src == "Idrico" {
					g = round(idricoGross[p])
				}
				s.RenewableSources = append(s.RenewableSources,
					ProvinceStat{year, energy.Lorda, region, p, src, g},
					ProvinceStat{year, energy.Netta, region, p, src, v})
			}
		}

		// Efficient power.
		capMW := map[string]map[string]float64{
			"Eolico":       split(windW, windCap*1000),
			"Fotovoltaico": split(pvWeight, pvCap*1000),
			"Idrico":       split(hydroW, hydroCap*1000),
		}
		bioMW, geoMW, termoMW := map[string]float64{}, map[string]float64{}, map[string]float64{}
		for _, p := range provinces {
			yp := [2]string{y, p}
			if b := bioGWh[p]; b > 0 && thermoNet[yp] > 0 {
				bioMW[p] = capNet[yp] * b / thermoNet[yp]
			}
			termoMW[p] = capNet[yp] - bioMW[p]
			geoMW[p] = geoCapNet[yp]
		}
		capMW["Bioenergie"], capMW["Geotermoelettrico"], capMW["Termoelettrico"] = bioMW, geoMW, termoMW
		national := map[string]float64{}
		for _, src := range energy.PlantSourceNames().Values() {
			for _, p := range provinces {
				v := round(capMW[src][p])
				if v <= 0 {
					continue
				}
				region, _ := energy.RegionOf(p)
				g := round(v / (0.96 + 0.02*rng.Float64()))
				s.GenerationPlants = append(s.GenerationPlants,
					ProvinceStat{year, energy.Lorda, region, p, src, g},
					ProvinceStat{year, energy.Netta, region, p, src, v})
				national[src] += v
			}
		}
		for _, t := range [...]struct {
			typ string
			mw  float64
		}{
			{"Thermal", national["Termoelettrico"] + national["Bioenergie"]},
			{"Wind", national["Eolico"]},
			{"Geothermal", national["Geotermoelettrico"]},
			{"Photovoltaic", national["Fotovoltaico"]},
			{"Hydro", national["Idrico"]},
		} {
			s.InstalledCapacity = append(s.InstalledCapacity, NationalStat{year, t.typ, float64(int64(t.mw/10+0.5)) / 100})
		}

		// Net production by region and source.
		byRegion := map[[2]string]float64{}
		for _, r := range s.RenewableSources {
			if r.Year == year && r.Type == energy.Netta {
				byRegion[[2]string{r.Region, r.Kind}] += r.Value
			}
		}
		for _, p := range provinces {
			if t := thermoNet[[2]string{y, p}]; t > 0 {
				region, _ := energy.RegionOf(p)
				byRegion[[2]string{region, "Termoelettrico"}] += t - bioGWh[p]
			}
		}
		for k, v := range byRegion {
			s.EnergyBySource = append(s.EnergyBySource, RegionStat{year, k[0], k[1], round(v)})
		}
	}
	sortProvince := func(a, b ProvinceStat) int {
		return cmp.Or(cmp.Compare(a.Year, b.Year), strings.Compare(a.Region, b.Region), strings.Compare(a.Province, b.Province),
			strings.Compare(a.Kind, b.Kind), strings.Compare(a.Type, b.Type))
	}
	for _, l := range [][]ProvinceStat{s.ThermoHeat, s.RenewableSources, s.Hydric, s.GenerationPlants} {
		slices.SortFunc(l, sortProvince)
	}
	slices.SortFunc(s.EnergyBySource, func(a, b RegionStat) int {
		return cmp.Or(cmp.Compare(a.Year, b.Year), strings.Compare(a.Region, b.Region), strings.Compare(a.Source, b.Source))
	})
	slices.SortFunc(s.ThermoCapacity, func(a, b ThermoCapacity) int {
		return cmp.Or(cmp.Compare(a.Year, b.Year), strings.Compare(a.Region, b.Region), strings.Compare(a.Province, b.Province),
			strings.Compare(a.Category, b.Category), strings.Compare(a.Subcategory, b.Subcategory), strings.Compare(a.CapacityType, b.CapacityType))
	})
	return s
}

// allProvinces returns every province, sorted, so that the seeded draws
// never depend on map order.
func allProvinces() []string { return energy.ProvinceNames().Values() }

func sortedKeys(m map[string]float64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
