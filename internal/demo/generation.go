package demo

import (
	"math"
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
// pumps take the surplus up to maxPumpingGW, and beyond that photovoltaic
// and then wind output are curtailed.
const (
	minThermalGW = 5
	maxPumpingGW = 7 // Italy's pumped-storage plants take about 7.6 GW
)

// weather is the raw, unscaled output of the weather-driven sources in the
// hour starting at u: photovoltaic from the sun's height over central
// Italy (latitude 42°) and the day's cloud cover, wind as smooth noise of
// a few octaves (stronger in winter), hydro with the snowmelt in late
// spring and a daily profile that follows the load's. Every value is a
// function of u and the seed alone.
func weather(seed uint64, u int64, rome *time.Location) (pv, wind, hydro float64) {
	t := time.Unix(u, 0)
	lt := t.In(rome)
	doy := lt.YearDay()
	day := float64(u) / 86400
	winter := 0.5 + 0.5*math.Cos(2*math.Pi*float64(doy-15)/365)
	// Clouds: a day's cover, joined smoothly to the next day's.
	cloud := 1 - (0.15+0.35*winter)*(0.5+0.5*SmoothNoise(seed^0xc10d, day))
	// Sun height: declination, then the hour angle from UTC and longitude 12.5°E.
	decl := 23.44 * math.Pi / 180 * math.Sin(2*math.Pi*float64(284+doy)/365)
	solar := float64(t.UTC().Hour()) + 0.5 + 12.5/15
	ha := (solar - 12) * 15 * math.Pi / 180
	lat := 42 * math.Pi / 180
	sinElev := math.Sin(lat)*math.Sin(decl) + math.Cos(lat)*math.Cos(decl)*math.Cos(ha)
	pv = math.Pow(max(sinElev, 0), 1.3) * cloud

	h := float64(u) / 3600
	n := 0.6*SmoothNoise(seed^0x317d, h/30) + 0.3*SmoothNoise(seed^0x317e, h/8) + 0.1*SmoothNoise(seed^0x317f, h/2)
	wind = math.Exp(1.4*n) * (1 + 0.25*math.Cos(2*math.Pi*float64(doy-15)/365))

	lh := float64(lt.Hour())
	profile := 0.75 + 0.25*math.Max(0, math.Sin(math.Pi*(lh-6)/16)) + 0.1*math.Exp(-sq((lh-19)/2))
	hydro = (1 + 0.35*math.Sin(2*math.Pi*float64(doy-80)/365)) * profile
	return pv, wind, hydro
}

// Generation returns the hourly generation that meets the given hourly
// load: generation plus net imports minus pumping equals the load, hour by
// hour. Photovoltaic, wind and hydro follow the weather (weather), each
// scaled so that a whole year of it gives the year's published energy
// (renewableTWh, which GenerationStats uses too); geothermal is flat; net
// imports are the borders' physical flows (NetImportGW), so that the
// transmission datasets close the balance; pumps run at night and take the
// surplus when thermal output would fall below minThermalGW;
// self-consumption is 2.5% of the load; thermal plants supply the rest.
// Values are rounded to the kWh. Every hour's values depend on the hour,
// its load and the seed alone, not on the range asked for.
func Generation(load []HourLoad, seed uint64) []GenHour {
	seed ^= generationSeed
	rome := energy.Rome()
	type sums struct{ pv, wind, hydro, hours float64 }
	years := map[int]sums{}
	// yearSums returns the raw output of a whole year, for its scale.
	yearSums := func(y int) sums {
		if s, ok := years[y]; ok {
			return s
		}
		var s sums
		end := time.Date(y+1, time.January, 1, 0, 0, 0, 0, rome).Unix()
		for u := time.Date(y, time.January, 1, 0, 0, 0, 0, rome).Unix(); u < end; u += 3600 {
			pv, wind, hydro := weather(seed, u, rome)
			s.pv, s.wind, s.hydro, s.hours = s.pv+pv, s.wind+wind, s.hydro+hydro, s.hours+1
		}
		years[y] = s
		return s
	}
	r6 := func(v float64) float64 { return math.Round(v*1e6) / 1e6 }
	out := make([]GenHour, len(load))
	for i, l := range load {
		lt := time.Unix(l.At, 0).In(rome)
		y := lt.Year()
		hydroT, windT, pvT, geoT, _ := renewableTWh(y)
		s := yearSums(y)
		pv, wind, hydro := weather(seed, l.At, rome)
		g := &out[i]
		g.At = l.At
		// TWh a year is 1000/8760 GW on average.
		g.Photovoltaic = pv * pvT * 1000 / 8760 * s.hours / s.pv
		g.Wind = wind * windT * 1000 / 8760 * s.hours / s.wind
		g.Hydro = hydro * hydroT * 1000 / 8760 * s.hours / s.hydro
		g.Geothermal = r6(geoT * 1000 / 8760 * (0.99 + 0.02*(0.5+0.5*Noise(seed^0x6e0, l.At))))
		g.Self = r6(0.025 * l.GW)
		g.NetImport = r6(NetImportGW(l.At))
		pump := 0.0
		if h := lt.Hour(); h >= 1 && h <= 5 {
			pump = 0.7 + 0.3*Noise(seed^0x9a4b, l.At)
		}
		surplus := minThermalGW - (l.GW + pump - g.NetImport - g.Photovoltaic - g.Wind - g.Hydro - g.Geothermal - g.Self)
		if surplus > 0 {
			extra := min(surplus, maxPumpingGW-pump)
			pump += extra
			surplus -= extra
			cut := min(surplus, g.Photovoltaic)
			g.Photovoltaic -= cut
			g.Wind -= min(surplus-cut, g.Wind)
		}
		g.Photovoltaic, g.Wind, g.Hydro = r6(g.Photovoltaic), r6(g.Wind), r6(g.Hydro)
		g.Pumping = r6(pump)
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
