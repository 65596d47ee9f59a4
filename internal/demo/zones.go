package demo

import "github.com/energyapi/energyapi/internal/energy"

// Shares of each source's national output by bidding zone, in the order of
// energy.Zones() (North, Centre-North, Centre-South, South, Calabria,
// Sicily, Sardinia), in percent. They follow the operator's yearly
// statistics by region, grouped into zones: photovoltaic spread over the
// North's roofs and the South's fields, wind in Apulia, Campania, Sicily
// and Sardinia, hydro in the Alps, geothermal only in Tuscany, pumped
// storage mostly in the Alps with Presenzano (Campania), Anapo (Sicily)
// and Taloro (Sardinia).
var (
	zonePV      = [7]float64{42, 8, 12, 20, 3, 9, 6}
	zoneWind    = [7]float64{1, 1, 8, 50, 11, 18, 11}
	zoneHydro   = [7]float64{77, 4, 9, 3, 3, 1, 3}
	zoneGeo     = [7]float64{0, 100, 0, 0, 0, 0, 0}
	zonePumping = [7]float64{70, 0, 10, 0, 5, 10, 5}
	// zoneThermal is where the thermal fleet stands: half of the thermal
	// output runs by it (the South's coal and gas at Brindisi, Taranto
	// and Rossano run whatever the local load), half fills each zone's
	// remaining need.
	zoneThermal = [7]float64{50, 5, 12, 15, 7, 7, 4}
)

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
// (zoneThermal) and half to fill each zone's remaining need (demand +
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
		z.Pumping[i] = g.Pumping * zonePumping[i] / 100
		res := (g.Photovoltaic*zonePV[i] + g.Wind*zoneWind[i] + g.Hydro*zoneHydro[i] + g.Geothermal*zoneGeo[i]) / 100
		z.Generation[i] = res
		need[i] = max(0, demand[i]+z.Pumping[i]-res-z.BorderImport[i])
		needSum += need[i]
	}
	rest := g.Thermal + g.Self
	for i := range need {
		fill := zoneThermal[i] / 100
		if needSum > 0 {
			fill = need[i] / needSum
		}
		z.Generation[i] += rest * (zoneThermal[i]/100 + fill) / 2
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
