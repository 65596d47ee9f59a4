package api_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// TestEveryDatasetAsCSV asks every dataset of the catalogue for CSV, by
// format=csv and by Accept, and compares it with the JSON answer: a header
// row of the field names, then the same strings, record by record.
func TestEveryDatasetAsCSV(t *testing.T) {
	_, last := demo.LoadRange()
	h := newHarnessWith(t, apitest.Options{Data: energy.Data{Thermo: demo.Thermoelectric()}, Load: demo.TotalLoad(last.AddDays(-2), last)})
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
	if err := json.Unmarshal(h.get(t, "/catalog").body, &cat); err != nil {
		t.Fatal(err)
	}
	tested := map[string]bool{}
	for _, d := range cat.Datasets {
		if d.Coverage == nil {
			t.Logf("%s: no data in this fixture, not tested", d.Path)
			continue
		}
		// A query from the catalogue: the last covered day, month or year,
		// and the first value of a required list.
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
		q := v.Encode()
		tested[d.Path] = true
		t.Run(d.Path, func(t *testing.T) {
			js := h.get(t, d.Path+"?"+q)
			var body map[string]json.RawMessage
			if err := json.Unmarshal(js.body, &body); err != nil {
				t.Fatalf("JSON answer: %v: %s", err, js.body)
			}
			var records []map[string]string
			if err := json.Unmarshal(body[d.Array], &records); err != nil {
				t.Fatal(err)
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
					if rows[0][i] != f.Name {
						t.Errorf("%s: header column %d: got %q, want %q", name, i, rows[0][i], f.Name)
					}
				}
				for i, rec := range records {
					for j, f := range d.Fields {
						if got, want := rows[i+1][j], rec[f.Name]; got != want {
							t.Errorf("%s: record %d %s: got %q, want %q as in the JSON answer", name, i, f.Name, got, want)
						}
					}
				}
			}
		})
	}
	for _, p := range []string{"/load/v2.0/total-load", "/load/v2.0/peak-valley-load", "/generation/v2.0/thermoelectric-production"} {
		if !tested[p] {
			t.Errorf("%s: not tested; the fixture should hold its data", p)
		}
	}
}

func TestFormatParameter(t *testing.T) {
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
