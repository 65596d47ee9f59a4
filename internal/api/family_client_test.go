package api_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// TestFamilyClientReadsJanuary2024 runs scripts/pyclient/family.py, a
// client written from the pages and live client code of catalogue.md
// sections 4.1 and 4.2 (array and field names as they give them), against
// a server with the demo data of the first two weeks of 2024 and the
// yearly statistics: every endpoint answers a week of January 2024, or the
// year 2023, with records that carry those fields.
func TestFamilyClientReadsJanuary2024(t *testing.T) {
	if testing.Short() {
		t.Skip("generates the demo data")
	}
	python := requirePython(t)
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	m := dataset.NewMemory()
	in := dataset.DemoInput{First: energy.Date{Year: 2024, Month: time.January, Day: 1}, Last: energy.Date{Year: 2024, Month: time.January, Day: 14}, Seed: demo.DefaultSeed}
	err = cat.EachDemo(in, func(_, _ int, d *dataset.Dataset, generate func() []dataset.Row) error {
		_, err := dataset.Import(context.Background(), m, cat, d, generate(), time.Unix(0, 0))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := apitest.NewServer(t, apitest.Options{Catalog: cat, Source: m})
	out, err := exec.Command(python, filepath.Join("..", "..", "scripts", "pyclient", "family.py"), srv.URL, apitest.ClientID, apitest.ClientSecret).CombinedOutput()
	if err != nil {
		t.Fatalf("family.py: %v\n%s", err, out)
	}
	if n := strings.Count(string(out), "\nok ") + 1; n < 20 {
		t.Fatalf("family.py read %d endpoints, want 20:\n%s", n, out)
	}
	t.Logf("family.py:\n%s", out)
}
