package energy

import (
	"fmt"
	"math"
)

// DeriveDay returns the peak (maximum) and valley (minimum) of Italy's total
// load over day from pts, which may hold any zones in any order; points outside
// the day are ignored. At each instant Italy's own value is used when present,
// otherwise the sum of the seven bidding zones when all seven are present;
// instants with neither are skipped. Ties go to the earliest instant. ok is
// false when no instant of the day qualifies.
func DeriveDay(day Date, pts []LoadPoint) (ext DayExtremes, ok bool) {
	start, end := day.Start().Unix(), day.End().Unix()
	type instant struct {
		italy    float64
		hasItaly bool
		sum      float64
		zones    uint8 // bit per bidding zone seen
	}
	at := make(map[int64]*instant, 100)
	for _, p := range pts {
		u := p.At.Unix()
		if u < start || u >= end || math.IsNaN(p.TotalMW) {
			continue
		}
		in := at[u]
		if in == nil {
			in = &instant{}
			at[u] = in
		}
		if p.Zone == Italy {
			in.italy, in.hasItaly = p.TotalMW, true
			continue
		}
		if bit := zoneBit(p.Zone); bit != 0 && in.zones&bit == 0 {
			in.zones |= bit
			in.sum += p.TotalMW
		}
	}
	var peakU, valleyU int64
	var peak, valley float64
	for u, in := range at {
		var mw float64
		switch {
		case in.hasItaly:
			mw = in.italy
		case in.zones == allZones:
			mw = in.sum
		default:
			continue
		}
		if !ok || mw > peak || (mw == peak && u < peakU) {
			peak, peakU = mw, u
		}
		if !ok || mw < valley || (mw == valley && u < valleyU) {
			valley, valleyU = mw, u
		}
		ok = true
	}
	if !ok {
		return DayExtremes{}, false
	}
	return DayExtremes{
		Day:    day,
		Peak:   Extreme{At: unixIn(peakU), GW: peak / 1000},
		Valley: Extreme{At: unixIn(valleyU), GW: valley / 1000},
	}, true
}

// allZones is the set of all seven bidding zones, as zoneBit's bits.
const allZones = 1<<len(biddingZones) - 1

// zoneBit is z's bit in a set of the seven bidding zones (the bit of its
// row in biddingZones), or 0 for Italy and any other zone.
func zoneBit(z Zone) uint8 {
	for i, b := range biddingZones {
		if b.Zone == z {
			return 1 << i
		}
	}
	return 0
}

// CheckDay reports whether pts (any zones, any order) hold a complete day of
// load from one source: Italy's own value at every quarter hour of the
// Europe/Rome day (92, 96 or 100 of them), or all seven bidding zones at
// every quarter hour. It returns why not otherwise: quarter hours missing,
// or Italy's values and zone sums mixed within the day. A day that is not
// complete has no derived peak and valley, which would describe part of it.
func CheckDay(day Date, pts []LoadPoint) (ok bool, why string) {
	start, end := day.Start().Unix(), day.End().Unix()
	quarters := int((end - start) / 900)
	italy := map[int64]bool{}
	zones := map[int64]uint8{}
	for _, p := range pts {
		u := p.At.Unix()
		if u < start || u >= end || math.IsNaN(p.TotalMW) {
			continue
		}
		if p.Zone == Italy {
			italy[u] = true
		} else if bit := zoneBit(p.Zone); bit != 0 {
			zones[u] |= bit
		}
	}
	full := 0
	for _, z := range zones {
		if z == allZones {
			full++
		}
	}
	switch {
	case len(italy) == quarters:
		return true, ""
	case full == quarters && len(italy) == 0:
		return true, ""
	case len(italy) > 0 && full > 0 && len(italy)+full >= quarters:
		return false, "mixes Italy's values with sums of the zones"
	}
	return false, fmt.Sprintf("has %d of its %d quarter hours", max(len(italy), full), quarters)
}
