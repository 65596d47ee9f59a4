package energy

import "time"

// Zone is a bidding zone of the Italian market, or Italy as a whole.
type Zone string

// Bidding zones as the total-load download files name them.
const (
	North       Zone = "North"
	CentreNorth Zone = "Centre-North"
	CentreSouth Zone = "Centre-South"
	South       Zone = "South"
	Calabria    Zone = "Calabria"
	Sicily      Zone = "Sicily"
	Sardinia    Zone = "Sardinia"
	Italy       Zone = "Italy"
)

// Zones lists every zone, the seven bidding zones first (BiddingZones'
// order) and Italy last.
func Zones() []Zone {
	zs := make([]Zone, 0, len(biddingZones)+1)
	for _, z := range biddingZones {
		zs = append(zs, z.Zone)
	}
	return append(zs, Italy)
}

// LoadPoint is the total load of one zone for the quarter hour starting at At.
type LoadPoint struct {
	At         time.Time // the instant the quarter hour starts; any location
	Zone       Zone
	TotalMW    float64
	ForecastMW float64 // NaN when the source gives no forecast
}

// LoadKey is the natural key of a LoadPoint.
type LoadKey struct {
	Unix int64 // At as Unix seconds
	Zone Zone
}

// Key returns the point's natural key.
func (p LoadPoint) Key() LoadKey { return LoadKey{p.At.Unix(), p.Zone} }

// Extreme is the load at one instant: a daily peak or valley.
type Extreme struct {
	At time.Time
	GW float64
}

// DayExtremes is the peak (maximum) and valley (minimum) of Italy's total load
// over one Europe/Rome calendar day.
type DayExtremes struct {
	Day    Date
	Peak   Extreme
	Valley Extreme
}
