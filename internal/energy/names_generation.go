package energy

// Reference lists of the generation endpoints (/generation/v2.0/...).

// GenerationTypeNames returns the six types the actual-generation,
// renewable-generation and installed-capacity pages list, in their order.
func GenerationTypeNames() *Names {
	return Plain("Thermal", "Wind", "Geothermal", "Photovoltaic", "Self-consumption", "Hydro")
}

// BalanceTypeNames returns the energy balance's types: the six generation
// types and, as a client's documentation adds, pumping consumption and the
// net foreign exchange.
func BalanceTypeNames() *Names {
	return Plain("Thermal", "Wind", "Geothermal", "Photovoltaic", "Self-consumption", "Hydro", "Pumping-consumption", "Net Foreign Exchange")
}

// PlantSourceNames returns the sources of generation-plants and
// electrical-energy-by-source: the page's filter list and Bioenergie, which
// its example answer shows.
func PlantSourceNames() *Names {
	return Plain("Bioenergie", "Eolico", "Fotovoltaico", "Geotermoelettrico", "Idrico", "Termoelettrico")
}

// RenewableSourceNames returns the sources of renewable-sources-production.
func RenewableSourceNames() *Names {
	return Plain("Bioenergie", "Eolico", "Fotovoltaico", "Geotermoelettrico", "Idrico")
}

// HydricPlantNames returns the kinds of hydroelectric plant.
func HydricPlantNames() *Names { return Plain("Bacino", "Fluente", "Serbatoio") }

// CogenerationPlantNames returns the kinds of cogeneration plant that
// thermoelectric-heat reports.
func CogenerationPlantNames() *Names {
	return Plain("Ciclo combinato con cogenerazione", "Combustione interna con cogenerazione",
		"Condensazione e spillamento", "Contropressione", "Turbine a gas con cogenerazione")
}

// Subcategories of thermoelectric capacity that differ from production's.
const (
	CelleCombustibili = "Celle combustibili"
	GeotermoCondens   = "Geotermoelettrica A Condensazione"
)

// CapacitySubcategoryNames returns thermoelectric-capacity's subcategories,
// each belonging to its category: production's list, except that "Non
// cogenerativa" spells "Celle combustibili" (production's "Celle a
// combustibile" is an alias) and adds "Geotermoelettrica A Condensazione".
func CapacitySubcategoryNames() *Names {
	var es []Name
	for _, c := range categoryTable() {
		for _, s := range c.subs {
			if s.name == "Celle a combustibile" {
				es = append(es, Name{Value: CelleCombustibili, Aliases: []string{s.name}, Parent: c.name})
				continue
			}
			es = append(es, Name{Value: s.name, Aliases: s.aliases, Parent: c.name})
		}
		if c.name == NonCogenerativa {
			es = append(es, Name{Value: GeotermoCondens, Parent: c.name})
		}
	}
	return NewNames(es...)
}
