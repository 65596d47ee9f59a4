package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/energyapi/energyapi/internal/dataset"
)

func TestCatalogIsWellFormed(t *testing.T) {
	c := mustNew(t)
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

// TestDocsNameEverySource proves that docs/ keep one line per dataset
// saying where its shape comes from, with the descriptor's confidence.
func TestDocsNameEverySource(t *testing.T) {
	var docs strings.Builder
	for _, f := range []string{"datasets-load-transmission.md", "datasets-generation.md", "datasets-v1.md"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "docs", f))
		if err != nil {
			t.Fatal(err)
		}
		docs.Write(b)
	}
	for _, d := range All() {
		line := ""
		for _, l := range strings.Split(docs.String(), "\n") {
			if strings.HasPrefix(l, "| `"+d.Name+"` |") {
				line = l
			}
		}
		if line == "" || !strings.Contains(line, "| "+d.Source.Confidence+" |") {
			t.Errorf("%s: docs line %q, want one naming its source with confidence %s", d.Name, line, d.Source.Confidence)
		}
	}
}

// mustNew returns the catalogue (New), failing tb on an error.
func mustNew(tb testing.TB) *dataset.Catalog {
	tb.Helper()
	c, err := New()
	if err != nil {
		tb.Fatal(err)
	}
	return c
}
