package catalog

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// thermoRow is a thermoelectric record of 2023 in the descriptor's order:
// capacity type, region, province, category, subcategory; production.
func thermoRow(ct, region, province, category, sub string, gwh float64) dataset.Row {
	return dataset.Row{
		Time: time.Date(2023, time.January, 1, 0, 0, 0, 0, energy.Rome()).Unix(),
		Text: []string{ct, region, province, category, sub},
		Num:  []float64{gwh},
	}
}

// thermoelectric returns the catalogue and its thermoelectric dataset.
func thermoelectric(t *testing.T) (*dataset.Catalog, *dataset.Dataset) {
	t.Helper()
	c := mustNew(t)
	d, ok := c.Lookup("thermoelectric")
	if !ok {
		t.Fatal("catalogue lacks thermoelectric")
	}
	return c, d
}

// TestThermoelectricCanonicalises checks that an import replaces every
// spelling the reference lists accept by the canonical name.
func TestThermoelectricCanonicalises(t *testing.T) {
	c, d := thermoelectric(t)
	r := thermoRow(" netta", "trentino alto adige", "Bolzano/Bozen", "Non cogenerative", "Celle combustibili", -16368.385)
	if err := c.Canonical(d, &r); err != nil {
		t.Fatalf("Canonical: %v", err)
	}
	want := []string{"Netta", "Trentino-Alto Adige", "Bolzano", "Non cogenerativa", "Celle a combustibile"}
	if !slices.Equal(r.Text, want) || r.Num[0] != -16368.385 {
		t.Errorf("Canonical: got %q %v, want %q [-16368.385]", r.Text, r.Num, want)
	}
}

// TestThermoelectricRejects checks the records an import refuses, and
// accepts the production values that are valid (net production can be
// below zero).
func TestThermoelectricRejects(t *testing.T) {
	c, d := thermoelectric(t)
	const nc = "Non cogenerativa"
	tests := []struct {
		name    string
		row     dataset.Row
		wantMsg string // "" if valid
	}{
		{"unknown category", thermoRow("Lorda", "Puglia", "Brindisi", "Geotermica", "Condensazione", 1), `unknown category "Geotermica"`},
		{"subcategory of other category", thermoRow("Lorda", "Puglia", "Brindisi", nc, "Contropressione", 1),
			`subcategory "Contropressione" is not in category "Non cogenerativa" (it is in "Cogenerativa")`},
		{"unknown subcategory", thermoRow("Lorda", "Puglia", "Brindisi", nc, "Nucleare", 1), `unknown subcategory "Nucleare"`},
		{"unknown region", thermoRow("Lorda", "Apulia", "Brindisi", nc, "Condensazione", 1), `unknown region "Apulia"`},
		{"unknown province", thermoRow("Lorda", "Puglia", "Carbonia-Iglesias", nc, "Condensazione", 1), `unknown province "Carbonia-Iglesias"`},
		{"province of other region", thermoRow("Lorda", "Puglia", "Udine", nc, "Condensazione", 1),
			`province "Udine" is not in region "Puglia" (it is in "Friuli-Venezia Giulia")`},
		{"unknown capacity type", thermoRow("Gross", "Puglia", "Brindisi", nc, "Condensazione", 1), `unknown capacity_type "Gross"`},
		{"missing province", thermoRow("Lorda", "Puglia", " ", nc, "Condensazione", 1), "province is missing"},
		{"NaN production", thermoRow("Lorda", "Puglia", "Brindisi", nc, "Condensazione", math.NaN()), "production_GWh is missing"},
		{"infinite production", thermoRow("Lorda", "Puglia", "Brindisi", nc, "Condensazione", math.Inf(-1)), "production_GWh -Inf is not a finite number"},
		{"negative production", thermoRow("Lorda", "Puglia", "Brindisi", nc, "Condensazione", -16368.385), ""},
		{"zero production", thermoRow("Lorda", "Puglia", "Brindisi", nc, "Condensazione", 0), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.Canonical(d, &tt.row)
			if tt.wantMsg == "" {
				if err != nil {
					t.Fatalf("Canonical: got %v, want no error", err)
				}
				return
			}
			if energy.ErrorCode(err) != energy.Invalid {
				t.Fatalf("Canonical: got error %v, want code %q", err, energy.Invalid)
			}
			if !strings.HasPrefix(energy.ErrorMessage(err), tt.wantMsg) {
				t.Errorf("got message %q, want it to start with %q", energy.ErrorMessage(err), tt.wantMsg)
			}
		})
	}
}
