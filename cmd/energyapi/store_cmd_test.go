package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnlySomeCommandsCreateTheStore runs every command on a store path that
// does not exist. The context is cancelled from the start, so that a command
// allowed to create the store (serve --demo, demo) stops right after creating
// it instead of writing two million rows of demo data; the others must refuse
// before creating anything, with a message that names the path and says how
// to create it.
func TestOnlySomeCommandsCreateTheStore(t *testing.T) {
	t.Parallel()
	csv := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(csv, []byte("year;capacity_type;region;province;category;subcategory;production_GWh\n2024;Lorda;Puglia;Brindisi;Non cogenerativa;Condensazione;100\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range []struct {
		args    []string
		creates bool
	}{
		{[]string{"serve"}, false},
		{[]string{"serve", "--addr", "127.0.0.1:0"}, false},
		{[]string{"clients", "list"}, false},
		{[]string{"clients", "create", "--name", "acme"}, false},
		{[]string{"clients", "revoke", "some-id"}, false},
		{[]string{"clients", "rotate-secret", "some-id"}, false},
		{[]string{"serve", "--demo"}, true},
		{[]string{"demo"}, true},
		{[]string{"init"}, true},
		{[]string{"import", "--dataset", "thermoelectric", csv}, true},
	} {
		t.Run(strings.Join(tt.args[:min(2, len(tt.args))], " "), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "energyapi.dbb")
			ctx := context.Background()
			if tt.creates && (tt.args[0] == "serve" || tt.args[0] == "demo") {
				ctx = cancelled
			}
			_, stderr, code := runFull(t, ctx, nil, append(tt.args, "--db", db)...)
			fi, statErr := os.Stat(db)
			if !tt.creates {
				want := fmt.Sprintf(`energyapi: store %s does not exist; create it with "energyapi init --db %s" or run "energyapi serve --demo --db %s"`, db, db, db)
				if code != 1 || strings.TrimSpace(stderr) != want {
					t.Errorf("got exit %d and %q, want 1 and %q", code, stderr, want)
				}
				if !errors.Is(statErr, fs.ErrNotExist) {
					t.Errorf("the command created %s", db)
				}
				return
			}
			if statErr != nil {
				t.Fatalf("the command did not create the store: %v (stderr %q)", statErr, stderr)
			}
			if strings.Contains(stderr, "does not exist") {
				t.Errorf("got %q, want no refusal", stderr)
			}
			if got := fi.Mode().Perm(); got != 0o600 {
				t.Errorf("created the store with mode %04o, want 0600", got)
			}
		})
	}
	t.Run("PostgreSQL needs no init", func(t *testing.T) {
		if _, err := runCmd(t, map[string]string{"ENERGYAPI_DB": cluster.Database(t)}, "clients", "list"); err != nil {
			t.Errorf("clients list on a fresh PostgreSQL database: %v", err)
		}
	})
}

// TestInit creates a store, runs it again on the existing store, and then
// uses the store with a command that needs one.
func TestInit(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "i.db")
	out, err := runCmd(t, nil, "init", "--db", db)
	if err != nil || !strings.Contains(out, "created store "+db) {
		t.Fatalf("first init: got %q, %v; want the store created", out, err)
	}
	out, err = runCmd(t, nil, "init", "--db", db)
	if err != nil || !strings.Contains(out, "store "+db+" is ready") {
		t.Fatalf("second init: got %q, %v; want the existing store accepted", out, err)
	}
	if _, err := runCmd(t, nil, "clients", "create", "--db", db, "--name", "acme"); err != nil {
		t.Fatalf("clients create on the new store: %v", err)
	}
}

// TestStoreOpenToOthersRefused makes a store world-readable: every command
// must refuse it, naming the path, the mode and the fix.
func TestStoreOpenToOthersRefused(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "open.db")
	fltRun(t, "init", "--db", db)
	if err := os.Chmod(db, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"clients", "list"}, {"init"}, {"serve", "--addr", "127.0.0.1:0"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			_, stderr, code := runFull(t, context.Background(), nil, append(args, "--db", db)...)
			want := fmt.Sprintf(`energyapi: %s has mode 0644: users other than its owner can reach the token signing keys it holds; restrict it with "chmod 600 %s" and start again`, db, db)
			if code != 1 || strings.TrimSpace(stderr) != want {
				t.Errorf("got exit %d and %q, want 1 and %q", code, stderr, want)
			}
		})
	}
	if err := os.Chmod(db, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := runCmd(t, nil, "clients", "list", "--db", db); err != nil {
		t.Errorf("after chmod 600: %v", err)
	}
}

// TestReadyzNoticesTheStoreFile removes or replaces the SQLite file under a
// running server: /readyz must answer 503 and the log hold an error that
// names the file.
func TestReadyzNoticesTheStoreFile(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		spoil func(t *testing.T, db string)
		want  string
	}{
		{"removed", func(t *testing.T, db string) {
			if err := os.Remove(db); err != nil {
				t.Fatal(err)
			}
		}, "no longer exists"},
		{"replaced", func(t *testing.T, db string) {
			other := db + ".new"
			fltRun(t, "init", "--db", other)
			if err := os.Rename(other, db); err != nil {
				t.Fatal(err)
			}
		}, "replaced"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "ready.db")
			fltRun(t, "init", "--db", db)
			base, stderr := plainServe(t, nil, "--db", db)
			ready := func() int {
				resp, err := http.Get(base + "/readyz")
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				return resp.StatusCode
			}
			if st := ready(); st != http.StatusOK {
				t.Fatalf("before: got %d, want 200", st)
			}
			tt.spoil(t, db)
			for range 2 {
				if st := ready(); st != http.StatusServiceUnavailable {
					t.Fatalf("after: got %d, want 503", st)
				}
			}
			var lines []map[string]any
			for _, l := range strings.Split(stderr.String(), "\n") {
				var m map[string]any
				if json.Unmarshal([]byte(l), &m) == nil && m["level"] == "ERROR" {
					lines = append(lines, m)
				}
			}
			if len(lines) != 1 || !strings.Contains(fmt.Sprint(lines[0]["err"]), db) || !strings.Contains(fmt.Sprint(lines[0]["err"]), tt.want) || lines[0]["store"] != db {
				t.Errorf("got error lines %v, want one naming %s and saying %q", lines, db, tt.want)
			}
		})
	}
}
