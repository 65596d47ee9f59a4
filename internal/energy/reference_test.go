package energy_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/energyapi/energyapi/internal/energy"
)

func TestCategories(t *testing.T) {
	got := energy.Categories()
	want := []string{"Non cogenerativa", "Cogenerativa"}
	if !slices.Equal(got, want) {
		t.Errorf("Categories() = %q, want %q", got, want)
	}
}

func TestSubcategories(t *testing.T) {
	nonCog := []string{
		"Altro genere", "Celle a combustibile", "Ciclo combinato", "Combustione interna",
		"Condensazione", "Ripotenziato", "Turbine a gas", "Turbo espansione",
	}
	cog := []string{
		"Celle combustibili con cogenerazione", "Ciclo combinato con cogenerazione",
		"Combustione interna con cogenerazione", "Condensazione e spillamento",
		"Contropressione", "Turbine a gas con cogenerazione",
	}
	checkList(t, "Subcategories", energy.Subcategories, []list{
		{"Non cogenerativa", nonCog},
		{"Cogenerativa", cog},
		{"Non cogenerative", nonCog},
		{"cogenerativa", cog},
		{"Geotermica", nil},
		{"", nil},
	})
}

// TestListsAreCopies checks that a caller modifying a returned list does not
// change what the next caller sees.
func TestListsAreCopies(t *testing.T) {
	lists := []struct {
		name string
		get  func() []string
	}{
		{"Categories", energy.Categories},
		{"Subcategories", func() []string { return energy.Subcategories("Cogenerativa") }},
		{"CapacityTypes", energy.CapacityTypes},
		{"Regions", energy.Regions},
		{"Provinces", func() []string { return energy.Provinces("Puglia") }},
	}
	for _, l := range lists {
		t.Run(l.name, func(t *testing.T) {
			first := l.get()
			want := slices.Clone(first)
			first[0] = "changed"
			if got := l.get(); !slices.Equal(got, want) {
				t.Errorf("after modifying a returned list, got %q, want %q", got, want)
			}
		})
	}
}

// list is a case of a function that returns the list named in, nil for
// a name it does not know.
type list struct {
	in   string
	want []string
}

// checkList checks f, named name, on each case.
func checkList(t *testing.T, name string, f func(string) []string, cases []list) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.in, func(t *testing.T) {
			got := f(tt.in)
			if !slices.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
				t.Errorf("%s(%q) = %q, want %q", name, tt.in, got, tt.want)
			}
		})
	}
}

// canonical is a case of a Canonical function of one argument: in is
// written want, or is none of the list's (want "", ok false).
type canonical struct {
	in, want string
	ok       bool
}

// checkCanonical checks f, named name, on each case.
func checkCanonical(t *testing.T, name string, f func(string) (string, bool), cases []canonical) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := f(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Errorf("%s(%q) = %q, %v; want %q, %v", name, tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestCanonicalCategory(t *testing.T) {
	checkCanonical(t, "CanonicalCategory", energy.CanonicalCategory, []canonical{
		{"Non cogenerativa", "Non cogenerativa", true},
		{"Cogenerativa", "Cogenerativa", true},
		{"Non cogenerative", "Non cogenerativa", true},
		{"  non COGENERATIVA\t", "Non cogenerativa", true},
		{"Non  cogenerativa", "Non cogenerativa", true},
		{"cogenerative", "", false},
		{"Non-cogenerativa", "Non cogenerativa", true},
		{"Cogen", "", false},
		{"", "", false},
	})
}

func TestCanonicalSubcategory(t *testing.T) {
	tests := []struct {
		category, in string
		want         string
		wantOK       bool
	}{
		{"Non cogenerativa", "Ciclo combinato", "Ciclo combinato", true},
		{"Non cogenerativa", "Celle combustibili", "Celle a combustibile", true},
		{"Non cogenerative", "celle COMBUSTIBILI", "Celle a combustibile", true},
		{"Non cogenerativa", "Turbo espansione", "Turbo espansione", true},
		{"Cogenerativa", " contropressione ", "Contropressione", true},
		{"Cogenerativa", "Celle combustibili con cogenerazione", "Celle combustibili con cogenerazione", true},
		{"Non cogenerativa", "Contropressione", "", false},
		{"Cogenerativa", "Ciclo combinato", "", false},
		{"Cogenerativa", "Celle combustibili", "", false},
		{"Geotermica", "Ciclo combinato", "", false},
		{"Non cogenerativa", "Geotermoelettrica A Condensazione", "", false},
		{"Non cogenerativa", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.category+"/"+tt.in, func(t *testing.T) {
			got, ok := energy.CanonicalSubcategory(tt.category, tt.in)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("CanonicalSubcategory(%q, %q) = %q, %v; want %q, %v", tt.category, tt.in, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestCapacityTypes(t *testing.T) {
	if got, want := energy.CapacityTypes(), []string{"Lorda", "Netta"}; !slices.Equal(got, want) {
		t.Errorf("CapacityTypes() = %q, want %q", got, want)
	}
	checkCanonical(t, "CanonicalCapacityType", energy.CanonicalCapacityType, []canonical{
		{"Lorda", "Lorda", true},
		{"netta", "Netta", true},
		{" LORDA ", "Lorda", true},
		{"Gross", "", false},
		{"", "", false},
	})
}

func TestRegions(t *testing.T) {
	want := []string{
		"Abruzzo", "Basilicata", "Calabria", "Campania", "Emilia-Romagna", "Friuli-Venezia Giulia",
		"Lazio", "Liguria", "Lombardia", "Marche", "Molise", "Piemonte", "Puglia", "Sardegna",
		"Sicilia", "Toscana", "Trentino-Alto Adige", "Umbria", "Valle d'Aosta", "Veneto",
	}
	if got := energy.Regions(); !slices.Equal(got, want) {
		t.Errorf("Regions() = %q, want %q", got, want)
	}
}

func TestProvincesPerRegion(t *testing.T) {
	want := map[string]int{
		"Abruzzo": 4, "Basilicata": 2, "Calabria": 5, "Campania": 5, "Emilia-Romagna": 9,
		"Friuli-Venezia Giulia": 4, "Lazio": 5, "Liguria": 4, "Lombardia": 12, "Marche": 5,
		"Molise": 2, "Piemonte": 8, "Puglia": 6, "Sardegna": 5, "Sicilia": 9, "Toscana": 10,
		"Trentino-Alto Adige": 2, "Umbria": 2, "Valle d'Aosta": 1, "Veneto": 7,
	}
	total := 0
	for region, n := range want {
		got := energy.Provinces(region)
		if len(got) != n {
			t.Errorf("len(Provinces(%q)) = %d, want %d: %q", region, len(got), n, got)
		}
		if !slices.IsSorted(got) {
			t.Errorf("Provinces(%q) = %q, want sorted", region, got)
		}
		total += len(got)
	}
	if total != 107 {
		t.Errorf("got %d provinces in all, want 107", total)
	}
}

func TestProvinces(t *testing.T) {
	checkList(t, "Provinces", energy.Provinces, []list{
		{"Sardegna", []string{"Cagliari", "Nuoro", "Oristano", "Sassari", "Sud Sardegna"}},
		{"Trentino-Alto Adige", []string{"Bolzano", "Trento"}},
		{"Trentino-Alto Adige/Südtirol", []string{"Bolzano", "Trento"}},
		{"Valle d'Aosta", []string{"Aosta"}},
		{"Friuli Venezia Giulia", []string{"Gorizia", "Pordenone", "Trieste", "Udine"}},
		{"Puglia", []string{"Bari", "Barletta-Andria-Trani", "Brindisi", "Foggia", "Lecce", "Taranto"}},
		{"Calabria", []string{"Catanzaro", "Cosenza", "Crotone", "Reggio di Calabria", "Vibo Valentia"}},
		{"Emilia-Romagna", []string{"Bologna", "Ferrara", "Forlì-Cesena", "Modena", "Parma", "Piacenza", "Ravenna", "Reggio nell'Emilia", "Rimini"}},
		{"Padania", nil},
	})
}

func TestCanonicalRegion(t *testing.T) {
	checkCanonical(t, "CanonicalRegion", energy.CanonicalRegion, []canonical{
		{"Abruzzo", "Abruzzo", true},
		{"friuli-venezia giulia", "Friuli-Venezia Giulia", true},
		{"Friuli Venezia Giulia", "Friuli-Venezia Giulia", true},
		{"Valle d'Aosta/Vallée d'Aoste", "Valle d'Aosta", true},
		{"Valle d’Aosta", "Valle d'Aosta", true},
		{"Trentino-Alto Adige/Südtirol", "Trentino-Alto Adige", true},
		{"Trentino Alto Adige", "Trentino-Alto Adige", true},
		{"Emilia Romagna", "Emilia-Romagna", true},
		{" PUGLIA ", "Puglia", true},
		{"Apulia", "", false},
		{"Brindisi", "", false},
		{"", "", false},
	})
}

func TestCanonicalProvinceAndRegionOf(t *testing.T) {
	tests := []struct {
		in         string
		want       string
		wantRegion string
		wantOK     bool
	}{
		{"Chieti", "Chieti", "Abruzzo", true},
		{"Udine", "Udine", "Friuli-Venezia Giulia", true},
		{"Reggio di Calabria", "Reggio di Calabria", "Calabria", true},
		{"Reggio Calabria", "Reggio di Calabria", "Calabria", true},
		{"Reggio nell'Emilia", "Reggio nell'Emilia", "Emilia-Romagna", true},
		{"reggio emilia", "Reggio nell'Emilia", "Emilia-Romagna", true},
		{"Bolzano/Bozen", "Bolzano", "Trentino-Alto Adige", true},
		{"Bozen", "Bolzano", "Trentino-Alto Adige", true},
		{"Trento", "Trento", "Trentino-Alto Adige", true},
		{"Forlì-Cesena", "Forlì-Cesena", "Emilia-Romagna", true},
		{"FORLÌ CESENA", "Forlì-Cesena", "Emilia-Romagna", true},
		{"Forli-Cesena", "Forlì-Cesena", "Emilia-Romagna", true},
		{"Pesaro e Urbino", "Pesaro e Urbino", "Marche", true},
		{"Pesaro-Urbino", "Pesaro e Urbino", "Marche", true},
		{"Monza e della Brianza", "Monza e della Brianza", "Lombardia", true},
		{"Monza e Brianza", "Monza e della Brianza", "Lombardia", true},
		{"Barletta Andria Trani", "Barletta-Andria-Trani", "Puglia", true},
		{"Massa Carrara", "Massa-Carrara", "Toscana", true},
		{"Verbano-Cusio-Ossola", "Verbano-Cusio-Ossola", "Piemonte", true},
		{"L’Aquila", "L'Aquila", "Abruzzo", true},
		{"Aosta", "Aosta", "Valle d'Aosta", true},
		{"Valle d'Aosta/Vallée d'Aoste", "Aosta", "Valle d'Aosta", true},
		{"Sud Sardegna", "Sud Sardegna", "Sardegna", true},
		{"Carbonia-Iglesias", "", "", false},
		{"Olbia-Tempio", "", "", false},
		{"Puglia", "", "", false},
		{"", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := energy.CanonicalProvince(tt.in)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("CanonicalProvince(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.wantOK)
			}
			region, ok := energy.RegionOf(tt.in)
			if region != tt.wantRegion || ok != tt.wantOK {
				t.Errorf("RegionOf(%q) = %q, %v; want %q, %v", tt.in, region, ok, tt.wantRegion, tt.wantOK)
			}
		})
	}
}

// TestEveryListedNameIsCanonical checks that the lists and the lookups agree:
// every listed province is its own canonical name, in any letter case, and
// belongs to the region that lists it.
func TestEveryListedNameIsCanonical(t *testing.T) {
	for _, region := range energy.Regions() {
		if got, ok := energy.CanonicalRegion(strings.ToUpper(region)); got != region || !ok {
			t.Errorf("CanonicalRegion(%q) = %q, %v; want %q, true", strings.ToUpper(region), got, ok, region)
		}
		for _, p := range energy.Provinces(region) {
			if got, ok := energy.CanonicalProvince(strings.ToLower(p)); got != p || !ok {
				t.Errorf("CanonicalProvince(%q) = %q, %v; want %q, true", strings.ToLower(p), got, ok, p)
			}
			if got, ok := energy.RegionOf(p); got != region || !ok {
				t.Errorf("RegionOf(%q) = %q, %v; want %q, true", p, got, ok, region)
			}
		}
	}
}
