package api

import (
	"bytes"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/energyapi/energyapi/internal/catalog"
)

// TestOpenAPIJSONIsItsYAMLParsed: /openapi.json, written from the
// document's nodes as built, is byte for byte the JSON of /openapi.yaml
// parsed again: every scalar built (a version "2.0", a flag, a number)
// converts as its YAML reads.
func TestOpenAPIJSONIsItsYAMLParsed(t *testing.T) {
	t.Parallel()
	c, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	y, err := OpenAPIDocument(c)
	if err != nil {
		t.Fatal(err)
	}
	var parsed yaml.Node
	if err := yaml.Unmarshal(y, &parsed); err != nil {
		t.Fatal(err)
	}
	want, err := nodeToJSON(&parsed)
	if err != nil {
		t.Fatal(err)
	}
	served := newOpenAPIDoc(c, true)
	if served.err != nil {
		t.Fatal(served.err)
	}
	if got := served.forms.Identity(); !bytes.Equal(got, want) {
		i := 0
		for i < min(len(got), len(want)) && got[i] == want[i] {
			i++
		}
		t.Fatalf("the JSON differs from its YAML's at byte %d: %q, want %q", i, got[i:min(len(got), i+80)], want[i:min(len(want), i+80)])
	}
}
