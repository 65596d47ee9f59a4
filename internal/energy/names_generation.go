package energy

import "slices"

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

// AccumuloStandAlone is generation-plants' source for standalone storage,
// which the live service lists from 2023 (catalogue.md 5.2).
const AccumuloStandAlone = "Accumulo stand alone"

// PlantSourceNames returns the sources of generation-plants: the page's
// filter list, Bioenergie, which its example answer shows, and Accumulo
// stand alone, which the live service sends from 2023.
func PlantSourceNames() *Names {
	return Plain(AccumuloStandAlone, "Bioenergie", "Eolico", "Fotovoltaico", "Geotermoelettrico", "Idrico", "Termoelettrico")
}

// EnergySourceNames returns the sources of electrical-energy-by-source, its
// page's list: no Bioenergie (bioenergies count in Termoelettrico there).
func EnergySourceNames() *Names {
	return Plain("Eolico", "Fotovoltaico", "Geotermoelettrico", "Idrico", "Termoelettrico")
}

// ValleDAostaPlants is Valle d'Aosta as the live generation-plants family
// writes it; the thermoelectric statistics write the canonical spelling.
const ValleDAostaPlants = "Valle D'Aosta"

// PlantRegion returns region as the generation-plants family spells it.
func PlantRegion(region string) string {
	if region == valleDAosta {
		return ValleDAostaPlants
	}
	return region
}

// PlantRegionNames returns RegionNames as the generation-plants family
// spells them; the canonical spelling stays an alias.
func PlantRegionNames() *Names {
	var es []Name
	for _, r := range regionTable() {
		e := Name{Value: PlantRegion(r.name), Aliases: r.aliases}
		if e.Value != r.name {
			e.Aliases = append(slices.Clone(r.aliases), r.name)
		}
		es = append(es, e)
	}
	return sortedNames(es)
}

// PlantProvinceNames returns ProvinceNames, each belonging to its region
// as PlantRegionNames spells it.
func PlantProvinceNames() *Names { return provinceNames(PlantRegion) }

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
		for _, s := range c.members {
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
