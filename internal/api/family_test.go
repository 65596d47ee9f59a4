package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/catalog"
)

// TestCatalogNamesEverySource proves that GET /catalog tells, for every
// dataset, where its shape comes from (a portal page or the live client)
// and how sure that is, and that the OpenAPI description says the same.
func TestCatalogNamesEverySource(t *testing.T) {
	h := importedHarness(t, nil)
	var cat struct {
		Datasets []struct {
			Name   string
			Source struct{ Ref, Confidence, Guess string }
		} `json:"datasets"`
	}
	if err := json.Unmarshal(h.get(t, "/catalog").body, &cat); err != nil {
		t.Fatal(err)
	}
	if len(cat.Datasets) != len(catalog.All()) {
		t.Fatalf("/catalog lists %d datasets, want %d", len(cat.Datasets), len(catalog.All()))
	}
	for _, d := range cat.Datasets {
		if d.Source.Ref == "" || !strings.Contains("HML", d.Source.Confidence) || d.Source.Confidence == "" {
			t.Errorf("%s: source %+v, want a reference and a confidence H, M or L", d.Name, d.Source)
		}
	}
	c, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := api.OpenAPIDocument(c)
	if err != nil {
		t.Fatal(err)
	}
	if want := "**Source.** https://developer.terna.it/docs/read/apis_catalog/load/Total_Load (confidence H)."; !strings.Contains(string(doc), want) {
		t.Errorf("the OpenAPI document does not say %q", want)
	}
}
