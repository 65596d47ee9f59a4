package dataset_test

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// family returns the catalogue of the served datasets.
func family(tb testing.TB) *dataset.Catalog {
	tb.Helper()
	c, err := catalog.New()
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// parse parses q for the named dataset of the catalogue.
func parse(t *testing.T, name string, q url.Values, maxDays int) (*dataset.Query, error) {
	t.Helper()
	c := family(t)
	d, _ := c.Lookup(name)
	return c.ParseQuery(d, q, dataset.Limits{MaxRangeDays: maxDays, Now: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)})
}

// The query parsers read strangers' URLs. For any query string they must
// either return what the query says or an Invalid error, never panic, and
// never accept a value they then misreport.

// fuzzQuery parses raw as the server does: r.URL.Query() keeps what it can
// and drops malformed pairs.
func fuzzQuery(raw string) url.Values {
	q, _ := url.ParseQuery(raw)
	return q
}

func FuzzParseThermoQuery(f *testing.F) {
	for _, s := range []string{
		// The specification's filters with its example values.
		"year=2023&region=Abruzzo&province=Chieti&category=Non+cogenerativa&subcategory=Ciclo+combinato",
		"year=2023&region=Friuli-Venezia+Giulia&province=Udine&province=Chieti&category=Cogenerativa&subcategory=Contropressione",
		"year=2023&category=Non%20cogenerative&subcategory=Celle%20combustibili",
		"year=2023&region=", "year=", "year=20x3", "year=2023&year=2024", "region=Puglia",
		"year=-0&province=&province=Udine", "year=99999999999999999999", "year=%zz&region=Abruzzo",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q := fuzzQuery(raw)
		tq, err := parse(t, "thermoelectric", q, 60)
		if err != nil {
			if c := energy.ErrorCode(err); c != energy.Invalid || energy.ErrorMessage(err) == "" {
				t.Fatalf("parseThermoQuery(%q): error %q with code %q, want an Invalid error with a message", raw, err, c)
			}
			return
		}
		if len(q["year"]) != 1 {
			t.Fatalf("parseThermoQuery(%q) accepted year values %q, want exactly one", raw, q["year"])
		}
		if y, err := strconv.Atoi(q["year"][0]); err != nil || y != tq.Year {
			t.Fatalf("parseThermoQuery(%q): year %d from %q", raw, tq.Year, q["year"][0])
		}
		for _, name := range []string{"region", "category", "subcategory"} {
			if len(q[name]) > 1 {
				t.Fatalf("parseThermoQuery(%q) accepted %d values of %s, want at most one", raw, len(q[name]), name)
			}
		}
		// The key names every filter value given, in canonical form.
		for _, name := range []string{"region", "province", "category", "subcategory"} {
			if vs := slices.DeleteFunc(slices.Clone(q[name]), func(s string) bool { return s == "" }); len(vs) > 0 && !strings.Contains(tq.Key(), "|"+name+"=") {
				t.Fatalf("parseThermoQuery(%q): key %q lacks %s", raw, tq.Key(), name)
			}
		}
	})
}

func FuzzParseDateRange(f *testing.F) {
	for _, s := range []struct {
		raw string
		max uint16
	}{
		// The specification's format and the reference notes' examples.
		{"dateFrom=23/04/2022&dateTo=23/04/2022", 60},
		{"dateFrom=15/2/2021&dateTo=15/3/2021", 60},
		{"dateFrom=01/01/2024&dateTo=31/12/2024", 0},
		{"dateFrom=01/01/2024&dateTo=31/12/2024", 60},
		{"dateFrom=28/02/2024&dateTo=01/03/2024", 2},
		{"dateFrom=31/02/2024&dateTo=01/03/2024", 60},
		{"dateFrom=02/01/2024&dateTo=01/01/2024", 60},
		{"dateFrom=1/1/0001&dateTo=31/12/9999", 0},
		{"dateFrom=2024-01-01&dateTo=01/01/2024", 60},
		{"dateFrom=01%2F01%2F2024&dateTo=01/01/2024&dateTo=02/01/2024", 60},
	} {
		f.Add(s.raw, s.max)
	}
	f.Fuzz(func(t *testing.T, raw string, maxDays uint16) {
		q := fuzzQuery(raw)
		limit := int(maxDays % 400)
		dr, err := parse(t, "peak-valley", q, limit)
		if err != nil {
			if c := energy.ErrorCode(err); c != energy.Invalid || energy.ErrorMessage(err) == "" {
				t.Fatalf("parseDateRange(%q, %d): error %q with code %q, want an Invalid error with a message", raw, limit, err, c)
			}
			return
		}
		for name, got := range map[string]energy.Date{"dateFrom": dr.From, "dateTo": dr.To} {
			if len(q[name]) != 1 {
				t.Fatalf("parseDateRange(%q) accepted %d values of %s, want exactly one", raw, len(q[name]), name)
			}
			want, err := energy.ParseDate(q[name][0])
			if err != nil || want != got {
				t.Fatalf("parseDateRange(%q): %s %v, but ParseDate(%q) = %v, %v", raw, name, got, q[name][0], want, err)
			}
		}
		if dr.From.Compare(dr.To) > 0 {
			t.Fatalf("parseDateRange(%q): from %v after to %v", raw, dr.From, dr.To)
		}
		if days := dr.From.DaysUntil(dr.To) + 1; limit > 0 && days > limit {
			t.Fatalf("parseDateRange(%q, %d): accepted %d days", raw, limit, days)
		}
	})
}
