package demo

import (
	"slices"

	"github.com/energyapi/energyapi/internal/energy"
)

// sudSardegnaFrom is the first year of the province of Sud Sardegna,
// created by Sardinia's regional law 2/2016 mostly out of the former
// provinces of Carbonia-Iglesias and Medio Campidano and part of
// Cagliari's. The reference list (energy.Provinces) has no pre-2016 units,
// so the demo's statistics count Sud Sardegna's plants in Cagliari before
// then, where most of them (Sarroch, Portoscuso's neighbours) belonged to
// the province of Cagliari or to units the list does not name.
const sudSardegnaFrom = 2016

// provinceIn returns the province that held province p's plants in year.
func provinceIn(year int, p string) string {
	if p == "Sud Sardegna" && year < sudSardegnaFrom {
		return "Cagliari"
	}
	return p
}

// provincesIn returns the provinces of the reference list that existed in
// year, sorted.
func provincesIn(year int) []string {
	all := energy.ProvinceNames().Values()
	return slices.DeleteFunc(all, func(p string) bool { return provinceIn(year, p) != p })
}

// foldProvinces returns weights by province with the weights of provinces
// that did not exist in year added to the province that held them.
func foldProvinces(year int, w map[string]float64) map[string]float64 {
	out := make(map[string]float64, len(w))
	for p, v := range w {
		out[provinceIn(year, p)] += v
	}
	return out
}

// RegionDemandShares returns each region's share of Italy's electricity
// demand, after the regional statistics of the early 2020s; the shares add
// up to 1.
func RegionDemandShares() map[string]float64 {
	twh := map[string]float64{
		"Abruzzo": 6, "Basilicata": 3, "Calabria": 5, "Campania": 17, "Emilia-Romagna": 27,
		"Friuli-Venezia Giulia": 10, "Lazio": 22, "Liguria": 6, "Lombardia": 64, "Marche": 7,
		"Molise": 1.3, "Piemonte": 24, "Puglia": 16, "Sardegna": 8, "Sicilia": 17,
		"Toscana": 19, "Trentino-Alto Adige": 7, "Umbria": 5, "Valle d'Aosta": 1, "Veneto": 30,
	}
	var sum float64
	for _, v := range twh {
		sum += v
	}
	for k, v := range twh {
		twh[k] = v / sum
	}
	return twh
}
