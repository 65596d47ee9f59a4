package api_test

import (
	"encoding/json"
	"net/http"
	"os"
	"testing"

	"github.com/energyapi/energyapi/internal/api/apitest"
)

// thermoData is a small hand-written dataset; expected answers below are
// written from it by hand.
func thermoData() apitest.Rows {
	rec := apitest.Thermo
	return apitest.Rows{"thermoelectric": {
		rec(2023, "Netta", "Puglia", "Brindisi", "Non cogenerativa", "Condensazione", 5012.1),
		rec(2023, "Lorda", "Puglia", "Brindisi", "Non cogenerativa", "Condensazione", 5234.5678),
		rec(2023, "Lorda", "Puglia", "Taranto", "Cogenerativa", "Contropressione", 0.408),
		rec(2023, "Lorda", "Puglia", "Taranto", "Non cogenerativa", "Celle a combustibile", 20.976),
		rec(2023, "Lorda", "Abruzzo", "Chieti", "Cogenerativa", "Ciclo combinato con cogenerazione", 1234.567),
		rec(2023, "Lorda", "Lombardia", "Milano", "Non cogenerativa", "Ciclo combinato", 27389.4),
		rec(2022, "Lorda", "Puglia", "Brindisi", "Non cogenerativa", "Condensazione", -16368.385),
	}}
}

type thermoBody struct {
	Result struct {
		Message string `json:"message"`
		Status  string `json:"status"`
	} `json:"result"`
	Thermoelectric []map[string]any `json:"thermoelectric"`
}

const thermoPath = "/generation/v2.0/thermoelectric-production"

func TestThermoelectricGolden(t *testing.T) {
	t.Parallel()
	h := newHarness(t, thermoData())
	r := h.get(t, thermoPath+"?year=2023")
	want, err := os.ReadFile("testdata/thermoelectric_2023.json")
	if err != nil {
		t.Fatal(err)
	}
	if r.status != http.StatusOK || string(r.body) != string(want[:len(want)-1]) { // the file ends in a newline
		t.Errorf("got %d\n%s\nwant 200\n%s", r.status, r.body, want)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type: got %q, want application/json", ct)
	}
}

func TestThermoelectricFilters(t *testing.T) {
	t.Parallel()
	h := newHarness(t, thermoData())
	cases := []struct {
		name  string
		query string
		want  []string // province/subcategory/capacity_type of each record, in order
	}{
		{"region", "year=2023&region=Puglia", []string{"Brindisi/Condensazione/Lorda", "Brindisi/Condensazione/Netta", "Taranto/Contropressione/Lorda", "Taranto/Celle a combustibile/Lorda"}},
		{"one province", "year=2023&province=Brindisi", []string{"Brindisi/Condensazione/Lorda", "Brindisi/Condensazione/Netta"}},
		{"provinces are ORed", "year=2023&province=Chieti&province=Milano", []string{"Chieti/Ciclo combinato con cogenerazione/Lorda", "Milano/Ciclo combinato/Lorda"}},
		{"category", "year=2023&category=Cogenerativa", []string{"Chieti/Ciclo combinato con cogenerazione/Lorda", "Taranto/Contropressione/Lorda"}},
		{"category alias of the examples", "year=2023&category=Non+cogenerative&region=Puglia", []string{"Brindisi/Condensazione/Lorda", "Brindisi/Condensazione/Netta", "Taranto/Celle a combustibile/Lorda"}},
		{"subcategory alias of the examples", "year=2023&category=Non+cogenerativa&subcategory=Celle+combustibili", []string{"Taranto/Celle a combustibile/Lorda"}},
		{"subcategory without category", "year=2023&subcategory=Contropressione", []string{"Taranto/Contropressione/Lorda"}},
		{"all filters ANDed", "year=2023&region=Puglia&province=Taranto&category=Non+cogenerativa&subcategory=Celle+a+combustibile", []string{"Taranto/Celle a combustibile/Lorda"}},
		{"known values, no match", "year=2023&region=Abruzzo&province=Brindisi", []string{}},
		{"known category, no match in province", "year=2023&province=Milano&category=Cogenerativa", []string{}},
		{"empty optional parameters are absent", "year=2022&region=&category=", []string{"Brindisi/Condensazione/Lorda"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := h.get(t, thermoPath+"?"+tc.query)
			if r.status != http.StatusOK {
				t.Fatalf("status: got %d, want 200 (%s)", r.status, r.body)
			}
			var b thermoBody
			if err := json.Unmarshal(r.body, &b); err != nil {
				t.Fatal(err)
			}
			if b.Result.Message != "OK" || b.Result.Status != "Completed" {
				t.Errorf("result: got %+v, want OK/Completed", b.Result)
			}
			if b.Thermoelectric == nil {
				t.Fatalf("thermoelectric: got null, want an array")
			}
			got := make([]string, len(b.Thermoelectric))
			for i, rec := range b.Thermoelectric {
				got[i] = rec["province"].(string) + "/" + rec["subcategory"].(string) + "/" + rec["capacity_type"].(string)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("record %d: got %s, want %s", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestThermoelectricNumbersAreItalianStrings(t *testing.T) {
	t.Parallel()
	h := newHarness(t, thermoData())
	r := h.get(t, thermoPath+"?year=2022")
	var b thermoBody
	if err := json.Unmarshal(r.body, &b); err != nil {
		t.Fatal(err)
	}
	if len(b.Thermoelectric) != 1 {
		t.Fatalf("got %d records, want 1", len(b.Thermoelectric))
	}
	rec := b.Thermoelectric[0]
	if rec["production_GWh"] != "-16.368,385" || rec["year"] != "2022" {
		t.Errorf("got production %#v year %#v, want \"-16.368,385\" and \"2022\"", rec["production_GWh"], rec["year"])
	}
	for k, v := range rec {
		if _, ok := v.(string); !ok {
			t.Errorf("field %s: got %T, want a JSON string", k, v)
		}
	}
}

func TestThermoelectricEmptyBody(t *testing.T) {
	t.Parallel()
	h := newHarness(t, thermoData())
	for name, q := range map[string]string{
		"unknown category":                 "year=2023&category=Idroelettrica",
		"unknown subcategory":              "year=2023&subcategory=Nucleare",
		"subcategory of another category":  "year=2023&category=Cogenerativa&subcategory=Condensazione",
		"unknown region":                   "year=2023&region=Atlantide",
		"unknown province":                 "year=2023&province=Gotham",
		"one unknown province among known": "year=2023&province=Brindisi&province=Gotham",
		"year without data":                "year=2031",
	} {
		t.Run(name, func(t *testing.T) { wantEmpty(t, h.get(t, thermoPath+"?"+q)) })
	}
}

func TestThermoelectricValidation(t *testing.T) {
	t.Parallel()
	h := newHarness(t, thermoData())
	cases := []struct {
		name, query string
		parts       []string
	}{
		{"year missing", "region=Puglia", []string{"Input Validation Error:", "year"}},
		{"year not an integer", "year=20x3", []string{"Input Validation Error:", "year", "20x3"}},
		{"year a decimal", "year=2023.0", []string{"year", "2023.0"}},
		{"year repeated", "year=2023&year=2022", []string{"year", "repeated"}},
		{"region repeated", "year=2023&region=Puglia&region=Abruzzo", []string{"region", "repeated"}},
		{"category repeated", "year=2023&category=Cogenerativa&category=Cogenerativa", []string{"category", "repeated"}},
		{"subcategory repeated", "year=2023&subcategory=Contropressione&subcategory=Contropressione", []string{"subcategory", "repeated"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, h.get(t, thermoPath+"?"+tc.query), http.StatusBadRequest, tc.parts...)
		})
	}
}

func TestAcceptHeader(t *testing.T) {
	t.Parallel()
	h := newHarness(t, thermoData())
	for _, tc := range []struct {
		accept string
		status int
	}{
		{"", 200},
		{"*/*", 200},
		{"application/json", 200},
		{"Application/Json", 200}, // as the published examples send it
		{"application/*", 200},
		{"text/html, application/json;q=0.9", 200},
		{"text/html", 406},
		{"application/xml", 406},
		{"application/json;q=0", 406},
	} {
		t.Run(tc.accept, func(t *testing.T) {
			for _, path := range []string{thermoPath + "?year=2023", peakValleyPath + "?dateFrom=1/1/2024&dateTo=2/1/2024"} {
				r := h.get(t, path, "Accept", tc.accept)
				if tc.status == 406 {
					wantError(t, r, 406, "application/json")
					continue
				}
				if r.status != tc.status {
					t.Errorf("%s: got %d, want %d", path, r.status, tc.status)
				}
			}
		})
	}
}
