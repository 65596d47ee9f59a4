package demo

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
