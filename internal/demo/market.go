package demo

import "math"

// offerMWh is the energy of a typical balancing offer the demo market
// accepts in an hour: units offer blocks of 10 to 40 MWh.
const offerMWh = 25

// AcceptedOffers returns how many offers make up mwh of energy accepted in
// an hour: the energy in blocks of about offerMWh (seeded by u and key, so
// the same hour and series always count the same), at least one offer
// whenever any energy was accepted.
func AcceptedOffers(mwh float64, u, key int64) float64 {
	if mwh <= 0 {
		return 0
	}
	size := offerMWh * (1 + 0.4*Noise(0x0ffe, u, key))
	return math.Max(1, math.Round(mwh/size))
}

// SubmittedOffers returns how many offers were submitted where accepted
// were accepted: the market accepts a third to a half of the offers, and
// every zone, session and direction hears a few even when none is taken.
func SubmittedOffers(accepted float64, u, key int64) float64 {
	return math.Round(accepted*(2.5+0.5*Noise(0x5b17, u, key))) + 3 + math.Round(2*math.Abs(Noise(0x5b18, u, key)))
}
