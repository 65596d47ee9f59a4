package energy

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Matching rules shared by every Canonical* function and by Names, so by the
// filters of every dataset and the text values of every import:
// a value matches a canonical name or one of its aliases after both are
// trimmed, lower-cased (Unicode-aware), hyphens and runs of white space are
// read as one space, and typographic apostrophes (’ ‘ `) as '. Callers type
// these values by hand, so "friuli venezia giulia", "FORLÌ CESENA" and
// "L’Aquila" are accepted; spellings that differ in words or accents
// ("Reggio Calabria", "Forli-Cesena") are listed as explicit aliases.

// Category values (spec 4.2).
const (
	NonCogenerativa = "Non cogenerativa"
	Cogenerativa    = "Cogenerativa"
)

// Capacity types: gross and net production.
const (
	Lorda = "Lorda"
	Netta = "Netta"
)

// categoryTable gives each category's subcategories exactly as spec 4.2 lists
// them, and the aliases the public deployment's responses and sibling
// endpoints use (spec 4.2 rule 2, reference notes).
func categoryTable() []group {
	return []group{
		{NonCogenerativa, []string{"Non cogenerative"}, []nameAliases{
			{"Altro genere", nil},
			{"Celle a combustibile", []string{"Celle combustibili"}},
			{"Ciclo combinato", nil},
			{"Combustione interna", nil},
			{"Condensazione", nil},
			{"Ripotenziato", nil},
			{"Turbine a gas", nil},
			{"Turbo espansione", nil},
		}},
		{Cogenerativa, nil, []nameAliases{
			{"Celle combustibili con cogenerazione", nil},
			{"Ciclo combinato con cogenerazione", nil},
			{"Combustione interna con cogenerazione", nil},
			{"Condensazione e spillamento", nil},
			{"Contropressione", nil},
			{"Turbine a gas con cogenerazione", nil},
		}},
	}
}

// group is a row of categoryTable or regionTable: a name and its aliases,
// and its members' (subcategories, provinces).
type group struct {
	name    string
	aliases []string
	members []nameAliases
}

type nameAliases struct {
	name    string
	aliases []string
}

// regionTable holds Italy's 20 regions and their 107 provinces, metropolitan
// cities and equivalent units with ISTAT's names. Where ISTAT's name is
// bilingual the Italian part is canonical and the full name an alias
// ("Bolzano/Bozen"); for Aosta, whose statistical unit ISTAT names after the
// region, the chief town's name is canonical because that is what energy
// statistics and callers use.
//
// Sardinia has the five units created by regional law 2/2016 (Cagliari,
// Nuoro, Oristano, Sassari, Sud Sardegna; ISTAT codes 092, 091, 095, 090,
// 111). That is the set ISTAT codes for every year this API publishes (2017
// on), so yearly statistics name these. The reorganisation of regional law
// 9/2023 (Gallura Nord-Est Sardegna, Ogliastra, Medio Campidano, Sulcis
// Iglesiente, metropolitan city of Sassari) does not map one to one onto
// these units and no published year uses it; add its units here, without
// aliasing them to the old ones, when data arrive that name them. The pre-2016
// provinces (Carbonia-Iglesias, Olbia-Tempio, ...) are not aliases for the same
// reason: their municipalities were split between today's units.
// valleDAosta is the canonical spelling of the region, which the
// thermoelectric statistics use; PlantRegion respells it.
const valleDAosta = "Valle d'Aosta"

func regionTable() []group {
	return []group{
		{"Abruzzo", nil, []nameAliases{{"Chieti", nil}, {"L'Aquila", nil}, {"Pescara", nil}, {"Teramo", nil}}},
		{"Basilicata", nil, []nameAliases{{"Matera", nil}, {"Potenza", nil}}},
		{"Calabria", nil, []nameAliases{
			{"Catanzaro", nil}, {"Cosenza", nil}, {"Crotone", nil},
			{"Reggio di Calabria", []string{"Reggio Calabria"}}, {"Vibo Valentia", nil},
		}},
		{"Campania", nil, []nameAliases{{"Avellino", nil}, {"Benevento", nil}, {"Caserta", nil}, {"Napoli", nil}, {"Salerno", nil}}},
		{"Emilia-Romagna", nil, []nameAliases{
			{"Bologna", nil}, {"Ferrara", nil}, {"Forlì-Cesena", []string{"Forli-Cesena"}}, {"Modena", nil},
			{"Parma", nil}, {"Piacenza", nil}, {"Ravenna", nil},
			{"Reggio nell'Emilia", []string{"Reggio Emilia"}}, {"Rimini", nil},
		}},
		{"Friuli-Venezia Giulia", nil, []nameAliases{{"Gorizia", nil}, {"Pordenone", nil}, {"Trieste", nil}, {"Udine", nil}}},
		{"Lazio", nil, []nameAliases{{"Frosinone", nil}, {"Latina", nil}, {"Rieti", nil}, {"Roma", nil}, {"Viterbo", nil}}},
		{"Liguria", nil, []nameAliases{{"Genova", nil}, {"Imperia", nil}, {"La Spezia", nil}, {"Savona", nil}}},
		{"Lombardia", nil, []nameAliases{
			{"Bergamo", nil}, {"Brescia", nil}, {"Como", nil}, {"Cremona", nil}, {"Lecco", nil}, {"Lodi", nil},
			{"Mantova", nil}, {"Milano", nil}, {"Monza e della Brianza", []string{"Monza e Brianza"}},
			{"Pavia", nil}, {"Sondrio", nil}, {"Varese", nil},
		}},
		{"Marche", nil, []nameAliases{
			{"Ancona", nil}, {"Ascoli Piceno", nil}, {"Fermo", nil}, {"Macerata", nil},
			{"Pesaro e Urbino", []string{"Pesaro-Urbino"}},
		}},
		{"Molise", nil, []nameAliases{{"Campobasso", nil}, {"Isernia", nil}}},
		{"Piemonte", nil, []nameAliases{
			{"Alessandria", nil}, {"Asti", nil}, {"Biella", nil}, {"Cuneo", nil}, {"Novara", nil},
			{"Torino", nil}, {"Verbano-Cusio-Ossola", nil}, {"Vercelli", nil},
		}},
		{"Puglia", nil, []nameAliases{
			{"Bari", nil}, {"Barletta-Andria-Trani", nil}, {"Brindisi", nil}, {"Foggia", nil}, {"Lecce", nil}, {"Taranto", nil},
		}},
		{"Sardegna", nil, []nameAliases{{"Cagliari", nil}, {"Nuoro", nil}, {"Oristano", nil}, {"Sassari", nil}, {"Sud Sardegna", nil}}},
		{"Sicilia", nil, []nameAliases{
			{"Agrigento", nil}, {"Caltanissetta", nil}, {"Catania", nil}, {"Enna", nil}, {"Messina", nil},
			{"Palermo", nil}, {"Ragusa", nil}, {"Siracusa", nil}, {"Trapani", nil},
		}},
		{"Toscana", nil, []nameAliases{
			{"Arezzo", nil}, {"Firenze", nil}, {"Grosseto", nil}, {"Livorno", nil}, {"Lucca", nil},
			{"Massa-Carrara", nil}, {"Pisa", nil}, {"Pistoia", nil}, {"Prato", nil}, {"Siena", nil},
		}},
		{"Trentino-Alto Adige", []string{"Trentino-Alto Adige/Südtirol"}, []nameAliases{
			{"Bolzano", []string{"Bolzano/Bozen", "Bozen"}}, {"Trento", nil},
		}},
		{"Umbria", nil, []nameAliases{{"Perugia", nil}, {"Terni", nil}}},
		{valleDAosta, []string{"Valle d'Aosta/Vallée d'Aoste", "Vallée d'Aoste"}, []nameAliases{
			{"Aosta", []string{"Valle d'Aosta/Vallée d'Aoste", "Valle d'Aosta"}},
		}},
		{"Veneto", nil, []nameAliases{
			{"Belluno", nil}, {"Padova", nil}, {"Rovigo", nil}, {"Treviso", nil}, {"Venezia", nil},
			{"Verona", nil}, {"Vicenza", nil},
		}},
	}
}

// subcategory is a canonical subcategory and the category it belongs to.
type subcategory struct {
	category, name string
}

// reference holds the lookup maps built from the lists above. It is built once
// when the package initialises and never written afterwards, so concurrent
// readers need no lock.
type reference struct {
	categories    []string
	subsOf        map[string][]string
	categoryByKey map[string]string
	subByKey      map[string]subcategory

	regions     []string
	provincesOf map[string][]string
	regionOf    map[string]string // canonical province -> canonical region
	regionByKey map[string]string
	provByKey   map[string]string

	capacityByKey map[string]string
}

var ref = buildReference()

func buildReference() *reference {
	r := &reference{
		subsOf:        map[string][]string{},
		categoryByKey: map[string]string{},
		subByKey:      map[string]subcategory{},
		provincesOf:   map[string][]string{},
		regionOf:      map[string]string{},
		regionByKey:   map[string]string{},
		provByKey:     map[string]string{},
		capacityByKey: map[string]string{},
	}
	// Canonical names are stored under themselves as well as under their
	// normalised key, so the common exact spelling is found without building
	// a key (no allocation on the request path).
	addKey := func(m map[string]string, canonical string, names ...string) {
		for _, n := range append([]string{canonical}, names...) {
			for _, k := range []string{n, normKey(n)} {
				if old, dup := m[k]; dup && old != canonical {
					panic("energy: reference name " + n + " is ambiguous") // a mistake in the lists above
				}
				m[k] = canonical
			}
		}
	}
	for _, c := range categoryTable() {
		r.categories = append(r.categories, c.name)
		addKey(r.categoryByKey, c.name, c.aliases...)
		for _, s := range c.members {
			r.subsOf[c.name] = append(r.subsOf[c.name], s.name)
			for _, n := range append([]string{s.name}, s.aliases...) {
				for _, k := range []string{n, normKey(n)} {
					if _, dup := r.subByKey[k]; dup {
						panic("energy: subcategory " + n + " is ambiguous")
					}
					r.subByKey[k] = subcategory{c.name, s.name}
				}
			}
		}
	}
	for _, reg := range regionTable() {
		r.regions = append(r.regions, reg.name)
		addKey(r.regionByKey, reg.name, reg.aliases...)
		for _, p := range reg.members {
			r.provincesOf[reg.name] = append(r.provincesOf[reg.name], p.name)
			r.regionOf[p.name] = reg.name
			addKey(r.provByKey, p.name, p.aliases...)
		}
		slices.Sort(r.provincesOf[reg.name])
	}
	slices.Sort(r.regions)
	addKey(r.capacityByKey, Lorda)
	addKey(r.capacityByKey, Netta)
	return r
}

// normKey returns the form in which names are compared; see the matching
// rules at the top of this file.
func normKey(s string) string { return string(appendKey(nil, s)) }

// appendKey appends normKey(s) to dst. Lookups build the key in a stack
// buffer and index maps with string(key), which Go does without allocating.
func appendKey(dst []byte, s string) []byte {
	space := false
	for _, c := range strings.TrimSpace(s) {
		switch c {
		case '’', '‘', '`':
			c = '\''
		case '-', ' ', '\t', '\n', '\r', '\u00a0':
			space = true
			continue
		}
		if space {
			dst = append(dst, ' ')
			space = false
		}
		dst = utf8.AppendRune(dst, unicode.ToLower(c))
	}
	return dst
}

// lookup finds s in m, trying the exact text first so that canonical values
// cost no key building.
func lookup[V any](m map[string]V, s string) (V, bool) {
	if v, ok := m[s]; ok {
		return v, true
	}
	var buf [64]byte
	v, ok := m[string(appendKey(buf[:0], s))]
	return v, ok
}

func lookupSubcategory(s string) (subcategory, bool) { return lookup(ref.subByKey, s) }

// Categories returns the thermoelectric categories of spec 4.2 in the spec's
// order. The slice is the caller's to modify.
func Categories() []string { return slices.Clone(ref.categories) }

// Subcategories returns the subcategories of category in the spec's order, or
// nil if category is not a category. category may be spelt any way
// CanonicalCategory accepts. The slice is the caller's to modify.
func Subcategories(category string) []string {
	return membersOf(ref.subsOf, CanonicalCategory, category)
}

// CanonicalCategory returns the canonical name of the category s names,
// accepting aliases ("Non cogenerative") and the spellings described at the
// top of reference.go (case-insensitive, trimmed). ok is false if s names no
// category.
func CanonicalCategory(s string) (string, bool) { return lookup(ref.categoryByKey, s) }

// CanonicalSubcategory returns the canonical name of the subcategory s names
// within category, accepting aliases ("Celle combustibili") and the spellings
// CanonicalCategory accepts. ok is false if s names no subcategory or one that
// belongs to another category, or if category is not a category.
func CanonicalSubcategory(category, s string) (string, bool) {
	c, ok := CanonicalCategory(category)
	if !ok {
		return "", false
	}
	sub, ok := lookupSubcategory(s)
	if !ok || sub.category != c {
		return "", false
	}
	return sub.name, true
}

// CapacityTypes returns the capacity types, "Lorda" (gross) and "Netta" (net).
// The slice is the caller's to modify.
func CapacityTypes() []string { return []string{Lorda, Netta} }

// CanonicalCapacityType returns "Lorda" or "Netta" for s, matched
// case-insensitively and trimmed; ok is false for anything else.
func CanonicalCapacityType(s string) (string, bool) { return lookup(ref.capacityByKey, s) }

// Regions returns Italy's 20 regions, sorted byte-wise. The slice is the
// caller's to modify.
func Regions() []string { return slices.Clone(ref.regions) }

// Provinces returns the provinces (and metropolitan cities and equivalent
// units) of region, sorted byte-wise, or nil if region is not a region. region
// may be spelt any way CanonicalRegion accepts. The slice is the caller's to
// modify.
func Provinces(region string) []string {
	return membersOf(ref.provincesOf, CanonicalRegion, region)
}

// membersOf returns a copy of the members in lists of the group that
// canonical finds s names, or nil if it names none.
func membersOf(lists map[string][]string, canonical func(string) (string, bool), s string) []string {
	g, ok := canonical(s)
	if !ok {
		return nil
	}
	return slices.Clone(lists[g])
}

// CanonicalRegion returns the canonical name of the region s names, accepting
// aliases ("Valle d'Aosta/Vallée d'Aoste", "Trentino-Alto Adige/Südtirol") and
// the spellings described at the top of reference.go (case-insensitive,
// trimmed, hyphen or space alike). ok is false if s names no region.
func CanonicalRegion(s string) (string, bool) { return lookup(ref.regionByKey, s) }

// CanonicalProvince returns the canonical (ISTAT) name of the province s
// names, accepting aliases ("Reggio Calabria", "Reggio Emilia", "Bolzano/Bozen")
// and the spellings CanonicalRegion accepts. ok is false if s names no province.
func CanonicalProvince(s string) (string, bool) { return lookup(ref.provByKey, s) }

// RegionOf returns the canonical region of the province s names (any spelling
// CanonicalProvince accepts); ok is false if s names no province.
func RegionOf(province string) (string, bool) {
	p, ok := CanonicalProvince(province)
	if !ok {
		return "", false
	}
	return ref.regionOf[p], true
}

// Year bounds that imports accept.
const (
	MinYear = 1900
	MaxYear = 2100
)
