package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/testwait"
)

// TestReplicasShareOnePostgreSQL runs two serve processes on one PostgreSQL
// database, as replicas behind a load balancer, with the default
// --poll-interval (1s), and checks that they behave as one service: tokens
// from either work on both, an import through the CLI is served by both
// within 2 s, and a revocation through the CLI is enforced by both within
// 5 s, all without a restart.
func TestReplicasShareOnePostgreSQL(t *testing.T) {
	t.Parallel()
	env := map[string]string{"ENERGYAPI_DB": cluster.Database(t)}
	c := createClient(t, env, "--name", "acme")
	a := startServe(t, env)
	b := startServe(t, env)

	const (
		load   = "/load/v2.0/peak-valley-load?dateFrom=01/01/2024&dateTo=01/01/2024"
		thermo = "/generation/v2.0/thermoelectric-production?year=2024&province=Chieti&category=Cogenerativa&subcategory=Contropressione"
	)
	tokA, st := a.token(t, c.ClientID, c.ClientSecret)
	if st != http.StatusOK {
		t.Fatalf("token from A: got %d, want 200", st)
	}
	tokB, st := b.token(t, c.ClientID, c.ClientSecret)
	if st != http.StatusOK {
		t.Fatalf("token from B: got %d, want 200", st)
	}
	if st, body := b.get(t, load, tokA); st != http.StatusOK {
		t.Fatalf("A's token on B: got %d (%s), want 200", st, body)
	}
	if st, body := a.get(t, load, tokB); st != http.StatusOK {
		t.Fatalf("B's token on A: got %d (%s), want 200", st, body)
	}

	t.Run("import through the CLI served by both", func(t *testing.T) {
		const served = `"production_GWh":"4.321,500"`
		if _, body := b.get(t, thermo, tokA); strings.Contains(string(body), served) {
			t.Fatalf("B served the value before the import: %s", body)
		}
		file := filepath.Join(t.TempDir(), "update.csv")
		csv := "year;capacity_type;region;province;category;subcategory;production_GWh\n2024;Lorda;Abruzzo;Chieti;Cogenerativa;Contropressione;\"4.321,5\"\n"
		if err := os.WriteFile(file, []byte(csv), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := runCmd(t, env, "import", "--dataset", "thermoelectric", file); err != nil {
			t.Fatal(err)
		}
		// One deadline for both, counted from the commit.
		deadline := time.Now().Add(testwait.Scale(2 * time.Second))
		for name, s := range map[string]*server{"A": a, "B": b} {
			testwait.For(t, time.Until(deadline), "imported row served by "+name+" 2 s after the import", func() bool {
				_, body := s.get(t, thermo, tokA)
				return strings.Contains(string(body), served)
			})
		}
	})

	t.Run("revocation through the CLI enforced by both", func(t *testing.T) {
		if _, err := runCmd(t, env, "clients", "revoke", c.ClientID); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(testwait.Scale(5 * time.Second))
		for name, s := range map[string]*server{"A": a, "B": b} {
			for tokName, tok := range map[string]string{"A's": tokA, "B's": tokB} {
				testwait.For(t, time.Until(deadline), tokName+" token refused by "+name+" 5 s after the revocation", func() bool {
					st, _ := s.get(t, load, tok)
					return st == http.StatusUnauthorized
				})
			}
		}
		if _, st := a.token(t, c.ClientID, c.ClientSecret); st != http.StatusUnauthorized {
			t.Errorf("token request to A after revocation: got %d, want 401", st)
		}
	})
}
