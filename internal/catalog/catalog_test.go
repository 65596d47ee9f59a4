package catalog

import "testing"

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
