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
//     production minus bioenergies; per province, gross and net
//     (ProductionBySource), Termoelettrico is the whole thermoelectric
//     production and Bioenergie is not listed;
//   - standalone storage (Accumulo stand alone) has efficient power from
//     2023 (accumuloMW), counted in no installed-capacity type;
//   - installed capacity is the national sum of the net efficient power, in
//     GW: Thermal is Termoelettrico plus Bioenergie.
type Stats struct {
	ThermoCapacity   []ThermoCapacity
	ThermoHeat       []ProvinceStat // Kind: cogeneration plant, GWh
	RenewableSources []ProvinceStat // Kind: renewable source, GWh
	Hydric           []ProvinceStat // Kind: hydric plant, GWh
	GenerationPlants []ProvinceStat // Kind: source, MW
	EnergyBySource   []RegionStat   // GWh, net
	// ProductionBySource is electrical-energy-by-source's: gross and net
	// production by province and source, GWh, Termoelettrico including
	// the bioenergies, as that page lists no Bioenergie.
	ProductionBySource []ProvinceStat
	InstalledCapacity  []NationalStat // GW, net
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
	g := &statsGen{rng: rand.New(rand.NewPCG(statsSeed, statsSeed>>9))}
	// Every step draws from the one seeded generator, so the order of the
	// steps (and of the draws within them) is part of the demo's data.
	g.thermoCapacity(thermoRecords())
	g.geothermalCapacity()
	g.provinceWeights()
	for year := ThermoFirstYear; year <= ThermoLastYear; year++ {
		y := g.newYear(year)
		y.renewables()
		y.plants()
		y.energyBySource()
		y.productionBySource()
	}
	sortStats(&g.s)
	return g.s
}

// statsGen holds what the steps of GenerationStats share: the seeded
// generator, the statistics built so far, and the figures by year and
// province that later steps derive from.
type statsGen struct {
	rng *rand.Rand
	s   Stats

	thermoNet   map[[2]string]float64 // year|province -> net thermoelectric GWh
	thermoGross map[[2]string]float64 // year|province -> gross thermoelectric GWh
	capNet      map[[2]string]float64 // year|province -> net thermoelectric MW (geothermal excluded)
	geoCapNet   map[[2]string]float64 // year|province -> net geothermal MW

	// Province weights, fixed over the years.
	pvWeight     map[string]float64
	bioShare     map[string]float64
	hydricShares map[string][3]float64 // Bacino, Fluente, Serbatoio
}

// statsRound rounds a production to the MWh, a capacity to the kW.
func statsRound(v float64) float64 { return energy.Round(v, 3) }

// thermoCapacity sizes each province's thermoelectric capacity from the
// average gross production over the years a record exists, derives the
// cogeneration plants' heat from their production, and sums the net
// thermoelectric production and capacity by year and province.
func (g *statsGen) thermoCapacity(thermo []thermoRecord) {
	type tkey struct{ province, category, subcategory string }
	sum, n := map[tkey]float64{}, map[tkey]int{}
	netShare := map[tkey]float64{}
	for _, r := range thermo {
		if r.CapacityType == energy.Lorda {
			k := tkey{r.Province, r.Category, r.Subcategory}
			sum[k] += r.ProductionGWh
			n[k]++
			if _, ok := netShare[k]; !ok {
				netShare[k] = 0.95 + 0.03*g.rng.Float64()
			}
		}
	}
	g.thermoNet, g.thermoGross, g.capNet = map[[2]string]float64{}, map[[2]string]float64{}, map[[2]string]float64{}
	for _, r := range thermo {
		yp := [2]string{strconv.Itoa(r.Year), r.Province}
		if r.CapacityType == energy.Netta {
			g.thermoNet[yp] += r.ProductionGWh
			continue
		}
		g.thermoGross[yp] += r.ProductionGWh
		k := tkey{r.Province, r.Category, r.Subcategory}
		sub := r.Subcategory
		if sub == "Celle a combustibile" {
			sub = energy.CelleCombustibili
		}
		gross := statsRound(sum[k] / float64(n[k]) * 1000 / (8760 * capacityFactor(r.Subcategory)) * (1 + 0.02*(g.rng.Float64()-0.5)))
		net := statsRound(gross * netShare[k])
		g.addCapacity(r.Year, r.Region, r.Province, r.Category, sub, gross, net)
		g.capNet[yp] += net
		if h := heatRatio(r.Subcategory); h > 0 {
			g.s.ThermoHeat = append(g.s.ThermoHeat, ProvinceStat{r.Year, "", r.Region, r.Province, r.Subcategory,
				statsRound(r.ProductionGWh * h * (0.9 + 0.2*g.rng.Float64()))})
		}
	}
}

// addCapacity adds the gross and the net capacity of a kind of
// thermoelectric plant in a province.
func (g *statsGen) addCapacity(year int, region, province, category, sub string, gross, net float64) {
	g.s.ThermoCapacity = append(g.s.ThermoCapacity,
		ThermoCapacity{year, energy.Lorda, region, province, category, sub, gross},
		ThermoCapacity{year, energy.Netta, region, province, category, sub, net})
}

// geothermalCapacity adds the geothermal condensing plants, split by the
// weights of geothermal production.
func (g *statsGen) geothermalCapacity() {
	g.geoCapNet = map[[2]string]float64{}
	for year := ThermoFirstYear; year <= ThermoLastYear; year++ {
		for _, p := range sortedKeys(geoProvinces()) {
			region, _ := energy.RegionOf(p)
			gross := statsRound(870 * geoProvinces()[p] / 100)
			net := statsRound(gross * 0.89)
			g.addCapacity(year, region, p, energy.NonCogenerativa, energy.GeotermoCondens, gross, net)
			g.geoCapNet[[2]string{strconv.Itoa(year), p}] = net
		}
	}
}

// provinceWeights draws the weights of the provinces that stay fixed over
// the years: photovoltaic (sunnier in the south), the bioenergy share of
// thermoelectric production, and the split of hydro between kinds of plant.
func (g *statsGen) provinceWeights() {
	provinces := allProvinces()
	g.pvWeight = map[string]float64{}
	for _, p := range provinces {
		region, _ := energy.RegionOf(p)
		g.pvWeight[p] = sunFactor(region) * (0.4 + 1.2*g.rng.Float64())
	}
	g.bioShare = map[string]float64{}
	for _, p := range provinces {
		g.bioShare[p] = 0.04 + 0.12*g.rng.Float64()
	}
	g.hydricShares = map[string][3]float64{}
	for _, p := range provinces {
		b, f, r := 0.2+0.3*g.rng.Float64(), 0.3+0.4*g.rng.Float64(), 0.1+0.4*g.rng.Float64()
		t := b + f + r
		g.hydricShares[p] = [3]float64{b / t, f / t, r / t}
	}
}

// statsYear builds the statistics of one year.
type statsYear struct {
	*statsGen
	year int
	y    string // year, as the maps by year and province key it

	// provinces are the provinces of the year, and the weights are folded
	// into them: Sud Sardegna's plants count in Cagliari before it existed.
	provinces          []string
	windW, hydroW, pvW map[string]float64
	bioGWh             map[string]float64 // net bioenergy production by province
}

func (g *statsGen) newYear(year int) *statsYear {
	return &statsYear{
		statsGen:  g,
		year:      year,
		y:         strconv.Itoa(year),
		provinces: provincesIn(year),
		windW:     foldProvinces(year, windProvinces()),
		hydroW:    foldProvinces(year, hydroProvinces()),
		pvW:       foldProvinces(year, g.pvWeight),
	}
}

// split splits a national total between the year's provinces by weight,
// each share perturbed by a few percent.
func (y *statsYear) split(w map[string]float64, total float64) map[string]float64 {
	t := 0.0
	for _, p := range y.provinces {
		t += w[p]
	}
	out := map[string]float64{}
	for _, p := range y.provinces {
		if w[p] > 0 {
			out[p] = total * w[p] / t * (0.96 + 0.08*y.rng.Float64())
		}
	}
	return out
}

// renewables adds the year's renewable production by province and source,
// and the hydric records that make up hydro's.
func (y *statsYear) renewables() {
	hydro, wind, pv, geo, bio := renewableTWh(y.year)
	y.bioGWh = y.bioenergies(bio)
	net := map[string]map[string]float64{
		"Bioenergie":        y.bioGWh,
		"Eolico":            y.split(y.windW, wind*1000),
		"Fotovoltaico":      y.split(y.pvW, pv*1000),
		"Geotermoelettrico": y.split(geoProvinces(), geo*1000),
	}
	idrico, idricoGross := y.hydric(y.split(y.hydroW, hydro*1000))
	net["Idrico"] = idrico
	for _, src := range energy.RenewableSourceNames().Values() {
		for _, p := range y.provinces {
			v := statsRound(net[src][p])
			if v == 0 {
				continue
			}
			region, _ := energy.RegionOf(p)
			g := statsRound(v / (0.97 + 0.02*y.rng.Float64()))
			if src == "Idrico" {
				g = statsRound(idricoGross[p])
			}
			y.s.RenewableSources = append(y.s.RenewableSources,
				ProvinceStat{y.year, energy.Lorda, region, p, src, g},
				ProvinceStat{y.year, energy.Netta, region, p, src, v})
		}
	}
}

// bioenergies returns the net bioenergy production by province: a share of
// its net thermoelectric production (bioenergies burn in thermoelectric
// plants), scaled towards the national figure, bioTWh, but never above 60%
// of it.
func (y *statsYear) bioenergies(bioTWh float64) map[string]float64 {
	raw, total := map[string]float64{}, 0.0
	for _, p := range y.provinces {
		raw[p] = y.bioShare[p] * y.thermoNet[[2]string{y.y, p}]
		total += raw[p]
	}
	out := map[string]float64{}
	for _, p := range y.provinces {
		if raw[p] > 0 {
			out[p] = statsRound(min(raw[p]*bioTWh*1000/total, 0.6*y.thermoNet[[2]string{y.y, p}]))
		}
	}
	return out
}

// hydric adds the year's hydric records, splitting each province's net
// hydro production between the kinds of plant, and returns the net and
// gross hydro production by province as the records add them up.
func (y *statsYear) hydric(hydroNet map[string]float64) (net, gross map[string]float64) {
	net, gross = map[string]float64{}, map[string]float64{}
	for _, p := range y.provinces {
		if hydroNet[p] == 0 {
			continue
		}
		region, _ := energy.RegionOf(p)
		for i, kind := range energy.HydricPlantNames().Values() {
			nv := statsRound(hydroNet[p] * y.hydricShares[p][i])
			gv := statsRound(nv / (0.985 - 0.01*y.rng.Float64()))
			y.s.Hydric = append(y.s.Hydric,
				ProvinceStat{y.year, energy.Lorda, region, p, kind, gv},
				ProvinceStat{y.year, energy.Netta, region, p, kind, nv})
			net[p] += nv
			gross[p] += gv
		}
	}
	for p := range net {
		net[p] = statsRound(net[p])
	}
	return net, gross
}

// plants adds the year's generation plants (efficient power by province
// and source) and the national installed capacity they add up to.
// Termoelettrico is the thermoelectric capacity less the bioenergy plants',
// so that the sources add up to the country's.
func (y *statsYear) plants() {
	windCap, pvCap, hydroCap := capacityGW(y.year)
	capMW := map[string]map[string]float64{
		"Eolico":       y.split(y.windW, windCap*1000),
		"Fotovoltaico": y.split(y.pvW, pvCap*1000),
		"Idrico":       y.split(y.hydroW, hydroCap*1000),
	}
	bioMW, geoMW, termoMW := map[string]float64{}, map[string]float64{}, map[string]float64{}
	for _, p := range y.provinces {
		yp := [2]string{y.y, p}
		if b := y.bioGWh[p]; b > 0 && y.thermoNet[yp] > 0 {
			bioMW[p] = y.capNet[yp] * b / y.thermoNet[yp]
		}
		termoMW[p] = y.capNet[yp] - bioMW[p]
		geoMW[p] = y.geoCapNet[yp]
	}
	capMW["Bioenergie"], capMW["Geotermoelettrico"], capMW["Termoelettrico"] = bioMW, geoMW, termoMW
	national := map[string]float64{}
	for _, src := range energy.PlantSourceNames().Values() {
		for _, p := range y.provinces {
			v := statsRound(capMW[src][p])
			if v <= 0 {
				continue
			}
			region, _ := energy.RegionOf(p)
			g := statsRound(v / (0.96 + 0.02*y.rng.Float64()))
			y.s.GenerationPlants = append(y.s.GenerationPlants,
				ProvinceStat{y.year, energy.Lorda, region, p, src, g},
				ProvinceStat{y.year, energy.Netta, region, p, src, v})
			national[src] += v
		}
	}
	y.storage()
	y.installedCapacity(national)
}

// accumuloMW is Italy's net efficient power of standalone storage, MW, in
// the years generation-plants lists it (from 2023); zero before.
func accumuloMW(year int) float64 {
	switch {
	case year < 2023:
		return 0
	case year == 2023:
		return 120
	}
	return 700
}

// storage adds the year's standalone storage to generation plants, split
// between the provinces by photovoltaic's weights, which it follows. It
// draws nothing from the seeded generator, so that the other statistics
// stay as they were before storage was listed.
func (y *statsYear) storage() {
	total := accumuloMW(y.year)
	if total == 0 {
		return
	}
	t := 0.0
	for _, p := range y.provinces {
		t += y.pvW[p]
	}
	for _, p := range y.provinces {
		v := statsRound(total * y.pvW[p] / t)
		if v <= 0 {
			continue
		}
		region, _ := energy.RegionOf(p)
		y.s.GenerationPlants = append(y.s.GenerationPlants,
			ProvinceStat{y.year, energy.Lorda, region, p, energy.AccumuloStandAlone, statsRound(v / 0.98)},
			ProvinceStat{y.year, energy.Netta, region, p, energy.AccumuloStandAlone, v})
	}
}

// installedCapacity adds the year's national installed capacity, GW, from
// the net efficient power by source, MW: Thermal is Termoelettrico plus
// Bioenergie.
func (y *statsYear) installedCapacity(national map[string]float64) {
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
		y.s.InstalledCapacity = append(y.s.InstalledCapacity, NationalStat{y.year, t.typ, float64(int64(t.mw/10+0.5)) / 100})
	}
}

// energyBySource adds the year's net production by region and source: the
// renewable sources, and Termoelettrico as net thermoelectric production
// minus bioenergies.
func (y *statsYear) energyBySource() {
	byRegion := map[[2]string]float64{}
	for _, r := range y.s.RenewableSources {
		if r.Year == y.year && r.Type == energy.Netta {
			byRegion[[2]string{r.Region, r.Kind}] += r.Value
		}
	}
	for _, p := range y.provinces {
		if t := y.thermoNet[[2]string{y.y, p}]; t > 0 {
			region, _ := energy.RegionOf(p)
			byRegion[[2]string{region, "Termoelettrico"}] += t - y.bioGWh[p]
		}
	}
	for k, v := range byRegion {
		y.s.EnergyBySource = append(y.s.EnergyBySource, RegionStat{y.year, k[0], k[1], statsRound(v)})
	}
}

// productionBySource adds the year's gross and net production by province
// and source as electrical-energy-by-source lists them: the renewable
// sources but Bioenergie as renewable-sources-production has them, and
// Termoelettrico as the whole thermoelectric production.
func (y *statsYear) productionBySource() {
	for _, r := range y.s.RenewableSources {
		if r.Year == y.year && r.Kind != "Bioenergie" {
			y.s.ProductionBySource = append(y.s.ProductionBySource, r)
		}
	}
	for _, p := range y.provinces {
		yp := [2]string{y.y, p}
		if y.thermoNet[yp] <= 0 {
			continue
		}
		region, _ := energy.RegionOf(p)
		y.s.ProductionBySource = append(y.s.ProductionBySource,
			ProvinceStat{y.year, energy.Lorda, region, p, "Termoelettrico", statsRound(y.thermoGross[yp])},
			ProvinceStat{y.year, energy.Netta, region, p, "Termoelettrico", statsRound(y.thermoNet[yp])})
	}
}

// sortStats sorts the statistics by year and then by their text fields.
func sortStats(s *Stats) {
	sortProvince := func(a, b ProvinceStat) int {
		return cmp.Or(cmp.Compare(a.Year, b.Year), strings.Compare(a.Region, b.Region), strings.Compare(a.Province, b.Province),
			strings.Compare(a.Kind, b.Kind), strings.Compare(a.Type, b.Type))
	}
	for _, l := range [][]ProvinceStat{s.ThermoHeat, s.RenewableSources, s.Hydric, s.GenerationPlants, s.ProductionBySource} {
		slices.SortFunc(l, sortProvince)
	}
	slices.SortFunc(s.EnergyBySource, func(a, b RegionStat) int {
		return cmp.Or(cmp.Compare(a.Year, b.Year), strings.Compare(a.Region, b.Region), strings.Compare(a.Source, b.Source))
	})
	slices.SortFunc(s.ThermoCapacity, func(a, b ThermoCapacity) int {
		return cmp.Or(cmp.Compare(a.Year, b.Year), strings.Compare(a.Region, b.Region), strings.Compare(a.Province, b.Province),
			strings.Compare(a.Category, b.Category), strings.Compare(a.Subcategory, b.Subcategory), strings.Compare(a.CapacityType, b.CapacityType))
	})
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
