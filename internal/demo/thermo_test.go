package demo_test

import (
	"cmp"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// thermoRec is a row of demo.Thermoelectric with its fields named, in the
// order the thermoelectric descriptor declares them.
type thermoRec struct {
	Year                                                  int
	CapacityType, Region, Province, Category, Subcategory string
	ProductionGWh                                         float64
}

func thermoRecs(tb testing.TB) []thermoRec {
	tb.Helper()
	var out []thermoRec
	for _, r := range demo.Thermoelectric() {
		if len(r.Text) != 5 || len(r.Num) != 1 {
			tb.Fatalf("row %+v: want 5 text and 1 number values", r)
		}
		out = append(out, thermoRec{time.Unix(r.Time, 0).In(energy.Rome()).Year(),
			r.Text[0], r.Text[1], r.Text[2], r.Text[3], r.Text[4], r.Num[0]})
	}
	return out
}

func TestThermoelectricDeterministic(t *testing.T) {
	a, b := demo.Thermoelectric(), demo.Thermoelectric()
	if len(a) == 0 {
		t.Fatal("got no records, want some")
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("two calls returned different records, want the same")
	}
	a[0].Num[0], a[0].Text[0] = -1, "changed"
	if c := demo.Thermoelectric(); !reflect.DeepEqual(c[0], b[0]) {
		t.Errorf("after modifying a returned record, the next call returned %+v, want %+v", c[0], b[0])
	}
}

// TestThermoelectricRecordsValid checks every record against the
// thermoelectric descriptor: canonical names, a province of its region, a
// subcategory of its category, one record per key.
func TestThermoelectricRecordsValid(t *testing.T) {
	c, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	d, _ := c.Lookup("thermoelectric")
	seen := map[string]bool{}
	for _, r := range demo.Thermoelectric() {
		got := dataset.Row{Time: r.Time, Text: slices.Clone(r.Text), Num: slices.Clone(r.Num)}
		if err := c.Canonical(d, &got); err != nil {
			t.Fatalf("record %+v: %v", r, err)
		}
		if !slices.Equal(got.Text, r.Text) {
			t.Fatalf("record %+v is not canonical: the descriptor gives %q", r, got.Text)
		}
		if r.Num[0] <= 0 {
			t.Errorf("record %+v: got production %v, want above zero", r, r.Num[0])
		}
		if milli := r.Num[0] * 1000; math.Abs(milli-math.Round(milli)) > 1e-6 {
			t.Errorf("record %+v: got production %v, want it rounded to 3 decimals", r, r.Num[0])
		}
		if k := c.KeyOf(d, r); seen[k] {
			t.Errorf("key %q appears twice, want once", k)
		} else {
			seen[k] = true
		}
	}
}

func TestThermoelectricOrdered(t *testing.T) {
	recs := thermoRecs(t)
	ordered := slices.IsSortedFunc(recs, func(a, b thermoRec) int {
		return cmp.Or(cmp.Compare(a.Year, b.Year), strings.Compare(a.Region, b.Region),
			strings.Compare(a.Province, b.Province), strings.Compare(a.Category, b.Category),
			strings.Compare(a.Subcategory, b.Subcategory), strings.Compare(a.CapacityType, b.CapacityType))
	})
	if !ordered {
		t.Error("records are not ordered by year, region, province, category, subcategory, capacity type")
	}
}

func TestThermoelectricYearlyGross(t *testing.T) {
	gross := map[int]float64{}
	for _, r := range thermoRecs(t) {
		if r.CapacityType == energy.Lorda {
			gross[r.Year] += r.ProductionGWh
		}
	}
	for year := 2015; year <= 2024; year++ {
		t.Run(strconv.Itoa(year), func(t *testing.T) {
			if g := gross[year]; g < 150_000 || g > 200_000 {
				t.Errorf("got gross production %.3f GWh in %d, want 150000 to 200000", g, year)
			}
		})
	}
	if len(gross) != 10 {
		t.Errorf("got records for %d years, want 10 (2015 to 2024)", len(gross))
	}
}

// TestThermoelectricCoalPhaseDown checks the trend the data is meant to show:
// non-cogenerative condensing (coal and oil) output in 2024 is well below
// half of 2015's.
func TestThermoelectricCoalPhaseDown(t *testing.T) {
	condensing := map[int]float64{}
	for _, r := range thermoRecs(t) {
		if r.CapacityType == energy.Lorda && r.Category == energy.NonCogenerativa && r.Subcategory == "Condensazione" {
			condensing[r.Year] += r.ProductionGWh
		}
	}
	if condensing[2024] >= condensing[2015]/2 {
		t.Errorf("got condensing output %.0f GWh in 2024 and %.0f in 2015, want 2024 below half of 2015", condensing[2024], condensing[2015])
	}
}

func TestThermoelectricNetBelowGross(t *testing.T) {
	type site struct {
		year                                    int
		region, province, category, subcategory string
	}
	gross, net := map[site]float64{}, map[site]float64{}
	for _, r := range thermoRecs(t) {
		s := site{r.Year, r.Region, r.Province, r.Category, r.Subcategory}
		switch r.CapacityType {
		case energy.Lorda:
			gross[s] = r.ProductionGWh
		case energy.Netta:
			net[s] = r.ProductionGWh
		}
	}
	if len(gross) != len(net) {
		t.Errorf("got %d gross records and %d net ones, want a net record for each gross one", len(gross), len(net))
	}
	for s, g := range gross {
		n, ok := net[s]
		if !ok {
			t.Errorf("%+v: got gross %v and no net record, want one", s, g)
			continue
		}
		if below := (g - n) / g; below < 0.01 || below > 0.06 {
			t.Errorf("%+v: got net %v for gross %v (%.2f%% below), want 1%% to 6%% below", s, n, g, below*100)
		}
	}
}

func TestThermoelectricCoverage(t *testing.T) {
	recs := thermoRecs(t)
	provinces := map[string]bool{}
	categories := map[int]map[string]bool{}
	for _, r := range recs {
		provinces[r.Province] = true
		if categories[r.Year] == nil {
			categories[r.Year] = map[string]bool{}
		}
		categories[r.Year][r.Category] = true
	}
	var without []string
	for _, region := range energy.Regions() {
		for _, p := range energy.Provinces(region) {
			if !provinces[p] {
				without = append(without, p)
			}
		}
	}
	if len(without) == 0 {
		t.Error("every province has records, want at least one without")
	}
	if len(provinces) < 60 {
		t.Errorf("got records in %d provinces, want at least 60", len(provinces))
	}
	for year, cats := range categories {
		if !cats[energy.NonCogenerativa] || !cats[energy.Cogenerativa] {
			t.Errorf("%d: got categories %v, want both %q and %q", year, cats, energy.NonCogenerativa, energy.Cogenerativa)
		}
	}
}
