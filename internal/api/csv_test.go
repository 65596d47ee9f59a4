package api_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/energy"
)

// catalogueQuery is one dataset of GET /catalog with a query that selects
// some of its records.
type catalogueQuery struct {
	Path, Array, Query string
	Fields             []string
}

// catalogueQueries returns, for every dataset GET /catalog lists, a query
// from the catalogue alone: the last covered day, month or year, and the
// first value of a required list. A dataset without data fails tb: a test
// over the catalogue runs on data for every dataset.
func catalogueQueries(tb testing.TB, h *harness) []catalogueQuery {
	tb.Helper()
	var cat struct {
		Datasets []struct {
			Path   string `json:"path"`
			Array  string `json:"array"`
			Fields []struct {
				Name string `json:"name"`
			} `json:"fields"`
			Parameters []struct {
				Name     string   `json:"name"`
				Kind     string   `json:"kind"`
				Required bool     `json:"required"`
				Values   []string `json:"values"`
			} `json:"parameters"`
			Coverage *struct {
				Last string `json:"last"`
			} `json:"coverage"`
		} `json:"datasets"`
	}
	if err := json.Unmarshal(h.get(tb, "/catalog").body, &cat); err != nil {
		tb.Fatal(err)
	}
	var out []catalogueQuery
	for _, d := range cat.Datasets {
		if d.Coverage == nil {
			tb.Errorf("%s: no data in the fixture", d.Path)
			continue
		}
		last := d.Coverage.Last // yyyy-mm-dd
		v := url.Values{}
		for _, p := range d.Parameters {
			switch {
			case p.Kind == "date":
				v.Set(p.Name, last[8:10]+"/"+last[5:7]+"/"+last[:4])
			case p.Kind == "year":
				v.Set(p.Name, last[:4])
			case p.Kind == "month" && p.Required:
				v.Set(p.Name, last[5:7])
			case p.Kind == "enum" && p.Required && len(p.Values) > 0:
				v.Set(p.Name, p.Values[0])
			}
		}
		q := catalogueQuery{Path: d.Path, Array: d.Array, Query: v.Encode()}
		for _, f := range d.Fields {
			q.Fields = append(q.Fields, f.Name)
		}
		out = append(out, q)
	}
	return out
}

// TestEveryDatasetAsCSV asks every dataset of the catalogue for CSV, by
// format=csv and by Accept, and compares it with the JSON answer: a header
// row of the field names, then the same strings, record by record. It runs
// on every dataset's demo data of two days.
func TestEveryDatasetAsCSV(t *testing.T) {
	t.Parallel()
	cat, src := demoDays(t, energy.Date{Year: 2024, Month: time.October, Day: 26}, energy.Date{Year: 2024, Month: time.October, Day: 27})
	h := newHarnessWith(t, apitest.Options{Catalog: cat, Source: src})
	for _, d := range catalogueQueries(t, h) {
		t.Run(d.Path, func(t *testing.T) { checkCSVMatchesJSON(t, h, d) })
	}
}

func checkCSVMatchesJSON(t *testing.T, h *harness, d catalogueQuery) {
	q := d.Query
	js := h.get(t, d.Path+"?"+q)
	var records []map[string]string
	if err := decodeArray(js.body, d.Array, &records); err != nil {
		t.Fatalf("JSON answer: %v: %.300s", err, js.body)
	}
	if len(records) == 0 {
		t.Fatalf("%s selects no records; pick a query that does", q)
	}
	for name, r := range map[string]response{
		"format=csv":  h.get(t, d.Path+"?"+q+"&format=csv"),
		"Accept":      h.get(t, d.Path+"?"+q, "Accept", "text/csv"),
		"format wins": h.get(t, d.Path+"?"+q+"&format=csv", "Accept", "application/json"),
	} {
		if r.status != http.StatusOK || r.header.Get("Content-Type") != "text/csv; charset=utf-8" {
			t.Fatalf("%s: got %d %q, want 200 text/csv", name, r.status, r.header.Get("Content-Type"))
		}
		rows, err := csv.NewReader(bytes.NewReader(r.body)).ReadAll()
		if err != nil {
			t.Fatalf("%s: not RFC 4180 CSV: %v", name, err)
		}
		if len(rows) != len(records)+1 {
			t.Fatalf("%s: got %d rows, want a header and %d records", name, len(rows), len(records))
		}
		for i, f := range d.Fields {
			if rows[0][i] != f {
				t.Errorf("%s: header column %d: got %q, want %q", name, i, rows[0][i], f)
			}
		}
		for i, rec := range records {
			for j, f := range d.Fields {
				if got, want := rows[i+1][j], rec[f]; got != want {
					t.Errorf("%s: record %d %s: got %q, want %q as in the JSON answer", name, i, f, got, want)
				}
			}
		}
	}
}

func TestFormatParameter(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, apitest.Options{Load: someLoad(t)})
	q := totalLoadPath + "?dateFrom=31/3/2024&dateTo=31/3/2024"
	tests := []struct {
		name        string
		query       string
		accept      string
		status      int
		contentType string
	}{
		{"default is JSON", q, "", http.StatusOK, "application/json"},
		{"format=json", q + "&format=json", "text/csv", http.StatusOK, "application/json"},
		{"format=csv", q + "&format=csv", "", http.StatusOK, "text/csv; charset=utf-8"},
		{"unknown format", q + "&format=xml", "", http.StatusNotAcceptable, "application/json"},
		{"format twice", q + "&format=csv&format=json", "", http.StatusNotAcceptable, "application/json"},
		{"unknown Accept", q, "application/xml", http.StatusNotAcceptable, "application/json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := h.get(t, tc.query, "Accept", tc.accept)
			if r.status != tc.status || r.header.Get("Content-Type") != tc.contentType {
				t.Errorf("got %d %q, want %d %q", r.status, r.header.Get("Content-Type"), tc.status, tc.contentType)
			}
		})
	}
}
