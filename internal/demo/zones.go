package demo

import "github.com/energyapi/energyapi/internal/energy"

// zoneParams are the demo's parameters of one bidding zone: where its
// load, generation and capacity stand. The zones' identity (names, codes,
// macrozones) is energy.BiddingZones'; this is the one table of what the
// demo makes of each.
type zoneParams struct {
	zone energy.Zone
	// load is the zone's share of the national load as a relative
	// weight; work and summer adjust it at full weekday activity
	// (industry in the north) and at the height of summer (air
	// conditioning and tourists in the south and the islands).
	load, work, summer float64
	// Shares of each source's national output, percent. They follow the
	// operator's yearly statistics by region, grouped into zones:
	// photovoltaic spread over the North's roofs and the South's fields,
	// wind in Apulia, Campania, Sicily and Sardinia, hydro in the Alps,
	// geothermal only in Tuscany, pumped storage mostly in the Alps with
	// Presenzano (Campania), Anapo (Sicily) and Taloro (Sardinia).
	pv, wind, hydro, geo, pumping float64
	// thermal is where the thermal fleet stands, percent: half of the
	// thermal output runs by it (the South's coal and gas at Brindisi,
	// Taranto and Rossano run whatever the local load), half fills each
	// zone's remaining need.
	thermal float64
	// capacity is the zone's share of Italy's installed capacity, which
	// the demo production units and the Adequacy data split by zone.
	capacity float64
	// offMarket is the share of the zone's total load outside the market
	// perimeter, mostly the self-consumption of industrial sites.
	offMarket float64
}

// zoneTable holds every bidding zone's parameters, in energy.BiddingZones
// order (a test checks that it covers exactly those zones).
var zoneTable = [7]zoneParams{
	//                   load work   summer  pv wind hydro geo pump therm capacity offMarket
	{energy.North, 44, 0.04, -0.02, 42, 1, 77, 0, 70, 50, 0.45, 0.045},
	{energy.CentreNorth, 10, 0.02, 0, 8, 1, 4, 100, 0, 5, 0.08, 0.03},
	{energy.CentreSouth, 15, 0, 0.01, 12, 8, 9, 0, 10, 12, 0.13, 0.03},
	{energy.South, 12, -0.01, 0.06, 20, 50, 3, 0, 0, 15, 0.16, 0.05},
	{energy.Calabria, 2, -0.02, 0.08, 3, 11, 3, 0, 5, 7, 0.06, 0.03},
	{energy.Sicily, 6.5, -0.02, 0.07, 9, 18, 1, 0, 10, 7, 0.08, 0.04},
	{energy.Sardinia, 3, -0.02, 0.12, 6, 11, 3, 0, 5, 4, 0.04, 0.06},
}

// sapeiShare is the part of Sardinia's net exchange that runs over SAPEI
// to Centre-South (1,000 MW); the rest runs over SACOI to Centre-North
// (300 MW), in proportion to the two cables' ratings.
const sapeiShare = 0.75

// BorderZone returns the bidding zone a border's interconnectors land in:
// the Alpine borders in the North, Greece (GRITA, Galatina) in the South,
// Montenegro (MONITA, Villanova) in Centre-South, Malta in Sicily.
func BorderZone(country string) energy.Zone {
	switch country {
	case "Greece":
		return energy.South
	case "Montenegro":
		return energy.CentreSouth
	case "Malta":
		return energy.Sicily
	case energy.Corsica:
		return energy.Sardinia
	}
	return energy.North
}

// ZoneHour is one hour of one system split by bidding zone, GWh, in the
// order of energy.Zones() without Italy.
type ZoneHour struct {
	At                          int64
	Demand, Generation, Pumping [7]float64
	BorderImport                [7]float64 // net physical import across the zone's borders
	Flows                       [7]float64 // MW, per energy.ZoneLinks() in its portal direction
}

// SplitZones splits one hour of national generation over the bidding
// zones and derives the flows between them. demand is the hour's load per
// zone (GWh, summing to the national load g was computed from). The
// weather-driven sources, geothermal and pumping follow the zone shares
// above; thermal and self-consumption run half by the fleet's location
// (zoneTable's thermal) and half to fill each zone's remaining need (demand +
// pumping - local renewables - border imports, where positive), scaled to
// the national thermal output, so that the South and the islands export
// northwards as on the real grid. Flows then follow the
// corridor chain Sicily - Calabria - South - Centre-South - Centre-North -
// North, with Sardinia's exchange split between SAPEI and SACOI: every
// zone balances in the hour as the nation does.
func SplitZones(g GenHour, demand [7]float64) ZoneHour {
	z := ZoneHour{At: g.At, Demand: demand}
	for k, c := range energy.Borders() {
		zi := zoneIndex(BorderZone(c))
		z.BorderImport[zi] += ForeignFlow(k, g.At) / 1000
	}
	var need [7]float64
	var needSum float64
	for i := range need {
		p := &zoneTable[i]
		z.Pumping[i] = g.Pumping * p.pumping / 100
		res := (g.Photovoltaic*p.pv + g.Wind*p.wind + g.Hydro*p.hydro + g.Geothermal*p.geo) / 100
		z.Generation[i] = res
		need[i] = max(0, demand[i]+z.Pumping[i]-res-z.BorderImport[i])
		needSum += need[i]
	}
	rest := g.Thermal + g.Self
	for i := range need {
		fill := zoneTable[i].thermal / 100
		if needSum > 0 {
			fill = need[i] / needSum
		}
		z.Generation[i] += rest * (zoneTable[i].thermal/100 + fill) / 2
	}
	var surplus [7]float64 // MW each zone sends out
	for i := range surplus {
		surplus[i] = 1000 * (z.Generation[i] + z.BorderImport[i] - z.Demand[i] - z.Pumping[i])
	}
	const (
		cn, cs, south, cal, sic, sar = 1, 2, 3, 4, 5, 6
	)
	// ZoneLinks order: CN->N, CS->CN, Sar->CN, Sar->CS, S->CS, Cal->S, Sic->Cal.
	sicCal := surplus[sic]
	calS := sicCal + surplus[cal]
	sCS := calS + surplus[south]
	sarCS := sapeiShare * surplus[sar]
	sarCN := surplus[sar] - sarCS
	csCN := sCS + sarCS + surplus[cs]
	cnN := csCN + sarCN + surplus[cn]
	z.Flows = [7]float64{cnN, csCN, sarCN, sarCS, sCS, calS, sicCal}
	for i := range z.Flows {
		z.Flows[i] = energy.Round(z.Flows[i], 3)
	}
	return z
}

func zoneIndex(z energy.Zone) int {
	for i, x := range energy.Zones() {
		if x == z {
			return i
		}
	}
	return -1
}
