package energy

import "time"

// PrimarySourceNames returns the primary sources that cover a peak or a
// valley of demand (peak-valley-load-details), in the portal's order.
func PrimarySourceNames() *Names {
	return Plain("Thermal", "Wind", "Geothermal", "Photovoltaic", "Net Foreign Exchange", "Self-consumption", "Pumping-consumption", "Hydro")
}

// IMCEISectorNames returns the industrial sectors of the monthly index of
// industrial electrical consumption (IMCEI), in the portal's order.
func IMCEISectorNames() *Names {
	return Plain("ALIMENTARE", "ALTRI", "CARTARIA", "CEMENTO CALCE E GESSO", "CERAMICHE E VETRARIE",
		"CHIMICA", "MECCANICA", "METALLI NON FERROSI", "MEZZI DI TRASPORTO", "SIDERURGIA")
}

// TensionTypeNames returns the supply voltages of the IMCEI: AT (high) and MT (medium).
func TensionTypeNames() *Names { return Plain("AT", "MT") }

// CoverageSourceNames returns the sources of demand-coverage-by-source, in
// the portal's order.
func CoverageSourceNames() *Names {
	return Plain("Bioenergie", "Eolico", "Fotovoltaico", "Geotermoelettrico", "Idrico rinnovabile", "Idrico tradizionale", "Saldo import/export")
}

// Borders returns the countries at Italy's borders with an interconnection,
// as the transmission datasets name them.
func Borders() []string {
	return []string{"France", "Switzerland", "Austria", "Slovenia", "Greece", "Montenegro", "Malta"}
}

// BorderNames returns Borders as a reference list.
func BorderNames() *Names { return Plain(Borders()...) }

// Corsica is the counterpart of Italy's scheduled exchanges over the
// Sardinia - Corsica links (SARCO, SACOI), which the scheduled foreign
// exchange's page names beside the neighbouring TSOs and Malta; the
// physical flows count those links in Sardinia's, not as a border.
const Corsica = "Corsica"

// ExchangeCounterparts returns the counterparts of the scheduled foreign
// exchanges: Borders, then Corsica.
func ExchangeCounterparts() []string { return append(Borders(), Corsica) }

// ZoneLinks returns the interconnections between the bidding zones, each
// as its two zones with the southern or island end first, the direction in
// which the portal names them ("Centre-North -> North").
func ZoneLinks() [][2]Zone {
	return [][2]Zone{
		{CentreNorth, North},
		{CentreSouth, CentreNorth},
		{Sardinia, CentreNorth},
		{Sardinia, CentreSouth},
		{South, CentreSouth},
		{Calabria, South},
		{Sicily, Calabria},
	}
}

// FlowName names the flow from zone a to zone b: "Centre-North -> North".
func FlowName(a, b Zone) string { return string(a) + " -> " + string(b) }

// FlowNames returns every directed zone pair with a link, each link in the
// portal's direction and then in the opposite one. Spellings without spaces
// around the arrow are accepted as aliases.
func FlowNames() *Names {
	var es []Name
	for _, dir := range []bool{true, false} {
		for _, l := range ZoneLinks() {
			a, b := l[0], l[1]
			if !dir {
				a, b = b, a
			}
			es = append(es, Name{Value: FlowName(a, b), Aliases: []string{string(a) + "->" + string(b)}})
		}
	}
	return NewNames(es...)
}

// monthNames are the months as the yearly load statistics name them.
var monthNames = [12]string{"Gennaio", "Febbraio", "Marzo", "Aprile", "Maggio", "Giugno",
	"Luglio", "Agosto", "Settembre", "Ottobre", "Novembre", "Dicembre"}

// MonthNames returns the Italian month names, January first.
func MonthNames() *Names { return Plain(monthNames[:]...) }

// MonthName returns month m's Italian name: "Gennaio" for January.
func MonthName(m time.Month) string { return monthNames[m-1] }

// MonthOfName returns the month an Italian name (canonical, as MonthNames
// holds it) names, 0 for none.
func MonthOfName(name string) time.Month {
	for i, n := range monthNames {
		if n == name {
			return time.Month(i + 1)
		}
	}
	return 0
}
