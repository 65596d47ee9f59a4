package demo

import (
	"math"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// LoadRange returns the days the demo data cover by default, 2019-01-01 to
// 2025-12-31: seven whole years, as the public deployment keeps. The end is
// fixed rather than "yesterday" so that the demo data, and every answer a
// test reads from them, are the same on every day they are built.
func LoadRange() (from, to energy.Date) {
	return energy.Date{Year: 2019, Month: time.January, Day: 1}, energy.Date{Year: 2025, Month: time.December, Day: 31}
}

// DefaultSeed is the seed of the demo data `serve --demo` writes.
const DefaultSeed uint64 = 0x1ea5_10ad_2019

// yearlyDemandTWh is Italy's electricity demand ("richiesta di energia
// elettrica sulla rete") of each year, TWh, from the transmission system
// operator's yearly statistics (Terna, "Dati statistici sull'energia
// elettrica in Italia", and its monthly report for December 2024): the
// demo's total load sums to these figures year by year from 2019, and the
// yearly load statistics (2015 to 2024) split them.
func yearlyDemandTWh() map[int]float64 {
	return map[int]float64{2015: 316.9, 2016: 314.3, 2017: 320.5, 2018: 321.9,
		2019: 319.6, 2020: 302.8, 2021: 320.0, 2022: 316.8, 2023: 306.1, 2024: 312.3}
}

// YearlyDemandTWh returns the demand the demo's load calibrates year y
// to, TWh: the published figure, 2019's before 2019 (the load of earlier
// years, which the default demo range does not reach, is 2019's curve) and
// 2024's after 2024.
func YearlyDemandTWh(y int) float64 {
	t := yearlyDemandTWh()
	return t[min(max(y, 2019), 2024)]
}

// PublishedDemandTWh returns Italy's published demand of year y, TWh,
// 2015 to 2024 (the years of the yearly statistics; the nearest of them
// outside): YearlyDemandTWh from 2019.
func PublishedDemandTWh(y int) float64 {
	t := yearlyDemandTWh()
	return t[min(max(y, 2015), 2024)]
}

// MonthlyDemandGWh returns Italy's demand in each month of year y, GWh:
// the system's national load summed month by month, which is what its
// total load for Italy adds up to, scaled to the year's published demand
// (PublishedDemandTWh; the scale is 1 from 2019, where the load is
// calibrated to it).
func (s System) MonthlyDemandGWh(y int) [12]float64 {
	return newLoadModel(s.Seed).monthlyDemandGWh(y)
}

// monthlyDemandGWh is MonthlyDemandGWh on m, whose days' plans and years'
// scales are kept for the next year asked for: each year's scale is a
// year of the model, and a year's first and last days blend with the
// years either side.
func (m *loadModel) monthlyDemandGWh(y int) [12]float64 {
	var out [12]float64
	var sum float64
	last := energy.Date{Year: y, Month: time.December, Day: 31}
	for d := (energy.Date{Year: y, Month: time.January, Day: 1}); d.Compare(last) <= 0; d = d.AddDays(1) {
		m.eachQuarter(d, func(_ int64, mw float64, _ *dayPlan, _ float64) { out[d.Month-1] += mw / 4000 })
	}
	for _, v := range out {
		sum += v
	}
	if scale := PublishedDemandTWh(y) * 1000 / sum; y < 2019 {
		for i := range out {
			out[i] *= scale
		}
	}
	return out
}

// TotalLoad returns the demo total load of the default system (seed
// DefaultSeed); see System.TotalLoad.
func TotalLoad(from, to energy.Date) []energy.LoadPoint {
	return System{Seed: DefaultSeed}.TotalLoad(from, to)
}

// System is the synthetic Italian power system every demo dataset comes
// from. Its only parameter is the seed of its noise: the calibration
// (yearly demand, renewable energy, thermoelectric totals) holds for every
// seed; the weather and the hour-to-hour wiggles change with it.
type System struct {
	Seed uint64
}

// TotalLoad returns the quarter-hourly total load, with its day-ahead
// forecast, of every bidding zone and Italy for every quarter hour of the
// Europe/Rome days from from to to inclusive (none when from is after to),
// ordered by instant and then as energy.Zones() orders zones. At is in UTC.
//
// The national curve is a weekday's peak level for the season (high in
// winter, highest in July's heat, lowest in spring and autumn) times a
// daily shape by kind of day (working day, bridge day, Saturday, Sunday or
// holiday) that moves from the winter's evening peak at 18:00 to the
// summer's afternoon peak, times the day's weather and a small intraday
// wiggle. Holidays (the national ones, Easter Monday, bridge days, the
// Christmas weeks, the mid-August weeks) and the 2020 lockdown lower the
// level. Neighbouring days' curves are blended over the four hours around
// midnight, so the load has no step at midnight. Each year is then scaled
// so that its energy is Italy's published demand (YearlyDemandTWh).
//
// Zones take shares of the national load (zoneTable), nudged by working hours and the
// summer; each zone's value is rounded to the kW and Italy's is the sum of
// the rounded zones, so the two always agree. Forecasts miss by at most 2%.
//
// All noise is a smooth function of the instant and the seed, so a day's
// values do not depend on the range requested.
func (s System) TotalLoad(from, to energy.Date) []energy.LoadPoint {
	if from.Compare(to) > 0 {
		return nil
	}
	const quarter = 15 * 60
	quarters := (to.End().Unix() - from.Start().Unix()) / quarter
	pts := make([]energy.LoadPoint, 0, int(quarters)*len(energy.Zones()))
	m := newLoadModel(s.Seed)
	zones := energy.Zones()
	for d := from; d.Compare(to) <= 0; d = d.AddDays(1) {
		m.eachQuarter(d, func(u int64, national float64, p *dayPlan, hour float64) {
			at := time.Unix(u, 0).UTC()
			var w [7]float64
			var sum float64
			work := m.workCurve(hour)
			for z := range w {
				n := 0.003 * SmoothNoise(m.seed^0x5a4e+uint64(z), float64(u)/7200)
				zp := &zoneTable[z]
				w[z] = zp.load * (1 + zp.work*p.work*work + zp.summer*p.summer + n)
				sum += w[z]
			}
			var italy, italyForecast float64
			common := forecastMiss(m.seed, u)
			for z := range w {
				mw := energy.Round(national*w[z]/sum, 3)
				e := common + 0.02*SmoothNoise(m.seed^0xfc+uint64(z), float64(u)/21600) + 0.01*SmoothNoise(m.seed^0xfd+uint64(z), float64(u)/5400)
				fc := energy.Round(mw*(1+max(-maxForecastMiss, min(maxForecastMiss, e))), 3)
				italy += mw
				italyForecast += fc
				pts = append(pts, energy.LoadPoint{At: at, Zone: zones[z], TotalMW: mw, ForecastMW: fc})
			}
			pts = append(pts, energy.LoadPoint{At: at, Zone: energy.Italy, TotalMW: energy.Round(italy, 3), ForecastMW: energy.Round(italyForecast, 3)})
		})
	}
	return pts
}

// The day-ahead forecast's error, as a fraction of the load: a national
// part shared by every zone (the day's weather forecast missing by a
// smooth ±4.5 % over days, plus ±2.5 % over three hours) and a zone's own
// part (±2 % over six hours, ±1 % over 90 minutes). That gives Italy a
// mean absolute percentage error of about 2 % and the zones 2-3 %, as the
// operator's day-ahead forecasts reach (ENTSO-E's transparency data for
// Italy show a day-ahead MAPE of 1.5-3 %); the error never exceeds
// maxForecastMiss. Both parts are smooth functions of the instant, so the
// forecast is as smooth as the load.
const maxForecastMiss = 0.1

func forecastMiss(seed uint64, u int64) float64 {
	return 0.045*SmoothNoise(seed^0xfa, float64(u)/86400) + 0.025*SmoothNoise(seed^0xfb, float64(u)/10800)
}

// Daily shapes, by local hour, as fractions of the day's weekday peak
// level; values between hours follow a Catmull-Rom spline. They follow the
// operator's published curves: a winter working day rises to a morning
// plateau and peaks with the evening lights around 18:00; a summer
// working day peaks in the afternoon with air conditioning; Sundays wake
// late and stay low.
var (
	shapeWeekdayWinter = [24]float64{.63, .58, .555, .545, .545, .565, .62, .72, .84, .915, .945, .95, .925, .88, .895, .905, .925, .975, 1, .975, .915, .835, .755, .68}
	shapeWeekdaySummer = [24]float64{.70, .645, .605, .58, .57, .57, .60, .68, .79, .875, .925, .955, .97, .975, .99, 1, .99, .97, .94, .905, .87, .85, .815, .76}
	shapeSundayWinter  = [24]float64{.60, .555, .525, .505, .495, .49, .50, .52, .56, .61, .65, .67, .66, .62, .595, .595, .62, .70, .77, .765, .725, .68, .64, .60}
	shapeSundaySummer  = [24]float64{.66, .605, .565, .535, .52, .51, .51, .53, .58, .64, .685, .715, .735, .74, .74, .74, .74, .74, .735, .73, .735, .745, .725, .68}
)

// dayPlan is what shapes one day's curve.
type dayPlan struct {
	level  float64     // the day's weekday peak level, MW, before the yearly scale
	shape  [24]float64 // by local hour, fraction of level
	summer float64     // 0 in winter, 1 at the height of summer
	work   float64     // 1 on working days, less on days off
}

type loadModel struct {
	seed  uint64
	plans map[energy.Date]*dayPlan
	scale map[int]float64 // per year: published demand over the model's energy
}

func newLoadModel(seed uint64) *loadModel {
	return &loadModel{seed: seed, plans: map[energy.Date]*dayPlan{}, scale: map[int]float64{}}
}

// workCurve is how much of the working day's activity is under way at a
// local hour: 0 at night, 1 in office hours.
func (m *loadModel) workCurve(h float64) float64 {
	return math.Max(0, math.Sin(math.Pi*(h-6)/14))
}

// eachQuarter calls fn for every quarter hour of day d with its Unix time,
// Italy's load in MW, the day's plan and the local hour.
func (m *loadModel) eachQuarter(d energy.Date, fn func(u int64, mw float64, p *dayPlan, hour float64)) {
	p := m.plan(d)
	m.eachRaw(d, p, true, func(u int64, mw, h float64) { fn(u, mw, p, h) })
}

// eachRaw calls fn for every quarter hour of day d with its Unix time, the
// model's national load (with or without the yearly scale) and the local
// hour. The
// local hour counts the hours since midnight, so the repeated hour of the
// autumn clock change runs on to 24:45 rather than repeating.
func (m *loadModel) eachRaw(d energy.Date, p *dayPlan, scaled bool, fn func(u int64, mw, h float64)) {
	start, end := d.Start().Unix(), d.End().Unix()
	n := float64(end-start) / 3600
	for u := start; u < end; u += 15 * 60 {
		// Stretch or squeeze the 23- and 25-hour days onto 24 hours of
		// shape, so that the evening and the night stay where they are.
		h := float64(u-start) / 3600 * 24 / n
		fn(u, m.national(d, p, u, h, scaled), h)
	}
}

// national returns the model's national load at Unix time u, hour h of day
// d: the day's curve, blended with the next day's from 22:00 to midnight
// and with the previous day's from midnight to 02:00, so that the curve is
// continuous across midnight. With scaled, each day's curve carries its
// year's scale (yearScale), so New Year's midnight is smooth too.
func (m *loadModel) national(d energy.Date, p *dayPlan, u int64, h float64, scaled bool) float64 {
	at := func(d energy.Date, p *dayPlan, h float64) float64 {
		if scaled {
			return curve(p, h) * m.yearScale(d.Year)
		}
		return curve(p, h)
	}
	v := at(d, p, h)
	switch {
	case h >= 22:
		w := 0.5 * smoothstep((h-22)/2)
		n := d.AddDays(1)
		v = (1-w)*v + w*at(n, m.plan(n), h-24)
	case h < 2:
		w := 0.5 + 0.5*smoothstep(h/2)
		n := d.AddDays(-1)
		v = w*v + (1-w)*at(n, m.plan(n), h+24)
	}
	return v * (1 + 0.007*SmoothNoise(m.seed^0x1e7e1, float64(u)/10800))
}

// curve is a day's plan at local hour h, which may run a little before 0
// or past 24 (the shape wraps round).
func curve(p *dayPlan, h float64) float64 {
	i := int(math.Floor(h))
	f := h - float64(i)
	at := func(k int) float64 { return p.shape[((k%24)+24)%24] }
	return p.level * catmullRom(at(i-1), at(i), at(i+1), at(i+2), f)
}

// yearScale returns the factor that brings year y's energy to its
// published demand, computing the year once.
func (m *loadModel) yearScale(y int) float64 {
	if s, ok := m.scale[y]; ok {
		return s
	}
	first := energy.Date{Year: y, Month: time.January, Day: 1}
	last := energy.Date{Year: y, Month: time.December, Day: 31}
	var mwh float64
	for d := first; d.Compare(last) <= 0; d = d.AddDays(1) {
		m.eachRaw(d, m.plan(d), false, func(_ int64, mw, _ float64) { mwh += mw / 4 })
	}
	s := YearlyDemandTWh(y) * 1e6 / mwh
	m.scale[y] = s
	return s
}

// plan returns day d's plan, computing it once.
func (m *loadModel) plan(d energy.Date) *dayPlan {
	if p, ok := m.plans[d]; ok {
		return p
	}
	p := m.makePlan(d)
	m.plans[d] = p
	return p
}

func (m *loadModel) makePlan(d energy.Date) *dayPlan {
	t := time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, time.UTC)
	doy := float64(t.YearDay())
	day := float64(t.Unix() / 86400)
	p := &dayPlan{work: 1}
	p.summer = math.Exp(-sq((doy - 198) / 42))

	// A working day's peak level in GW: high in winter, highest in July,
	// lowest in spring and autumn.
	level := 44 + 5.5*math.Cos(2*math.Pi*(doy-20)/365) + 15.5*math.Exp(-sq((doy-196)/34))
	// Weather: spells of a few days a little above or below the season,
	// and July's heat waves.
	level *= 1 + 0.02*SmoothNoise(m.seed^0x3ea7, day/4)
	heat := math.Exp(-sq((doy - 198) / 18))
	level *= 1 + 0.04*heat*math.Max(0, SmoothNoise(m.seed^0x4ea7, day/6))

	kind, depth := dayKind(d)
	weekday := blend(&shapeWeekdayWinter, &shapeWeekdaySummer, p.summer)
	sunday := blend(&shapeSundayWinter, &shapeSundaySummer, p.summer)
	switch kind {
	case working:
		p.shape = weekday
	case saturday:
		for h := range p.shape {
			p.shape[h] = 0.52*weekday[h] + 0.48*sunday[h]
		}
		p.work = 0.3
	case bridge:
		for h := range p.shape {
			p.shape[h] = 0.45*weekday[h] + 0.55*sunday[h]
		}
		p.work = 0.3
	default:
		p.shape = sunday
		p.work = 0
	}
	level *= depth
	if d.Month == time.August {
		// Ferragosto: most of Italy stops for the middle weeks of August;
		// the dip is in the work that stops, so days off dip less.
		k := 0.0
		switch dist := math.Abs(float64(d.Day - 15)); {
		case dist <= 5:
			k = 1
		case dist < 12:
			k = (12 - dist) / 7
		}
		dip := 0.16
		if kind != working {
			dip = 0.06
		}
		level *= 1 - dip*k
		p.work *= 1 - k
	}
	if christmasWeeks(d) && kind == working {
		level *= 0.9
		p.work *= 0.5
	}
	level *= lockdown(d, kind == working)
	p.level = level * 1000
	return p
}

type kindOfDay int

const (
	working kindOfDay = iota
	saturday
	bridge  // a working day between a holiday and a weekend, which many take off
	holiday // Sundays and public holidays
)

// dayKind returns the kind of day d and a factor on its level: the
// holidays that empty offices and factories more than a Sunday does
// (Christmas, 15 August, New Year's Day, St Stephen's, Easter) go lower.
func dayKind(d energy.Date) (kindOfDay, float64) {
	switch int(d.Month)*100 + d.Day {
	case 1225:
		return holiday, 0.76
	case 815:
		return holiday, 0.80
	case 101:
		return holiday, 0.88
	case 1226:
		return holiday, 0.9
	}
	easter := easterSunday(d.Year)
	wd := time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, time.UTC).Weekday()
	switch {
	case d == easter:
		return holiday, 0.92
	case d == easter.AddDays(1):
		return holiday, 0.93
	case isHoliday(d), wd == time.Sunday:
		return holiday, 1
	case wd == time.Saturday:
		return saturday, 1
	case wd == time.Monday && isHoliday(d.AddDays(1)), wd == time.Friday && isHoliday(d.AddDays(-1)):
		return bridge, 1
	}
	return working, 1
}

// lockdown returns the factor on the level of Italy's 2020 lockdown:
// strict from 10 March, eased from 4 May, over after 17 May. Working days
// lost most; Sundays were quiet anyway.
func lockdown(d energy.Date, workday bool) float64 {
	if d.Year != 2020 {
		return 1
	}
	md := int(d.Month)*100 + d.Day
	switch {
	case md >= 310 && md < 504 && workday:
		return 0.77
	case md >= 310 && md < 504:
		return 0.92
	case md >= 504 && md <= 517 && workday:
		return 0.88
	case md >= 504 && md <= 517:
		return 0.96
	}
	return 1
}

// christmasWeeks reports the days between Christmas and Epiphany that many
// take off.
func christmasWeeks(d energy.Date) bool {
	return (d.Month == time.December && d.Day >= 24) || (d.Month == time.January && d.Day <= 5)
}

// isHoliday reports Italy's national public holidays: New Year's Day,
// Epiphany, Easter Monday, Liberation Day, Labour Day, Republic Day,
// Assumption (Ferragosto), All Saints, the Immaculate Conception,
// Christmas and St Stephen's Day.
func isHoliday(d energy.Date) bool {
	switch int(d.Month)*100 + d.Day {
	case 101, 106, 425, 501, 602, 815, 1101, 1208, 1225, 1226:
		return true
	}
	return d == easterSunday(d.Year).AddDays(1)
}

// easterSunday returns Western Easter Sunday of year y (the anonymous
// Gregorian algorithm, as in Meeus's Astronomical Algorithms).
func easterSunday(y int) energy.Date {
	a := y % 19
	b, c := y/100, y%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	month := (h + l - 7*m + 114) / 31
	day := (h+l-7*m+114)%31 + 1
	return energy.Date{Year: y, Month: time.Month(month), Day: day}
}

func blend(winter, summer *[24]float64, s float64) [24]float64 {
	var out [24]float64
	for h := range out {
		out[h] = winter[h]*(1-s) + summer[h]*s
	}
	return out
}

// catmullRom interpolates between b (f=0) and c (f=1), a and d being the
// knots before and after: a smooth curve through every knot.
func catmullRom(a, b, c, d, f float64) float64 {
	return b + 0.5*f*(c-a+f*(2*a-5*b+4*c-d+f*(3*(b-c)+d-a)))
}

func smoothstep(x float64) float64 { return x * x * (3 - 2*x) }

func sq(x float64) float64 { return x * x }
