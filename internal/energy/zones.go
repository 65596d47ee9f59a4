package energy

import (
	"cmp"
	"slices"
)

// BiddingZone is one of the seven bidding zones of the Italian market with
// every name the API's endpoints give it and the larger areas it belongs
// to. The endpoints do not agree on a vocabulary (catalogue.md 4.2): each
// keeps the one its page shows, so each descriptor picks a ZoneVocab.
type BiddingZone struct {
	Zone      Zone   // the total-load files' and v2.0 pages' English name: Centre-North
	Code      string // the Fees pages' code: CNOR
	Italian   string // most Market pages' name: Centro-Nord
	Center    string // the accepted offers' and transit limits' spelling: Center-North
	Macrozone string // the Fees macrozone: NORD or SUD
	Macroarea string // the Adequacy macroarea: NORD, CENTRO_NORD, CENTRO_SUD or SUD_ISOLE
}

// biddingZones is the one table of the bidding zones, north to south and
// then the islands: the order of Zones and of every per-zone table.
var biddingZones = [...]BiddingZone{
	{North, "NORD", "Nord", "North", "NORD", "NORD"},
	{CentreNorth, "CNOR", "Centro-Nord", "Center-North", "SUD", "CENTRO_NORD"},
	{CentreSouth, "CSUD", "Centro-Sud", "Center-South", "SUD", "CENTRO_SUD"},
	{South, "SUD", "Sud", "South", "SUD", "SUD_ISOLE"},
	{Calabria, "CALA", "Calabria", "Calabria", "SUD", "SUD_ISOLE"},
	{Sicily, "SICI", "Sicilia", "Sicily", "SUD", "SUD_ISOLE"},
	{Sardinia, "SARD", "Sardegna", "Sardinia", "SUD", "SUD_ISOLE"},
}

// BiddingZones returns the seven bidding zones, in Zones order. The slice
// is the caller's.
func BiddingZones() []BiddingZone { return slices.Clone(biddingZones[:]) }

// ZoneVocab is one of the vocabularies in which endpoints name the
// bidding zones.
type ZoneVocab int

// The vocabularies, each a field of BiddingZone.
const (
	ZoneEnglish ZoneVocab = iota // total-load's North, Centre-North; the v2.0 names rr-requirement sends
	ZoneCode                     // the Fees codes NORD, CNOR; the Market quantity and prices' SICI
	ZoneItalian                  // Nord, Centro-Nord: the wind forecast, secondary adjustment levels, most Market pages
	ZoneCenter                   // North, Center-North: the accepted offers' Center-South, the transit limits' Center-North
)

// Name returns z's name in vocabulary v.
func (z BiddingZone) Name(v ZoneVocab) string {
	switch v {
	case ZoneCode:
		return z.Code
	case ZoneItalian:
		return z.Italian
	case ZoneCenter:
		return z.Center
	}
	return string(z.Zone)
}

// Names returns the seven zones' names in v, in Zones order.
func (v ZoneVocab) Names() []string {
	out := make([]string, len(biddingZones))
	for i, z := range biddingZones {
		out[i] = z.Name(v)
	}
	return out
}

// ZoneVocabs returns every vocabulary, for the tests that check that each
// place naming zones uses one of them.
func ZoneVocabs() []ZoneVocab { return []ZoneVocab{ZoneEnglish, ZoneCode, ZoneItalian, ZoneCenter} }

// Macrozones returns the Fees pages' two macrozones, NORD and SUD.
func Macrozones() []string { return []string{"NORD", "SUD"} }

// Macroareas returns the Adequacy pages' four macroareas.
func Macroareas() []string { return []string{"NORD", "CENTRO_NORD", "CENTRO_SUD", "SUD_ISOLE"} }

// MarketSessions returns the sessions of the dispatching-services market
// (MSD1 to MSD6) and the balancing market (MB), in the order the Market
// pages report them.
func MarketSessions() []string { return []string{"MSD1", "MSD2", "MSD3", "MSD4", "MSD5", "MSD6", "MB"} }

// Directions returns a market's two directions: UP (more generation or
// less load) and DOWN.
func Directions() []string { return []string{"UP", "DOWN"} }

// DirectionTotal is the third direction of the market quantity and costs
// pages: UP less DOWN, "their total".
const DirectionTotal = "TOTAL"

// PrevailingFuels returns the Adequacy pages' prevailing fuels, as their
// examples write them: TERMICO TRADIZIONALE (expected capacity) and
// ALTRO (aggregate capacity).
func PrevailingFuels() []string { return []string{"TERMICO TRADIZIONALE", "ALTRO"} }

// BalanceZone is a zone of the commercial balance prices within its
// macrozone.
type BalanceZone struct{ Macrozone, Code string }

// borderZones are the virtual zones of the borders, in the commercial
// balance prices' codes, each in the macrozone its interconnectors land in.
var borderZones = [...]BalanceZone{
	{"NORD", "AUST"}, {"NORD", "FRAN"}, {"NORD", "SLOV"}, {"NORD", "SVIZ"},
	{"SUD", "GREC"}, {"SUD", "MALT"}, {"SUD", "MONT"},
}

// BalanceZones returns the zones of the commercial balance prices: the
// bidding zones' codes and the borders' virtual zones (the page's example:
// macrozone NORD, zone AUST), ordered by macrozone and then code.
func BalanceZones() []BalanceZone {
	out := slices.Clone(borderZones[:])
	for _, z := range biddingZones {
		out = append(out, BalanceZone{z.Macrozone, z.Code})
	}
	slices.SortFunc(out, func(a, b BalanceZone) int {
		if c := cmp.Compare(a.Macrozone, b.Macrozone); c != 0 {
			return c
		}
		return cmp.Compare(a.Code, b.Code)
	})
	return out
}
