package demo

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// LoadRange returns the days the demo total load is meant to cover, 2019-01-01
// to 2025-12-31: about seven years, as the public deployment keeps.
func LoadRange() (from, to energy.Date) {
	return energy.Date{Year: 2019, Month: time.January, Day: 1}, energy.Date{Year: 2025, Month: time.December, Day: 31}
}

// TotalLoad returns a plausible quarter-hourly total load, with forecast, for
// every bidding zone and Italy and every quarter hour of the Europe/Rome days
// from from to to inclusive (none when from is after to), ordered by instant
// and then as energy.Zones() orders zones. At is in UTC.
//
// The curve follows Italian demand in outline: a national load between about
// 18 and 58 GW with its valley in the small hours; late-morning and early
// evening peaks in winter, afternoon peaks from air conditioning in summer;
// lower Saturdays, lower still Sundays and public holidays; the mid-August
// dip and the Christmas weeks; the 2020 lockdown; and a level that changes a
// little from year to year. Zones take fixed shares of the national load,
// nudged by season and working hours. Each zone's value is rounded to the
// kW and Italy's is the sum of the rounded zones, so the two always agree.
// Forecasts miss by at most 2%.
//
// The result is deterministic: each day's noise comes from a generator
// seeded by the day alone, so a day's values do not depend on the range
// requested.
func TotalLoad(from, to energy.Date) []energy.LoadPoint {
	if from.Compare(to) > 0 {
		return nil
	}
	const quarter = 15 * 60
	quarters := (to.End().Unix() - from.Start().Unix()) / quarter
	pts := make([]energy.LoadPoint, 0, int(quarters)*len(energy.Zones()))
	g := newLoadGen()
	for d := from; d.Compare(to) <= 0; d = d.AddDays(1) {
		pts = g.appendDay(pts, d)
	}
	return pts
}

// loadSeed seeds every day's generator, together with the day's number.
const loadSeed = 0x1ea5_10ad_2019

// yearLevel scales each year's demand, after Italy's yearly consumption.
func yearLevel(y int) float64 {
	switch y {
	case 2019:
		return 1
	case 2020:
		return 0.975 // the lockdown weeks come on top (see lockdown)
	case 2021:
		return 0.99
	case 2022:
		return 0.985
	case 2023:
		return 0.955
	case 2024:
		return 0.97
	case 2025:
		return 0.965
	}
	return 0.97
}

type dayKind int

const (
	weekday dayKind = iota
	saturday
	holiday // Sundays and public holidays
)

// loadGen holds the model's tables and a random source that each day reseeds.
type loadGen struct {
	src        *rand.PCG
	rng        *rand.Rand
	easterYear int
	easter     energy.Date

	// Bidding zones' shares of the national load in the order of
	// energy.Zones(), as relative weights (sums are normalised).
	shares [7]float64
	// Share adjustments at full weekday activity (working hours) and at the
	// height of summer (air conditioning and tourists in the south and the
	// islands).
	work, summer [7]float64

	// Daily shapes: 0 at the day's valley, 1 at its peak, by local hour;
	// values between hours are interpolated. Weekdays in winter peak late in
	// the morning and again with the evening lights; in summer air
	// conditioning carries the peak into the afternoon. Sundays wake late
	// and peak in the evening.
	weekdayWinter, weekdaySummer, sundayWinter, sundaySummer [24]float64
}

func newLoadGen() *loadGen {
	src := rand.NewPCG(0, 0)
	return &loadGen{
		src:           src,
		rng:           rand.New(src),
		shares:        [7]float64{44, 10, 15, 12, 2, 6.5, 3},
		work:          [7]float64{0.04, 0.02, 0, -0.01, -0.02, -0.02, -0.02},
		summer:        [7]float64{-0.02, 0, 0.01, 0.06, 0.08, 0.07, 0.12},
		weekdayWinter: [24]float64{.28, .16, .06, .01, 0, .04, .18, .42, .72, .90, .97, 1, .93, .82, .84, .88, .90, .94, .98, .96, .85, .68, .52, .39},
		weekdaySummer: [24]float64{.34, .20, .09, .03, 0, .01, .10, .30, .55, .74, .85, .92, .95, .94, .97, 1, .99, .95, .90, .85, .80, .76, .66, .50},
		sundayWinter:  [24]float64{.40, .26, .14, .06, .01, 0, .03, .12, .28, .46, .62, .72, .74, .64, .52, .49, .53, .70, .92, 1, .96, .84, .68, .52},
		sundaySummer:  [24]float64{.42, .27, .14, .06, .01, 0, .03, .10, .24, .40, .55, .66, .74, .78, .80, .82, .83, .84, .86, .92, .96, 1, .82, .62},
	}
}

// day is what shapes one day's curve.
type day struct {
	kind       dayKind
	summer     float64 // 0 in winter, 1 at the height of summer
	peakMW     float64
	valleyMW   float64
	shape      [96]float64 // by local quarter hour
	workWeight float64     // 1 on weekdays, less on days off: scales loadGen.work
}

func (g *loadGen) appendDay(pts []energy.LoadPoint, d energy.Date) []energy.LoadPoint {
	// Seeding by the day alone makes a day's values independent of the
	// range requested.
	epoch := energy.Date{Year: 2000, Month: time.January, Day: 1}
	g.src.Seed(loadSeed, uint64(epoch.DaysUntil(d)))
	p := g.plan(d)
	rng := g.rng

	// Noise processes (AR(1)): the national level, each zone's share and
	// each zone's forecast error. Each starts from its stationary spread, so
	// a day's first hours are as noisy as the rest.
	const (
		levelKeep, levelStep       = 0.92, 0.003
		shareKeep, shareStep       = 0.95, 0.003
		forecastKeep, forecastStep = 0.97, 0.0025
		maxForecastErr             = 0.02
	)
	stationary := func(keep, step float64) float64 { return step / math.Sqrt(1-keep*keep) }
	level := rng.NormFloat64() * stationary(levelKeep, levelStep)
	var share, fcErr [7]float64
	for z := range share {
		share[z] = rng.NormFloat64() * stationary(shareKeep, shareStep)
		fcErr[z] = rng.NormFloat64() * stationary(forecastKeep, forecastStep)
	}

	zones := energy.Zones()
	rome := energy.Rome()
	end := d.End().Unix()
	for u := d.Start().Unix(); u < end; u += 15 * 60 {
		h, m, _ := time.Unix(u, 0).In(rome).Clock()
		s := p.shape[h*4+m/15]
		level = levelKeep*level + levelStep*rng.NormFloat64()
		national := softBounds((p.valleyMW + (p.peakMW-p.valleyMW)*s) * (1 + level))

		var w [7]float64
		var sum float64
		for z := range w {
			share[z] = shareKeep*share[z] + shareStep*rng.NormFloat64()
			w[z] = g.shares[z] * (1 + g.work[z]*p.workWeight*s + g.summer[z]*p.summer + share[z])
			sum += w[z]
		}
		at := time.Unix(u, 0).UTC()
		var italy, italyForecast float64
		for z := range w {
			fcErr[z] = forecastKeep*fcErr[z] + forecastStep*rng.NormFloat64()
			mw := round3(national * w[z] / sum)
			fc := round3(mw * (1 + max(-maxForecastErr, min(maxForecastErr, fcErr[z]))))
			italy += mw
			italyForecast += fc
			pts = append(pts, energy.LoadPoint{At: at, Zone: zones[z], TotalMW: mw, ForecastMW: fc})
		}
		pts = append(pts, energy.LoadPoint{At: at, Zone: energy.Italy, TotalMW: round3(italy), ForecastMW: round3(italyForecast)})
	}
	return pts
}

// plan works out the day's kind, level and shape; it draws the day's weather
// from g.rng, so it must run right after seeding.
func (g *loadGen) plan(d energy.Date) day {
	t := time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, time.UTC)
	doy := float64(t.YearDay())
	var p day
	switch {
	case g.isHoliday(d) || t.Weekday() == time.Sunday:
		p.kind = holiday
	case t.Weekday() == time.Saturday:
		p.kind = saturday
	}
	p.summer = math.Exp(-sq((doy - 200) / 40))

	// A weekday's peak in GW: high in winter, highest in July, lowest in
	// spring and autumn.
	peak := 42 + 5*math.Cos(2*math.Pi*(doy-15)/365) + 13*math.Exp(-sq((doy-200)/35))
	peak *= yearLevel(d.Year)
	valley := peak * (0.56 + 0.03*p.summer)

	// Weather: a day a little above or below the season, and heat waves
	// that push summer peaks up.
	weather := 0.02 * g.rng.NormFloat64()
	heat := p.summer * math.Abs(0.025*g.rng.NormFloat64())
	peak *= 1 + weather + heat
	valley *= 1 + weather/2 + heat/2

	peakF, valleyF := 1.0, 1.0
	switch p.kind {
	case saturday:
		peakF, valleyF = 0.86, 0.97
		p.workWeight = 0.4
	case holiday:
		peakF, valleyF = 0.76, 0.92
	default:
		p.workWeight = 1
	}
	if d.Month == time.August {
		// Ferragosto: most of Italy stops for the middle weeks of August.
		k := 0.0
		switch dist := math.Abs(float64(d.Day - 15)); {
		case dist <= 6:
			k = 1
		case dist < 11:
			k = (11 - dist) / 5
		}
		// Days off are low anyway; the dip is in the work that stops.
		dip := 0.22
		switch p.kind {
		case saturday:
			dip = 0.15
		case holiday:
			dip = 0.08
		}
		peakF *= 1 - dip*k
		valleyF *= 1 - 0.10*k
		p.workWeight *= 1 - k
	}
	if christmasWeeks(d) && p.kind != holiday {
		peakF *= 0.9
		valleyF *= 0.97
		p.workWeight *= 0.5
	}
	lp, lv := lockdown(d)
	peakF *= lp
	valleyF *= lv
	p.peakMW = peak * peakF * 1000
	p.valleyMW = valley * valleyF * 1000

	weekdayShape := blend(&g.weekdayWinter, &g.weekdaySummer, p.summer)
	sundayShape := blend(&g.sundayWinter, &g.sundaySummer, p.summer)
	var hourly [24]float64
	switch p.kind {
	case weekday:
		hourly = weekdayShape
	case saturday:
		for h := range hourly {
			hourly[h] = (weekdayShape[h] + sundayShape[h]) / 2
		}
	default:
		hourly = sundayShape
	}
	for q := range p.shape {
		h, f := q/4, float64(q%4)/4
		p.shape[q] = hourly[h]*(1-f) + hourly[(h+1)%24]*f
	}
	return p
}

func blend(winter, summer *[24]float64, s float64) [24]float64 {
	var out [24]float64
	for h := range out {
		out[h] = winter[h]*(1-s) + summer[h]*s
	}
	return out
}

// lockdown returns the factors on peak and valley of Italy's 2020 lockdown:
// strict from 10 March, eased from 4 May, over after 17 May.
func lockdown(d energy.Date) (peak, valley float64) {
	if d.Year != 2020 {
		return 1, 1
	}
	switch md := int(d.Month)*100 + d.Day; {
	case md >= 310 && md < 504:
		return 0.82, 0.92
	case md >= 504 && md <= 517:
		return 0.9, 0.96
	}
	return 1, 1
}

// christmasWeeks reports the working days between Christmas and Epiphany
// that many take off.
func christmasWeeks(d energy.Date) bool {
	return (d.Month == time.December && d.Day >= 24) || (d.Month == time.January && d.Day <= 5)
}

// isHoliday reports Italy's national public holidays.
func (g *loadGen) isHoliday(d energy.Date) bool {
	switch int(d.Month)*100 + d.Day {
	case 101, 106, 425, 501, 602, 815, 1101, 1208, 1225, 1226:
		return true
	}
	if g.easterYear != d.Year {
		g.easterYear, g.easter = d.Year, easterSunday(d.Year)
	}
	return d == g.easter.AddDays(1) // Easter Monday
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

// softBounds keeps the national load (MW) inside 18 to 58 GW without a flat
// top or bottom: values beyond 20 and 54 GW are squeezed smoothly toward the
// limits.
func softBounds(mw float64) float64 {
	const lo, loKnee, hiKnee, hi = 18000.0, 20000.0, 54000.0, 58000.0
	switch {
	case mw < loKnee:
		return loKnee - (loKnee-lo)*math.Tanh((loKnee-mw)/(loKnee-lo))
	case mw > hiKnee:
		return hiKnee + (hi-hiKnee)*math.Tanh((mw-hiKnee)/(hi-hiKnee))
	}
	return mw
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

func sq(x float64) float64 { return x * x }
