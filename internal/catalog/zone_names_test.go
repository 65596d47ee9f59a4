package catalog

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// zoneAreas are the fields named like zones that name larger areas, each
// checked on its own below.
var zoneAreas = map[string]bool{
	"market-afrr-requirement/zone":   true, // afrrAreas: groups of zones
	"aste-fcr/zone":                  true, // the FCR auction's two areas
	"commercial-balance-prices/zone": true, // the zones' codes and the borders' virtual zones
}

// zoneFields returns the text fields of the catalogue that name bidding
// zones, as dataset/field: every field whose name says zone (but not
// macrozone) or area (but not macroarea).
func zoneFields() map[string]dataset.Field {
	out := map[string]dataset.Field{}
	for _, d := range All() {
		for _, f := range d.Fields {
			name := strings.ToLower(f.Name)
			if f.Kind == dataset.Text && (strings.Contains(name, "zone") && !strings.Contains(name, "macrozone") || name == "area") {
				out[d.Name+"/"+f.Name] = f
			}
		}
	}
	return out
}

// TestZonesAreTheDomainTable checks every place of the catalogue that
// names bidding zones against energy.BiddingZones: a zone field lists the
// seven zones in one of the domain's vocabularies (Italy added where the
// v2.0 load pages have it), except the fields of larger areas, which are
// checked for what they group.
func TestZonesAreTheDomainTable(t *testing.T) {
	vocab := map[string]bool{}
	for _, v := range energy.ZoneVocabs() {
		vocab[strings.Join(v.Names(), ",")] = true
	}
	fields := zoneFields()
	if len(fields) < 20 {
		t.Fatalf("found %d zone fields, want the catalogue's (at least 20)", len(fields))
	}
	for key, f := range fields {
		if f.Ref == nil {
			t.Errorf("%s: no reference list", key)
			continue
		}
		values := f.Ref.Values()
		if zoneAreas[key] {
			continue
		}
		if values[len(values)-1] == string(energy.Italy) {
			values = values[:len(values)-1]
		}
		if !vocab[strings.Join(values, ",")] {
			t.Errorf("%s lists %v, not the seven zones in one of energy.ZoneVocabs", key, values)
		}
	}
	balance := fields["commercial-balance-prices/zone"].Ref.Values()
	for _, z := range energy.ZoneCode.Names() {
		if !slices.Contains(balance, z) {
			t.Errorf("commercial-balance-prices/zone lacks the zone code %s", z)
		}
	}
	for g, name := range afrrAreas.Names {
		var members []string
		for z, bz := range energy.BiddingZones() {
			if afrrAreas.Of[z] == g {
				members = append(members, string(bz.Zone))
			}
		}
		if len(members) == 1 && members[0] != name {
			t.Errorf("aFRR area %s holds only %s: want it named so", name, members[0])
		}
		if len(members) == 0 {
			t.Errorf("aFRR area %s holds no zone", name)
		}
	}
	for _, l := range energy.ZoneLinks() {
		for _, z := range l {
			if !slices.Contains(energy.Zones()[:7], z) {
				t.Errorf("zone link %v names %s, not a bidding zone", l, z)
			}
		}
	}
}

// TestDemoZonesAsDeclared checks that the demo data name the zones as
// their descriptors declare: every zone field's demo values are exactly
// its reference list.
func TestDemoZonesAsDeclared(t *testing.T) {
	t.Parallel()
	c := mustNew(t)
	in := dataset.DemoInput{First: energy.Date{Year: 2025, Month: time.December, Day: 18}, Last: energy.Date{Year: 2025, Month: time.December, Day: 31}}
	fields := zoneFields()
	checked := 0
	err := c.EachDemo(in, func(_, _ int, d *dataset.Dataset, generate func() []dataset.Row) error {
		rows := generate() // also for the generators that read it
		texts := d.TextFields()
		var cols []int
		for i, name := range texts {
			if _, ok := fields[d.Name+"/"+name]; ok {
				cols = append(cols, i)
			}
		}
		if len(cols) == 0 {
			return nil
		}
		for _, i := range cols {
			seen := map[string]bool{}
			for _, r := range rows {
				seen[r.Text[i]] = true
			}
			want := fields[d.Name+"/"+texts[i]].Ref.Values()
			var got []string
			for _, v := range want {
				if seen[v] {
					got = append(got, v)
				}
			}
			if len(got) != len(want) || len(seen) != len(want) {
				t.Errorf("%s/%s: demo names %d zones (%v), want the %d declared (%v)", d.Name, texts[i], len(seen), seen, len(want), want)
			}
			checked++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Errorf("checked %d zone fields, want at least 20", checked)
	}
}
