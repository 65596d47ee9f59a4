package demo

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// generationSeed fixes the hourly generation demo.
const generationSeed = 0x6e_4e7a_2019

// HourLoad is Italy's mean load over one hour.
type HourLoad struct {
	At int64 // Unix seconds at the start of the hour
	GW float64
}

// GenHour is the energy of one hour (or, from Daily, one day) by type, GWh.
// Pumping is the energy the pumps take, NetImport the net foreign exchange
// (positive when Italy imports); both are non-generation terms of the
// balance.
type GenHour struct {
	At                                                   int64 // Unix seconds at the start of the hour or day
	Thermal, Wind, Geothermal, Photovoltaic, Self, Hydro float64
	Pumping, NetImport                                   float64
}

// minThermalGW is the least thermal output the demo keeps running for
// system stability; when renewables and imports would push it lower, the
// pumps take the surplus.
const minThermalGW = 5

// Generation returns the hourly generation that meets the given hourly
// load: generation plus net imports minus pumping equals the load, hour by
// hour. Photovoltaic output follows the sun's height over central Italy
// (latitude 42°) and the day's cloud cover; wind is a smooth random
// process, stronger in winter; hydro peaks with the snowmelt in late spring
// and follows the load through the day; geothermal is flat; net imports
// are the borders' physical flows (NetImportGW), so that the transmission
// datasets close the balance; pumps run at night, when the sun floods the
// midday and whenever thermal output would fall below minThermalGW;
// self-consumption is 2.5% of the load; thermal plants supply the rest. Each year's photovoltaic, wind, hydro and geothermal energy is
// scaled so that its mean hourly output matches the yearly statistics of
// GenerationStats (renewableTWh). Values are rounded to the kWh.
func Generation(load []HourLoad) []GenHour {
	rng := rand.New(rand.NewPCG(generationSeed, generationSeed>>5))
	rome := energy.Rome()
	out := make([]GenHour, len(load))
	type sums struct{ pv, wind, hydro float64 }
	raw := map[int]*sums{}
	hours := map[int]int{}
	cloud, windAR := 1.0, 0.0
	lastDay := -1
	for i, l := range load {
		t := time.Unix(l.At, 0)
		lt := t.In(rome)
		doy := lt.YearDay()
		if doy != lastDay {
			lastDay = doy
			winter := 0.5 + 0.5*math.Cos(2*math.Pi*float64(doy-15)/365)
			cloud = 1 - (0.15+0.35*winter)*rng.Float64()
		}
		// Sun height: declination, then the hour angle from UTC and longitude 12.5°E.
		decl := 23.44 * math.Pi / 180 * math.Sin(2*math.Pi*float64(284+doy)/365)
		ut := t.UTC()
		solar := float64(ut.Hour()) + 0.5 + 12.5/15
		ha := (solar - 12) * 15 * math.Pi / 180
		lat := 42 * math.Pi / 180
		sinElev := math.Sin(lat)*math.Sin(decl) + math.Cos(lat)*math.Cos(decl)*math.Cos(ha)
		pv := math.Pow(max(sinElev, 0), 1.3) * cloud

		windAR = 0.97*windAR + 0.243*rng.NormFloat64()
		wind := math.Exp(0.6*windAR) * (1 + 0.25*math.Cos(2*math.Pi*float64(doy-15)/365))

		hydro := (1 + 0.35*math.Sin(2*math.Pi*float64(doy-80)/365)) * (0.6 + 0.4*l.GW/35)

		out[i] = GenHour{At: l.At, Photovoltaic: pv, Wind: wind, Hydro: hydro, NetImport: NetImportGW(l.At)}
		y := lt.Year()
		s := raw[y]
		if s == nil {
			s = &sums{}
			raw[y] = s
		}
		s.pv += pv
		s.wind += wind
		s.hydro += hydro
		hours[y]++
	}
	r6 := func(v float64) float64 { return math.Round(v*1e6) / 1e6 }
	for i, l := range load {
		lt := time.Unix(l.At, 0).In(rome)
		y := lt.Year()
		hydroT, windT, pvT, geoT, _ := renewableTWh(y)
		s, n := raw[y], float64(hours[y])
		g := &out[i]
		// TWh a year is 1000/8760 GW on average.
		g.Photovoltaic = r6(g.Photovoltaic * pvT * 1000 / 8760 * n / s.pv)
		g.Wind = r6(g.Wind * windT * 1000 / 8760 * n / s.wind)
		g.Hydro = r6(g.Hydro * hydroT * 1000 / 8760 * n / s.hydro)
		g.Geothermal = r6(geoT * 1000 / 8760 * (0.99 + 0.02*rng.Float64()))
		g.Self = r6(0.025 * l.GW)
		pump := 0.0
		if h := lt.Hour(); h >= 1 && h <= 5 {
			pump = 0.4 + 0.6*rng.Float64()
		}
		if g.Photovoltaic > 0.4*l.GW {
			pump += 0.15 * g.Photovoltaic
		}
		thermal := l.GW + pump - g.NetImport - g.Photovoltaic - g.Wind - g.Hydro - g.Geothermal - g.Self
		if thermal < minThermalGW {
			pump += minThermalGW - thermal
		}
		g.Pumping = r6(pump)
		g.NetImport = r6(g.NetImport)
		// Whatever rounding left over goes to thermal, so that the balance holds to the kWh.
		g.Thermal = r6(l.GW + g.Pumping - g.NetImport - g.Photovoltaic - g.Wind - g.Hydro - g.Geothermal - g.Self)
	}
	return out
}

// Daily sums hours of generation into Europe/Rome days; At is the start of
// each day. Sums are rounded to the kWh.
func Daily(hours []GenHour) []GenHour {
	var out []GenHour
	var cur energy.Date
	for _, h := range hours {
		d := energy.DateOf(time.Unix(h.At, 0))
		if len(out) == 0 || d != cur {
			cur = d
			out = append(out, GenHour{At: d.Start().Unix()})
		}
		o := &out[len(out)-1]
		o.Thermal += h.Thermal
		o.Wind += h.Wind
		o.Geothermal += h.Geothermal
		o.Photovoltaic += h.Photovoltaic
		o.Self += h.Self
		o.Hydro += h.Hydro
		o.Pumping += h.Pumping
		o.NetImport += h.NetImport
	}
	r6 := func(v float64) float64 { return math.Round(v*1e6) / 1e6 }
	for i := range out {
		o := &out[i]
		o.Thermal, o.Wind, o.Geothermal, o.Photovoltaic = r6(o.Thermal), r6(o.Wind), r6(o.Geothermal), r6(o.Photovoltaic)
		o.Self, o.Hydro, o.Pumping, o.NetImport = r6(o.Self), r6(o.Hydro), r6(o.Pumping), r6(o.NetImport)
	}
	return out
}
