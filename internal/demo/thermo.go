package demo

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Years covered by the thermoelectric demo data.
const (
	ThermoFirstYear = 2015
	ThermoLastYear  = 2024
)

// thermoSeed fixes the demo data: the same records on every run and machine.
const thermoSeed = 0x7e_2a0_2015

// thermoGrossGWh returns the national gross thermoelectric production the
// year is scaled to: in the range of Italy's published statistics (150 to 200
// TWh), with the 2020 lockdown dip, the 2022 gas-crisis return of coal and
// the fall that followed as renewables and imports grew.
func thermoGrossGWh(year int) float64 {
	return [...]float64{181_500, 188_300, 196_800, 183_200, 186_900, 170_400, 178_600, 191_200, 163_700, 156_900}[year-ThermoFirstYear]
}

// thermoTrend is how a kind of site's output moves over the years.
type thermoTrend int

const (
	trendCoal     thermoTrend = iota // phase-down, slowed by the 2022 gas crisis
	trendGas                         // combined cycles take the load coal gives up, until 2023
	trendIndustry                    // industrial cogeneration follows industrial output
	trendOil                         // oil units and island diesel sets decline as links are built
)

// factor returns the trend's output in year relative to 2015.
func (t thermoTrend) factor(year int) float64 {
	y := year - ThermoFirstYear
	switch t {
	case trendCoal:
		return [...]float64{1.00, 0.92, 0.85, 0.72, 0.52, 0.38, 0.42, 0.62, 0.30, 0.16}[y]
	case trendGas:
		return [...]float64{1.00, 1.08, 1.18, 1.06, 1.15, 1.08, 1.12, 1.10, 0.92, 0.88}[y]
	case trendOil:
		return [...]float64{1.00, 0.90, 0.85, 0.80, 0.75, 0.70, 0.68, 0.72, 0.60, 0.55}[y]
	}
	return [...]float64{1.00, 1.01, 1.02, 1.01, 1.00, 0.93, 0.99, 0.95, 0.93, 0.92}[y]
}

// thermoSite is one plant, or a province's plants of one kind, with its
// gross production in a 2015-like year before national scaling.
type thermoSite struct {
	province    string
	category    string
	subcategory string
	gwh         float64
	trend       thermoTrend
	from, until int // years of operation; 0 means open-ended
}

// thermoSites lists the large sites by name and place. Sites of the same
// province and kind add up into one record. The order of the list is part of
// the demo's data (the seeded draws follow it).
func thermoSites() []thermoSite {
	return slices.Concat(thermoSteamSites(), thermoCombinedCycleSites(), thermoOtherSites(), thermoCogenerationSites())
}

// thermoSteamSites are the coal and oil steam units (condensing).
func thermoSteamSites() []thermoSite {
	const nc = energy.NonCogenerativa
	return []thermoSite{
		{"Brindisi", nc, "Condensazione", 12_000, trendCoal, 0, 0},    // Cerano
		{"Roma", nc, "Condensazione", 10_000, trendCoal, 0, 0},        // Torrevaldaliga Nord, Civitavecchia
		{"Venezia", nc, "Condensazione", 4_500, trendCoal, 0, 0},      // Fusina
		{"La Spezia", nc, "Condensazione", 3_000, trendCoal, 0, 2021}, // Eugenio Montale
		{"Gorizia", nc, "Condensazione", 1_800, trendCoal, 0, 0},      // Monfalcone
		{"Sud Sardegna", nc, "Condensazione", 3_000, trendCoal, 0, 0}, // Sulcis, Portoscuso
		{"Sassari", nc, "Condensazione", 3_500, trendCoal, 0, 0},      // Fiume Santo
		{"Perugia", nc, "Condensazione", 600, trendCoal, 0, 2020},     // Bastardo, Gualdo Cattaneo
		{"Genova", nc, "Condensazione", 700, trendCoal, 0, 2017},      // Lanterna
		{"Messina", nc, "Condensazione", 1_500, trendOil, 0, 0},       // San Filippo del Mela
		{"Nuoro", nc, "Condensazione", 150, trendOil, 0, 2019},        // Ottana
	}
}

// thermoCombinedCycleSites are the combined-cycle gas turbines.
func thermoCombinedCycleSites() []thermoSite {
	const nc = energy.NonCogenerativa
	return []thermoSite{
		{"Milano", nc, "Ciclo combinato", 3_000, trendGas, 0, 0},  // Turbigo
		{"Milano", nc, "Ciclo combinato", 2_500, trendGas, 0, 0},  // Cassano d'Adda
		{"Pavia", nc, "Ciclo combinato", 2_500, trendGas, 0, 0},   // Voghera
		{"Mantova", nc, "Ciclo combinato", 4_000, trendGas, 0, 0}, // Sermide, Ponti sul Mincio
		{"Piacenza", nc, "Ciclo combinato", 3_500, trendGas, 0, 0},
		{"Lodi", nc, "Ciclo combinato", 3_000, trendGas, 0, 0}, // Tavazzano
		{"Ravenna", nc, "Ciclo combinato", 2_500, trendGas, 0, 0},
		{"Roma", nc, "Ciclo combinato", 2_500, trendGas, 0, 0},       // Torrevaldaliga Sud
		{"Latina", nc, "Ciclo combinato", 2_000, trendGas, 0, 0},     // Aprilia
		{"Caserta", nc, "Ciclo combinato", 3_500, trendGas, 0, 0},    // Sparanise, Teverola
		{"Caserta", nc, "Ciclo combinato", 1_800, trendGas, 2023, 0}, // Presenzano
		{"Napoli", nc, "Ciclo combinato", 1_500, trendGas, 0, 0},
		{"Cosenza", nc, "Ciclo combinato", 2_000, trendGas, 0, 0},            // Altomonte
		{"Catanzaro", nc, "Ciclo combinato", 2_000, trendGas, 0, 0},          // Simeri Crichi
		{"Reggio di Calabria", nc, "Ciclo combinato", 2_500, trendGas, 0, 0}, // Rizziconi
		{"Palermo", nc, "Ciclo combinato", 2_000, trendGas, 0, 0},            // Termini Imerese
		{"Siracusa", nc, "Ciclo combinato", 2_500, trendGas, 0, 0},           // Priolo Gargallo
		{"Torino", nc, "Ciclo combinato", 1_500, trendGas, 0, 0},             // Leinì
		{"Vercelli", nc, "Ciclo combinato", 1_500, trendGas, 0, 0},           // Trino
		{"Chieti", nc, "Ciclo combinato", 2_000, trendGas, 0, 0},             // Gissi
		{"Campobasso", nc, "Ciclo combinato", 2_500, trendGas, 0, 0},         // Termoli
		{"Foggia", nc, "Ciclo combinato", 3_500, trendGas, 0, 0},             // Candela, San Severo
		{"Bari", nc, "Ciclo combinato", 2_000, trendGas, 0, 0},               // Modugno
		{"Brindisi", nc, "Ciclo combinato", 2_500, trendGas, 0, 0},           // Brindisi Sud's gas units
		{"Venezia", nc, "Ciclo combinato", 1_500, trendGas, 0, 0},            // Porto Marghera
		{"Savona", nc, "Ciclo combinato", 2_000, trendGas, 0, 0},             // Vado Ligure
		{"Udine", nc, "Ciclo combinato", 2_000, trendGas, 0, 0},              // Torviscosa
		{"La Spezia", nc, "Ciclo combinato", 900, trendGas, 0, 0},
		{"Piacenza", nc, "Ripotenziato", 800, trendGas, 0, 0},
		{"Mantova", nc, "Ripotenziato", 600, trendGas, 0, 0},
		{"Frosinone", nc, "Ripotenziato", 400, trendGas, 0, 0},
	}
}

// thermoOtherSites are the open-cycle gas turbines, the diesel sets on the
// smaller islands and the odd plants of the remaining subcategories.
func thermoOtherSites() []thermoSite {
	const nc = energy.NonCogenerativa
	return []thermoSite{
		{"Pavia", nc, "Turbine a gas", 50, trendGas, 0, 0},
		{"Napoli", nc, "Turbine a gas", 80, trendGas, 0, 0},
		{"Palermo", nc, "Turbine a gas", 90, trendGas, 0, 0},
		{"Cagliari", nc, "Turbine a gas", 70, trendGas, 0, 0},
		{"Trapani", nc, "Combustione interna", 120, trendOil, 0, 0},  // Pantelleria, Egadi
		{"Agrigento", nc, "Combustione interna", 60, trendOil, 0, 0}, // Lampedusa
		{"Messina", nc, "Combustione interna", 110, trendOil, 0, 0},  // Aeolian Islands
		{"Napoli", nc, "Combustione interna", 90, trendOil, 0, 0},    // Capri
		{"Latina", nc, "Combustione interna", 25, trendOil, 0, 0},    // Ponza, Ventotene
		{"Milano", nc, "Celle a combustibile", 3, trendIndustry, 0, 0},
		{"Torino", nc, "Celle a combustibile", 2, trendIndustry, 2018, 0},
		{"Roma", nc, "Turbo espansione", 8, trendIndustry, 0, 0},
		{"Bologna", nc, "Turbo espansione", 5, trendIndustry, 0, 0},
		{"Milano", nc, "Altro genere", 60, trendIndustry, 0, 0},
	}
}

// thermoCogenerationSites are the cogeneration plants at refineries,
// petrochemical sites, steelworks and district heating.
func thermoCogenerationSites() []thermoSite {
	const c = energy.Cogenerativa
	return []thermoSite{
		{"Ferrara", c, "Ciclo combinato con cogenerazione", 3_500, trendIndustry, 0, 0},
		{"Ravenna", c, "Ciclo combinato con cogenerazione", 3_000, trendIndustry, 0, 0},
		{"Brindisi", c, "Ciclo combinato con cogenerazione", 3_000, trendIndustry, 0, 0},
		{"Mantova", c, "Ciclo combinato con cogenerazione", 2_500, trendIndustry, 0, 0},
		{"Venezia", c, "Ciclo combinato con cogenerazione", 1_500, trendIndustry, 0, 0},
		{"Sud Sardegna", c, "Ciclo combinato con cogenerazione", 4_000, trendIndustry, 0, 0}, // Sarroch
		{"Siracusa", c, "Ciclo combinato con cogenerazione", 3_500, trendIndustry, 0, 0},     // Priolo
		{"Torino", c, "Ciclo combinato con cogenerazione", 2_500, trendIndustry, 0, 0},       // Moncalieri
		{"Milano", c, "Ciclo combinato con cogenerazione", 800, trendIndustry, 0, 0},
		{"Pavia", c, "Ciclo combinato con cogenerazione", 1_200, trendIndustry, 0, 0},  // Sannazzaro
		{"Taranto", c, "Condensazione e spillamento", 3_500, trendIndustry, 0, 0},      // steelworks gas
		{"Aosta", c, "Combustione interna con cogenerazione", 20, trendIndustry, 0, 0}, // Aosta's district heating: Valle d'Aosta's only thermal plant of note
		{"Brescia", c, "Condensazione e spillamento", 800, trendIndustry, 0, 0},        // Lamarmora
		{"Terni", c, "Contropressione", 250, trendIndustry, 0, 0},
		{"Lucca", c, "Turbine a gas con cogenerazione", 500, trendIndustry, 0, 0}, // paper mills
		{"Cagliari", c, "Ciclo combinato con cogenerazione", 300, trendIndustry, 0, 0},
		{"Livorno", c, "Condensazione e spillamento", 300, trendIndustry, 0, 0},
		{"Milano", c, "Celle combustibili con cogenerazione", 2, trendIndustry, 0, 0},
		{"Torino", c, "Celle combustibili con cogenerazione", 2, trendIndustry, 2019, 0},
	}
}

// thermoSmallProvinces have small plants (biogas engines, industrial
// cogeneration) whose kinds and sizes the seeded generator draws. Provinces
// listed nowhere (Isernia, Rieti, Enna, Vibo Valentia, ...) have no
// thermoelectric production.
func thermoSmallProvinces() []string {
	return []string{
		"Alessandria", "Ancona", "Arezzo", "Asti", "Avellino", "Bari", "Barletta-Andria-Trani",
		"Belluno", "Benevento", "Bergamo", "Biella", "Bologna", "Bolzano", "Brescia", "Cagliari",
		"Caltanissetta", "Catania", "Como", "Cremona", "Cuneo", "Fermo", "Ferrara", "Firenze",
		"Forlì-Cesena", "Frosinone", "Genova", "Latina", "Lecce", "Lecco", "Livorno", "Lodi",
		"Lucca", "Macerata", "Mantova", "Milano", "Modena", "Monza e della Brianza", "Napoli",
		"Novara", "Padova", "Parma", "Perugia", "Pesaro e Urbino", "Pescara", "Piacenza", "Pisa",
		"Pistoia", "Pordenone", "Potenza", "Prato", "Ravenna", "Reggio nell'Emilia", "Rovigo",
		"Salerno", "Siena", "Teramo", "Terni", "Torino", "Trento", "Treviso", "Trieste", "Udine",
		"Varese", "Venezia", "Verona", "Vicenza", "L'Aquila", "Matera", "Oristano",
	}
}

// thermoSmallKinds are the kinds of small plant, with the range of their
// 2015 production in GWh.
func thermoSmallKinds() []struct {
	category, subcategory string
	min, max              float64
} {
	return []struct {
		category, subcategory string
		min, max              float64
	}{
		{energy.Cogenerativa, "Combustione interna con cogenerazione", 40, 450},
		{energy.Cogenerativa, "Turbine a gas con cogenerazione", 60, 350},
		{energy.Cogenerativa, "Contropressione", 20, 160},
		{energy.Cogenerativa, "Condensazione e spillamento", 30, 200},
		{energy.NonCogenerativa, "Combustione interna", 20, 180},
		{energy.NonCogenerativa, "Altro genere", 10, 80},
	}
}

// Thermoelectric returns the demo thermoelectric production: gross ("Lorda")
// and net ("Netta") records for every year from ThermoFirstYear to
// ThermoLastYear, with canonical names, production rounded to three decimals,
// ordered by year, region, province, category, subcategory and capacity type.
// Each year's gross records sum to a national total close to Italy's
// published figures; each net record is 2% to 5% below its gross one. Every
// call returns the same records in a new slice.
//
// The records are rows of the thermoelectric dataset as internal/catalog
// declares it: the year's first instant in Rome; capacity type, region,
// province, category and subcategory; production in GWh.
func Thermoelectric() []dataset.Row {
	recs := thermoRecords()
	rows := make([]dataset.Row, len(recs))
	for i, r := range recs {
		rows[i] = dataset.Row{
			Time: time.Date(r.Year, time.January, 1, 0, 0, 0, 0, energy.Rome()).Unix(),
			Text: []string{r.CapacityType, r.Region, r.Province, r.Category, r.Subcategory},
			Num:  []float64{r.ProductionGWh},
		}
	}
	return rows
}

// thermoRecord is a record of Thermoelectric as the demo's models work
// with it (GenerationStats derives capacities from them).
type thermoRecord struct {
	Year                                                  int
	CapacityType, Region, Province, Category, Subcategory string
	ProductionGWh                                         float64
}

// thermoRecords returns the records of Thermoelectric, in its order.
func thermoRecords() []thermoRecord {
	rng := rand.New(rand.NewPCG(thermoSeed, thermoSeed>>7))
	sites := thermoSites()
	for _, p := range thermoSmallProvinces() {
		kinds := thermoSmallKinds()
		rng.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
		for _, k := range kinds[:1+rng.IntN(3)] {
			gwh := k.min + rng.Float64()*(k.max-k.min)
			sites = append(sites, thermoSite{p, k.category, k.subcategory, gwh, trendIndustry, 0, 0})
		}
	}

	type key struct{ province, category, subcategory string }
	var out []thermoRecord
	for year := ThermoFirstYear; year <= ThermoLastYear; year++ {
		var keys []key // first-seen order, so that map order never matters
		gross := map[key]float64{}
		total := 0.0
		for _, s := range sites {
			if (s.from != 0 && year < s.from) || (s.until != 0 && year > s.until) {
				continue
			}
			k := key{provinceIn(year, s.province), s.category, s.subcategory}
			if _, seen := gross[k]; !seen {
				keys = append(keys, k)
			}
			v := s.gwh * s.trend.factor(year) * (1 + 0.12*(rng.Float64()-0.5)) // ±6% year to year
			gross[k] += v
			total += v
		}
		scale := thermoGrossGWh(year) / total
		for _, k := range keys {
			region, ok := energy.RegionOf(k.province)
			if !ok {
				panic("demo: province " + k.province + " is not in the reference list") // a mistake in the tables above
			}
			g := max(energy.Round(gross[k]*scale, 3), 1)
			n := energy.Round(g*(1-(0.02+0.03*rng.Float64())), 3)
			for _, r := range [...]struct {
				ct  string
				gwh float64
			}{{energy.Lorda, g}, {energy.Netta, n}} {
				out = append(out, thermoRecord{
					Year: year, CapacityType: r.ct, Region: region, Province: k.province,
					Category: k.category, Subcategory: k.subcategory, ProductionGWh: r.gwh,
				})
			}
		}
	}
	slices.SortFunc(out, func(a, b thermoRecord) int {
		return cmp.Or(
			cmp.Compare(a.Year, b.Year),
			strings.Compare(a.Region, b.Region),
			strings.Compare(a.Province, b.Province),
			strings.Compare(a.Category, b.Category),
			strings.Compare(a.Subcategory, b.Subcategory),
			strings.Compare(a.CapacityType, b.CapacityType),
		)
	})
	return out
}
