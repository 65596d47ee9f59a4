package energy

import "testing"

// TestPlantSpelling proves that the generation-plants family's lists spell
// Valle d'Aosta as the live service does there, accept the canonical
// spelling, and keep Aosta within it.
func TestPlantSpelling(t *testing.T) {
	regions, provinces := PlantRegionNames(), PlantProvinceNames()
	for _, tc := range []struct{ in, want string }{
		{"Valle d'Aosta", ValleDAostaPlants},
		{"Valle D'Aosta", ValleDAostaPlants},
		{"Vallée d'Aoste", ValleDAostaPlants},
		{"Puglia", "Puglia"},
	} {
		if got, ok := regions.Canonical(tc.in); !ok || got != tc.want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
	if got := provinces.Parent("Aosta"); got != ValleDAostaPlants {
		t.Errorf("Aosta's region %q, want %q", got, ValleDAostaPlants)
	}
	if got, _ := RegionNames().Canonical(ValleDAostaPlants); got != "Valle d'Aosta" {
		t.Errorf("the thermoelectric statistics' list gives %q, want Valle d'Aosta", got)
	}
	if len(regions.Values()) != len(RegionNames().Values()) {
		t.Errorf("%d regions, want %d", len(regions.Values()), len(RegionNames().Values()))
	}
}
