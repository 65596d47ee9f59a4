package api

import (
	"net/url"
	"slices"
	"strconv"
	"testing"

	"github.com/energyapi/energyapi/internal/energy"
)

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
		tq, err := parseThermoQuery(q)
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
		for name, got := range map[string]string{"region": tq.Region, "category": tq.Category, "subcategory": tq.Subcategory} {
			if len(q[name]) > 1 {
				t.Fatalf("parseThermoQuery(%q) accepted %d values of %s, want at most one", raw, len(q[name]), name)
			}
			if got != q.Get(name) {
				t.Fatalf("parseThermoQuery(%q): %s %q, want %q", raw, name, got, q.Get(name))
			}
		}
		want := slices.DeleteFunc(slices.Clone(q["province"]), func(s string) bool { return s == "" })
		if !slices.Equal(tq.Provinces, want) {
			t.Fatalf("parseThermoQuery(%q): provinces %q, want %q", raw, tq.Provinces, want)
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
		dr, err := parseDateRange(q, limit)
		if err != nil {
			if c := energy.ErrorCode(err); c != energy.Invalid || energy.ErrorMessage(err) == "" {
				t.Fatalf("parseDateRange(%q, %d): error %q with code %q, want an Invalid error with a message", raw, limit, err, c)
			}
			return
		}
		for name, got := range map[string]energy.Date{"dateFrom": dr.from, "dateTo": dr.to} {
			if len(q[name]) != 1 {
				t.Fatalf("parseDateRange(%q) accepted %d values of %s, want exactly one", raw, len(q[name]), name)
			}
			want, err := energy.ParseDate(q[name][0])
			if err != nil || want != got {
				t.Fatalf("parseDateRange(%q): %s %v, but ParseDate(%q) = %v, %v", raw, name, got, q[name][0], want, err)
			}
		}
		if dr.from.Compare(dr.to) > 0 {
			t.Fatalf("parseDateRange(%q): from %v after to %v", raw, dr.from, dr.to)
		}
		if days := dr.from.DaysUntil(dr.to) + 1; limit > 0 && days > limit {
			t.Fatalf("parseDateRange(%q, %d): accepted %d days", raw, limit, days)
		}
	})
}
