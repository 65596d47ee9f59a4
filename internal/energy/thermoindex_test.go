package energy_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/energyapi/energyapi/internal/energy"
)

func rec(year int, ct, region, province, category, sub string, gwh float64) energy.ThermoRecord {
	return energy.ThermoRecord{
		Year: year, CapacityType: ct, Region: region, Province: province,
		Category: category, Subcategory: sub, ProductionGWh: gwh,
	}
}

// indexFixture holds a few records in no particular order.
func indexFixture() []energy.ThermoRecord {
	const nc, c = "Non cogenerativa", "Cogenerativa"
	return []energy.ThermoRecord{
		rec(2023, "Lorda", "Sicilia", "Siracusa", c, "Contropressione", 700),
		rec(2023, "Netta", "Puglia", "Brindisi", nc, "Condensazione", 4800),
		rec(2022, "Lorda", "Puglia", "Brindisi", nc, "Condensazione", 6000),
		rec(2023, "Lorda", "Lazio", "Roma", nc, "Condensazione", 3000),
		rec(2023, "Lorda", "Puglia", "Bari", nc, "Turbine a gas", 10),
		rec(2023, "Lorda", "Puglia", "Brindisi", nc, "Condensazione", 5000),
		rec(2023, "Lorda", "Lazio", "Roma", nc, "Celle a combustibile", 0.5),
		rec(2023, "Lorda", "Puglia", "Brindisi", c, "Ciclo combinato con cogenerazione", 900),
	}
}

func describe(recs []energy.ThermoRecord) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = fmt.Sprintf("%d %s/%s/%s/%s/%s %g", r.Year, r.Region, r.Province, r.Category, r.Subcategory, r.CapacityType, r.ProductionGWh)
	}
	return out
}

func TestThermoIndexQuery(t *testing.T) {
	const (
		romaCelle     = "2023 Lazio/Roma/Non cogenerativa/Celle a combustibile/Lorda 0.5"
		romaCond      = "2023 Lazio/Roma/Non cogenerativa/Condensazione/Lorda 3000"
		bariTG        = "2023 Puglia/Bari/Non cogenerativa/Turbine a gas/Lorda 10"
		brindisiCC    = "2023 Puglia/Brindisi/Cogenerativa/Ciclo combinato con cogenerazione/Lorda 900"
		brindisiCondL = "2023 Puglia/Brindisi/Non cogenerativa/Condensazione/Lorda 5000"
		brindisiCondN = "2023 Puglia/Brindisi/Non cogenerativa/Condensazione/Netta 4800"
		siracusa      = "2023 Sicilia/Siracusa/Cogenerativa/Contropressione/Lorda 700"
	)
	tests := []struct {
		name      string
		q         energy.ThermoQuery
		wantKnown bool
		want      []string
	}{
		{"whole year", energy.ThermoQuery{Year: 2023}, true,
			[]string{romaCelle, romaCond, bariTG, brindisiCC, brindisiCondL, brindisiCondN, siracusa}},
		{"other year", energy.ThermoQuery{Year: 2022}, true,
			[]string{"2022 Puglia/Brindisi/Non cogenerativa/Condensazione/Lorda 6000"}},
		{"year without records", energy.ThermoQuery{Year: 2021}, false, nil},
		{"region", energy.ThermoQuery{Year: 2023, Region: "puglia"}, true,
			[]string{bariTG, brindisiCC, brindisiCondL, brindisiCondN}},
		{"region and category alias", energy.ThermoQuery{Year: 2023, Region: "Puglia", Category: "Non cogenerative"}, true,
			[]string{bariTG, brindisiCondL, brindisiCondN}},
		{"region without records", energy.ThermoQuery{Year: 2023, Region: "Molise"}, true, []string{}},
		{"one province", energy.ThermoQuery{Year: 2023, Provinces: []string{"Brindisi"}}, true,
			[]string{brindisiCC, brindisiCondL, brindisiCondN}},
		{"provinces in region order", energy.ThermoQuery{Year: 2023, Provinces: []string{"Siracusa", "Roma"}}, true,
			[]string{romaCelle, romaCond, siracusa}},
		{"province named twice", energy.ThermoQuery{Year: 2023, Provinces: []string{"Brindisi", " brindisi"}}, true,
			[]string{brindisiCC, brindisiCondL, brindisiCondN}},
		{"known province without records", energy.ThermoQuery{Year: 2023, Provinces: []string{"Udine"}}, true, []string{}},
		{"province with and without records", energy.ThermoQuery{Year: 2023, Provinces: []string{"Roma", "Udine"}}, true,
			[]string{romaCelle, romaCond}},
		{"province of another region", energy.ThermoQuery{Year: 2023, Region: "Puglia", Provinces: []string{"Roma"}}, true, []string{}},
		{"provinces partly in the region", energy.ThermoQuery{Year: 2023, Region: "Lazio", Provinces: []string{"Roma", "Brindisi"}}, true,
			[]string{romaCelle, romaCond}},
		{"blank province ignored", energy.ThermoQuery{Year: 2022, Provinces: []string{""}}, true,
			[]string{"2022 Puglia/Brindisi/Non cogenerativa/Condensazione/Lorda 6000"}},
		{"subcategory alias without category", energy.ThermoQuery{Year: 2023, Subcategory: "Celle combustibili"}, true,
			[]string{romaCelle}},
		{"subcategory without category", energy.ThermoQuery{Year: 2023, Subcategory: "Contropressione"}, true,
			[]string{siracusa}},
		{"category and subcategory over provinces", energy.ThermoQuery{
			Year: 2023, Provinces: []string{"Brindisi", "Roma"}, Category: "Non cogenerativa", Subcategory: "Condensazione",
		}, true, []string{romaCond, brindisiCondL, brindisiCondN}},
		{"category with no records in region", energy.ThermoQuery{Year: 2023, Region: "Lazio", Category: "Cogenerativa"}, true, []string{}},
		{"category absent from year", energy.ThermoQuery{Year: 2022, Category: "Cogenerativa"}, true, []string{}},
		{"unknown province with category absent from year", energy.ThermoQuery{
			Year: 2022, Category: "Cogenerativa", Provinces: []string{"Atlantide"},
		}, false, nil},
		{"unknown category", energy.ThermoQuery{Year: 2023, Category: "Geotermica"}, false, nil},
		{"unknown subcategory", energy.ThermoQuery{Year: 2023, Subcategory: "Nucleare"}, false, nil},
		{"subcategory of another category", energy.ThermoQuery{Year: 2023, Category: "Cogenerativa", Subcategory: "Condensazione"}, false, nil},
		{"unknown region", energy.ThermoQuery{Year: 2023, Region: "Apulia"}, false, nil},
		{"one unknown province", energy.ThermoQuery{Year: 2023, Provinces: []string{"Roma", "Atlantide"}}, false, nil},
		{"unknown province in year without records", energy.ThermoQuery{Year: 1999, Provinces: []string{"Atlantide"}}, false, nil},
	}
	ix := energy.NewThermoIndex(indexFixture())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, known := ix.Query(tt.q)
			if known != tt.wantKnown {
				t.Fatalf("Query(%+v) known = %v, want %v", tt.q, known, tt.wantKnown)
			}
			if !known {
				if recs != nil {
					t.Errorf("Query(%+v) = %q with known false, want nil", tt.q, describe(recs))
				}
				return
			}
			if recs == nil {
				t.Errorf("Query(%+v) = nil with known true, want a non-nil slice", tt.q)
			}
			if got := describe(recs); !slices.Equal(got, tt.want) {
				t.Errorf("Query(%+v)\ngot  %q\nwant %q", tt.q, got, tt.want)
			}
		})
	}
}

func TestThermoIndexCopiesInput(t *testing.T) {
	recs := indexFixture()
	ix := energy.NewThermoIndex(recs)
	for i := range recs {
		recs[i].ProductionGWh = -1
		recs[i].Province = "Bari"
	}
	got, _ := ix.Query(energy.ThermoQuery{Year: 2022})
	want := []string{"2022 Puglia/Brindisi/Non cogenerativa/Condensazione/Lorda 6000"}
	if !slices.Equal(describe(got), want) {
		t.Errorf("after modifying the input, got %q, want %q", describe(got), want)
	}
}

func TestThermoIndexAppendToResult(t *testing.T) {
	ix := energy.NewThermoIndex(indexFixture())
	extra := rec(2023, "Lorda", "Puglia", "Brindisi", "Cogenerativa", "Contropressione", 1)
	for _, q := range []energy.ThermoQuery{
		{Year: 2023, Provinces: []string{"Bari"}}, // the span just before Brindisi's
		{Year: 2022}, // the year just before 2023
	} {
		got, _ := ix.Query(q)
		if longer := append(got, extra); len(longer) != len(got)+1 {
			t.Fatalf("append to Query(%+v): got length %d, want %d", q, len(longer), len(got)+1)
		}
	}

	got, _ := ix.Query(energy.ThermoQuery{Year: 2023, Region: "Puglia"})
	want := []string{
		"2023 Puglia/Bari/Non cogenerativa/Turbine a gas/Lorda 10",
		"2023 Puglia/Brindisi/Cogenerativa/Ciclo combinato con cogenerazione/Lorda 900",
		"2023 Puglia/Brindisi/Non cogenerativa/Condensazione/Lorda 5000",
		"2023 Puglia/Brindisi/Non cogenerativa/Condensazione/Netta 4800",
	}
	if !slices.Equal(describe(got), want) {
		t.Errorf("after appending to results, got %q, want %q", describe(got), want)
	}
}

func TestThermoIndexYears(t *testing.T) {
	ix := energy.NewThermoIndex(indexFixture())
	if got, want := ix.Years(), []int{2022, 2023}; !slices.Equal(got, want) {
		t.Errorf("Years() = %v, want %v", got, want)
	}
	empty := energy.NewThermoIndex(nil)
	if got := empty.Years(); len(got) != 0 {
		t.Errorf("empty index: Years() = %v, want none", got)
	}
	if recs, known := empty.Query(energy.ThermoQuery{Year: 2023}); known || recs != nil {
		t.Errorf("empty index: Query = %v, %v; want nil, false", recs, known)
	}
}

// TestThermoIndexQueryAllocations checks that queries answered by one span of
// the index build no slice per request.
func TestThermoIndexQueryAllocations(t *testing.T) {
	ix := energy.NewThermoIndex(indexFixture())
	tests := []struct {
		name string
		q    energy.ThermoQuery
	}{
		{"whole year", energy.ThermoQuery{Year: 2023}},
		{"region", energy.ThermoQuery{Year: 2023, Region: "Puglia"}},
		{"one province", energy.ThermoQuery{Year: 2023, Provinces: []string{"Brindisi"}}},
		{"region in other case", energy.ThermoQuery{Year: 2023, Region: " PUGLIA "}},
		{"region and category", energy.ThermoQuery{Year: 2023, Region: "Puglia", Category: "Non cogenerativa"}},
		{"whole year, subcategory", energy.ThermoQuery{Year: 2023, Subcategory: "Condensazione"}},
		{"one province, category alias", energy.ThermoQuery{Year: 2023, Provinces: []string{"Brindisi"}, Category: "Non cogenerative"}},
		{"unknown region", energy.ThermoQuery{Year: 2023, Region: "Apulia"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := testing.AllocsPerRun(100, func() { ix.Query(tt.q) }); got != 0 {
				t.Errorf("Query(%+v) allocates %v times per run, want 0", tt.q, got)
			}
		})
	}
}

// benchIndex holds every province with every subcategory and both capacity
// types for ten years: more records than real data, so the figures are an
// upper bound.
func benchIndex(tb testing.TB) *energy.ThermoIndex {
	tb.Helper()
	var recs []energy.ThermoRecord
	for year := 2015; year <= 2024; year++ {
		for _, region := range energy.Regions() {
			for _, province := range energy.Provinces(region) {
				for _, cat := range energy.Categories() {
					for _, sub := range energy.Subcategories(cat) {
						for _, ct := range energy.CapacityTypes() {
							recs = append(recs, rec(year, ct, region, province, cat, sub, 1.5))
						}
					}
				}
			}
		}
	}
	return energy.NewThermoIndex(recs)
}

func BenchmarkThermoQuery(b *testing.B) {
	ix := benchIndex(b)
	benchmarks := []struct {
		name string
		q    energy.ThermoQuery
	}{
		{"italy-one-year", energy.ThermoQuery{Year: 2020}},
		{"one-province", energy.ThermoQuery{Year: 2020, Provinces: []string{"Brindisi"}}},
		{"two-provinces-category", energy.ThermoQuery{Year: 2020, Provinces: []string{"Brindisi", "Roma"}, Category: "Cogenerativa"}},
		{"region-lowercase-category-alias", energy.ThermoQuery{Year: 2020, Region: "lombardia", Category: "Non cogenerative"}},
	}
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			for b.Loop() {
				if _, known := ix.Query(bm.q); !known {
					b.Fatalf("Query(%+v) known = false", bm.q)
				}
			}
		})
	}
}

func BenchmarkNewThermoIndex(b *testing.B) {
	var recs []energy.ThermoRecord
	for _, region := range energy.Regions() {
		for _, province := range energy.Provinces(region) {
			for _, sub := range energy.Subcategories("Cogenerativa") {
				recs = append(recs, rec(2020, "Lorda", region, province, "Cogenerativa", sub, 1))
			}
		}
	}
	for b.Loop() {
		energy.NewThermoIndex(recs)
	}
}
