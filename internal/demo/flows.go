package demo

import (
	"math"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// BorderMW returns each border's mean net import (MW) and its swing.
func BorderMW(country string) (mean, swing float64) {
	switch country {
	case "France":
		return 2300, 900
	case "Switzerland":
		return 2600, 900
	case "Austria":
		return 250, 120
	case "Slovenia":
		return 550, 250
	case "Greece":
		return 150, 350
	case "Montenegro":
		return 200, 300
	case energy.Corsica:
		return -50, 300 // Sardinia supplies Corsica, the links' 450 MW either way
	}
	return -20, 60 // Malta draws from Sicily
}

// ForeignFlow returns the physical net flow into Italy across border k of
// energy.Borders() in the hour starting at u: the border's mean, lower in
// the afternoon when Italian photovoltaic runs and higher at night, with
// seeded noise. Together the borders bring Italy about 6 GW on average.
func ForeignFlow(k int, u int64) float64 {
	mean, swing := BorderMW(energy.Borders()[k])
	h := float64(time.Unix(u, 0).In(energy.Rome()).Hour())
	daily := math.Cos(2 * math.Pi * (h - 2) / 24) // highest at 2 am
	return math.Round((mean+0.4*swing*daily+0.6*swing*Noise(0xf10e, u, int64(k)))*100) / 100
}

// NetImportGW returns Italy's net import in the hour starting at u, GW:
// the sum of the borders' physical flows (ForeignFlow), as the balance of
// Generation uses it.
func NetImportGW(u int64) float64 {
	var mw float64
	for k := range energy.Borders() {
		mw += ForeignFlow(k, u)
	}
	return mw / 1000
}
