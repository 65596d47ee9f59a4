package demo

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// Consumption is one yearly figure of the load statistics: a province's
// consumption in one class of one activity of one sector, GWh. Agricoltura
// and Domestico have no activities: their activity and class repeat the
// sector's name.
type Consumption struct {
	Year             int
	Region, Province string
	Sector           string
	Activity, Class  string
	GWh              float64
}

// MarketShare is a province's consumption on one market (Autoconsumo,
// Mercato libero, Mercato tutelato) in a year, GWh.
type MarketShare struct {
	Year             int
	Region, Province string
	Market           string
	GWh              float64
}

// LoadStats are the demo's yearly load statistics, ThermoFirstYear to
// ThermoLastYear, from the one power system. They agree with each other
// and with the rest of the demo:
//
//   - each month's demand is what the system's total load adds up to
//     (MonthlyDemandGWh), the year's is PublishedDemandTWh;
//   - a region's consumption is its share of the year's demand
//     (RegionDemandShares), split over its provinces by fixed weights, so
//     the consumption of every province, sector, activity and class adds
//     up to the year's demand (grid losses are spread over the users);
//   - industry's manufacturing classes are the IMCEI series of their
//     sectors (IMCEISeries, at the system's monthly demand) summed over the
//     year and both voltages, divided by IMCEICoverage; construction and
//     energy and water are fixed shares of the region's demand;
//   - agriculture, households and services share the rest, services split
//     over their classes by weights that vary a little by region;
//   - the markets split each province's consumption: the protected market
//     shrinking from 30 % in 2015 to 8 % in 2024, self-consumption growing.
type LoadStats struct {
	Monthly     map[int][12]float64 // national demand per month, GWh
	Consumption []Consumption       // sorted by year, region, province, sector, activity, class
	Markets     []MarketShare       // sorted by year, region, province, market
}

// LoadStatsSectors are the sectors of the consumption statistics.
func LoadStatsSectors() []string { return []string{"Agricoltura", "Domestico", "Industria", "Servizi"} }

// industryClass is a class of industry with the activity it belongs to.
type industryClass struct{ activity, class string }

// weightedClass is a class with its weight: within its IMCEI sector, among
// the services, or (otherIndustry) as a share of a region's demand.
type weightedClass struct {
	c industryClass
	w float64
}

// imceiClasses are the industry classes each IMCEI sector
// (energy.IMCEISectorNames order) stands for, with their weights within it.
var imceiClasses = [][]weightedClass{
	{{industryClass{"Manifatturiera non di base", "Alimentare"}, 1}},
	{{industryClass{"Manifatturiera non di base", "Tessile abbigliamento e calzature"}, 0.25},
		{industryClass{"Manifatturiera non di base", "Lavorazione plastica e gomma"}, 0.3},
		{industryClass{"Manifatturiera non di base", "Legno e mobilio"}, 0.15},
		{industryClass{"Manifatturiera non di base", "Altre manifatturiere"}, 0.3}},
	{{industryClass{"Manifatturiera di base", "Cartaria"}, 1}},
	{{industryClass{"Manifatturiera di base", "Materiali da costruzione"}, 1}},
	{{industryClass{"Manifatturiera di base", "Materiali da costruzione"}, 1}},
	{{industryClass{"Manifatturiera di base", "Chimica"}, 1}},
	{{industryClass{"Manifatturiera non di base", "Meccanica"}, 1}},
	{{industryClass{"Manifatturiera di base", "Metalli non ferrosi"}, 1}},
	{{industryClass{"Manifatturiera non di base", "Mezzi di trasporto"}, 1}},
	{{industryClass{"Manifatturiera di base", "Siderurgica"}, 1}},
}

// IMCEIClassesOf returns the industry classes (activity, class) an IMCEI
// sector stands for: the classes whose consumption times IMCEICoverage is
// the sector's IMCEI consumption, summed.
func IMCEIClassesOf(sector string) [][2]string {
	si := slices.Index(energy.IMCEISectorNames().Values(), sector)
	if si < 0 {
		return nil
	}
	var out [][2]string
	for _, ic := range imceiClasses[si] {
		out = append(out, [2]string{ic.c.activity, ic.c.class})
	}
	return out
}

// otherIndustry are industry's classes outside the IMCEI, as shares of a
// region's demand.
var otherIndustry = []weightedClass{
	{industryClass{"Costruzioni", "Costruzioni"}, 0.013},
	{industryClass{"Energia ed acqua", "Estrazione combustibili"}, 0.004},
	{industryClass{"Energia ed acqua", "Raffinazione e cokerie"}, 0.012},
	{industryClass{"Energia ed acqua", "Elettricità e gas"}, 0.022},
	{industryClass{"Energia ed acqua", "Acquedotti"}, 0.018},
}

// serviceClasses are the services' classes and their weights.
var serviceClasses = []weightedClass{
	{industryClass{"Servizi vendibili", "Trasporti"}, 0.06},
	{industryClass{"Servizi vendibili", "Comunicazioni"}, 0.04},
	{industryClass{"Servizi vendibili", "Commercio"}, 0.25},
	{industryClass{"Servizi vendibili", "Alberghi ristoranti e bar"}, 0.12},
	{industryClass{"Servizi vendibili", "Credito ed assicurazioni"}, 0.03},
	{industryClass{"Servizi vendibili", "Altri servizi vendibili"}, 0.30},
	{industryClass{"Servizi non vendibili", "Pubblica amministrazione"}, 0.09},
	{industryClass{"Servizi non vendibili", "Illuminazione pubblica"}, 0.05},
	{industryClass{"Servizi non vendibili", "Altri servizi non vendibili"}, 0.06},
}

// IndustryActivities and IndustryClasses list industry's activities and
// classes; ServiceActivities and ServiceClasses the services'.
func IndustryActivities() []string { return activities(industryClasses()) }
func IndustryClasses() []string    { return classes(industryClasses()) }
func ServiceActivities() []string {
	return activities(weighted(serviceClasses))
}
func ServiceClasses() []string { return classes(weighted(serviceClasses)) }

// Markets are the supply markets of the consumption statistics.
func Markets() []string { return []string{"Autoconsumo", "Mercato libero", "Mercato tutelato"} }

func industryClasses() []industryClass {
	var out []industryClass
	for _, cs := range imceiClasses {
		out = append(out, weighted(cs)...)
	}
	for _, o := range otherIndustry {
		out = append(out, o.c)
	}
	return out
}

func weighted(cs []weightedClass) []industryClass {
	var out []industryClass
	for _, c := range cs {
		out = append(out, c.c)
	}
	return out
}

func activities(cs []industryClass) []string {
	return distinct(cs, func(c industryClass) string { return c.activity })
}

func classes(cs []industryClass) []string {
	return distinct(cs, func(c industryClass) string { return c.class })
}

// distinct returns what name gives for each of cs, sorted, each once.
func distinct(cs []industryClass, name func(industryClass) string) []string {
	var out []string
	for _, c := range cs {
		out = append(out, name(c))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// loadStatsSeed fixes the province weights and regional mixes.
const loadStatsSeed = 0x10ad_57a7_2015

// LoadStats returns the system's yearly load statistics.
func (s System) LoadStats() LoadStats {
	st := LoadStats{Monthly: map[int][12]float64{}}
	m := newLoadModel(s.Seed) // one model for every year: see monthlyDemandGWh
	for y := ThermoFirstYear; y <= ThermoLastYear; y++ {
		st.Monthly[y] = m.monthlyDemandGWh(y)
	}
	base2019 := 0.0
	for _, v := range m.monthlyDemandGWh(2019) {
		base2019 += v / 12
	}
	shares := RegionDemandShares()
	for y := ThermoFirstYear; y <= ThermoLastYear; y++ {
		weights := provinceWeights(y)
		for ri, region := range energy.RegionNames().Values() {
			demand := PublishedDemandTWh(y) * 1000 * shares[region]
			levels := st.Monthly[y]
			for i := range levels {
				levels[i] /= base2019
			}
			uses := regionUses(y, ri, demand, shares[region], levels)
			for _, p := range weights[region] {
				for c, gwh := range uses {
					st.Consumption = append(st.Consumption, Consumption{y, region, p.province, c.sector, c.activity, c.class, gwh * p.w})
				}
				st.Markets = append(st.Markets, provinceMarkets(y, region, p.province, demand*p.w)...)
			}
		}
		if y == ThermoFirstYear { // every year holds about as many
			st.Consumption = slices.Grow(st.Consumption, len(st.Consumption)*(ThermoLastYear-y))
		}
	}
	slices.SortFunc(st.Consumption, func(a, b Consumption) int {
		return cmp.Or(cmp.Compare(a.Year, b.Year), strings.Compare(a.Region, b.Region), strings.Compare(a.Province, b.Province),
			strings.Compare(a.Sector, b.Sector), strings.Compare(a.Activity, b.Activity), strings.Compare(a.Class, b.Class))
	})
	return st
}

// use is a sector's class of an activity.
type use struct{ sector, activity, class string }

// regionUses splits region ri's demand of year y (GWh; its share of
// Italy's) over the sectors' classes: industry's manufacturing from the
// IMCEI series at the months' levels (demand over 2019's monthly mean),
// its other classes as shares of the demand, and the rest over
// agriculture, households and services.
func regionUses(y, ri int, demand, share float64, levels [12]float64) map[use]float64 {
	out := map[use]float64{}
	var industry float64
	for si := range imceiClasses {
		var year float64
		for m := time.January; m <= time.December; m++ {
			at := time.Date(y, m, 1, 0, 0, 0, 0, energy.Rome()).Unix()
			for ti := range 2 {
				gwh, _ := IMCEISeries(at, y, levels[m-1], share, ri, si, ti)
				year += gwh
			}
		}
		for _, ic := range imceiClasses[si] {
			out[use{"Industria", ic.c.activity, ic.c.class}] += year / IMCEICoverage * ic.w
			industry += year / IMCEICoverage * ic.w
		}
	}
	for _, o := range otherIndustry {
		out[use{"Industria", o.c.activity, o.c.class}] = demand * o.w
		industry += demand * o.w
	}
	rest := demand - industry
	agri := rest * 0.035 * (1 + 0.3*Noise(loadStatsSeed, int64(ri), 1))
	home := rest * 0.37 * (1 + 0.1*Noise(loadStatsSeed, int64(ri), 2))
	out[use{"Agricoltura", "Agricoltura", "Agricoltura"}] = agri
	out[use{"Domestico", "Domestico", "Domestico"}] = home
	weights := make([]float64, len(serviceClasses))
	var wsum float64
	for k, sc := range serviceClasses {
		weights[k] = sc.w * (1 + 0.1*Noise(loadStatsSeed, int64(ri), int64(10+k)))
		wsum += weights[k]
	}
	for k, sc := range serviceClasses {
		out[use{"Servizi", sc.c.activity, sc.c.class}] = (rest - agri - home) * weights[k] / wsum
	}
	return out
}

// provinceMarkets splits a province's consumption of year y (GWh) over
// the markets: self-consumption growing from 7 %, the protected market
// shrinking from 30 % in 2015 to about 8 % in 2024, the free market the
// rest.
func provinceMarkets(y int, region, province string, total float64) []MarketShare {
	own := total * (0.07 + 0.002*float64(y-ThermoFirstYear))
	protected := total * (0.30 - 0.024*float64(y-ThermoFirstYear)) * (1 + 0.1*Noise(loadStatsSeed, int64(y), int64(len(province)), 3))
	return []MarketShare{
		{y, region, province, "Autoconsumo", own},
		{y, region, province, "Mercato libero", total - own - protected},
		{y, region, province, "Mercato tutelato", protected},
	}
}

// provinceWeight is a province's share of its region's consumption.
type provinceWeight struct {
	province string
	w        float64
}

// provinceWeights returns, per region, its provinces of year y (sorted) and
// their shares of its consumption: fixed seeded weights, Sud Sardegna's
// held by Cagliari before it existed.
func provinceWeights(y int) map[string][]provinceWeight {
	raw := map[string]float64{}
	for i, p := range allProvinces() {
		raw[p] = 0.5 + 0.5*(Noise(loadStatsSeed, int64(i))+1)
	}
	folded := foldProvinces(y, raw)
	sums := map[string]float64{}
	out := map[string][]provinceWeight{}
	for _, p := range provincesIn(y) {
		region, _ := energy.RegionOf(p)
		sums[region] += folded[p]
		out[region] = append(out[region], provinceWeight{p, folded[p]})
	}
	for region, ps := range out {
		for i := range ps {
			ps[i].w /= sums[region]
		}
	}
	return out
}
