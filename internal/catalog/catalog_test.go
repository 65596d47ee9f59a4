package catalog

import (
	"strings"
	"testing"
)

func TestCatalogIsWellFormed(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"total-load", "peak-valley", "thermoelectric"} {
		if _, ok := c.Lookup(name); !ok {
			t.Errorf("catalogue lacks %s", name)
		}
	}
}

// TestEveryDatasetNamesItsSource proves that every descriptor says where
// its shape comes from: a page of the developer portal or the live client,
// with a confidence of H, M or L.
func TestEveryDatasetNamesItsSource(t *testing.T) {
	for _, d := range All() {
		s := d.Source
		if !strings.HasPrefix(s.Ref, "https://developer.terna.it/docs/read/apis_catalog/") && !strings.HasPrefix(s.Ref, liveClient) {
			t.Errorf("%s: source %q is neither a portal page nor the live client", d.Name, s.Ref)
		}
		if s.Confidence != "H" && s.Confidence != "M" && s.Confidence != "L" {
			t.Errorf("%s: confidence %q, want H, M or L", d.Name, s.Confidence)
		}
	}
}
