package store_test

import (
	"bytes"
	"cmp"
	"crypto/ed25519"
	"errors"
	"fmt"
	"testing"
	"testing/fstest"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
)

// wantCode fails the test unless err carries code; the empty code means nil.
func wantCode(t testing.TB, what string, err error, code energy.Code) {
	t.Helper()
	if code == "" {
		if err != nil {
			t.Fatalf("%s: got error %v, want nil", what, err)
		}
		return
	}
	if got := energy.ErrorCode(err); got != code {
		t.Fatalf("%s: got error %v (code %q), want code %q", what, err, got, code)
	}
}

func TestValidText(t *testing.T) {
	cases := []struct {
		s    string
		want bool
	}{
		{"", true},
		{"Milano", true},
		{"Forlì-Cesena", true},
		{"nul\x00byte", false},
		{"bad \xff utf-8", false},
		{"\xc3", false}, // a truncated two-byte sequence
	}
	for _, c := range cases {
		if got := store.ValidText(c.s); got != c.want {
			t.Errorf("ValidText(%q): got %t, want %t", c.s, got, c.want)
		}
	}
}

func TestChecks(t *testing.T) {
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{1}, ed25519.SeedSize))
	cases := []struct {
		name string
		err  error
		want energy.Code
	}{
		{"client", store.CheckClient(auth.Client{ID: "a", Name: "A"}), ""},
		{"client without name", store.CheckClient(auth.Client{ID: "a"}), ""},
		{"client empty ID", store.CheckClient(auth.Client{Name: "A"}), energy.Invalid},
		{"client bad ID", store.CheckClient(auth.Client{ID: "a\x00", Name: "A"}), energy.Invalid},
		{"client bad name", store.CheckClient(auth.Client{ID: "a", Name: "\xff"}), energy.Invalid},
		{"revocation", store.CheckRevocation(time.Unix(1, 0)), ""},
		{"revocation zero", store.CheckRevocation(time.Time{}), energy.Invalid},
		{"key", store.CheckSigningKey(auth.SigningKey{ID: "k", Private: key}), ""},
		{"key empty ID", store.CheckSigningKey(auth.SigningKey{Private: key}), energy.Invalid},
		{"key bad ID", store.CheckSigningKey(auth.SigningKey{ID: "\xff", Private: key}), energy.Invalid},
		{"key short", store.CheckSigningKey(auth.SigningKey{ID: "k", Private: key[:32]}), energy.Invalid},
		{"secret name", store.CheckSecretName("hash-key"), ""},
		{"secret name empty", store.CheckSecretName(""), energy.Invalid},
		{"secret name bad", store.CheckSecretName("a\x00"), energy.Invalid},
		{"client not found", store.ClientNotFound("x"), energy.NotFound},
		{"parts", store.CheckPartRefs("total-load", []dataset.PartRef{{Dataset: "total-load", ID: "2024-03"}, {Dataset: "peak-valley", ID: "2024"}}), ""},
		{"parts none", store.CheckPartRefs("total-load", nil), ""},
		{"parts empty dataset", store.CheckPartRefs("", nil), energy.Invalid},
		{"parts bad dataset", store.CheckPartRefs("load\xff", nil), energy.Invalid},
		{"parts ref empty ID", store.CheckPartRefs("total-load", []dataset.PartRef{{Dataset: "total-load"}}), energy.Invalid},
		{"parts ref empty dataset", store.CheckPartRefs("total-load", []dataset.PartRef{{ID: "2024"}}), energy.Invalid},
		{"parts ref bad ID", store.CheckPartRefs("total-load", []dataset.PartRef{{Dataset: "total-load", ID: "2024\x00"}}), energy.Invalid},
	}
	for _, c := range cases {
		wantCode(t, c.name, c.err, c.want)
	}
}

func TestParseMigrations(t *testing.T) {
	file := func(body string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(body)} }
	cases := []struct {
		name    string
		files   fstest.MapFS
		want    string // versions, names and bodies, or the error
		wantErr bool
	}{
		{"in order", fstest.MapFS{
			"m/0002_more.sql": file("B"), "m/0001_init.sql": file("A"), "m/README": file("x"),
		}, "[0001_init:A 0002_more:B]", false},
		{"gap", fstest.MapFS{"m/0001_init.sql": file("A"), "m/0003_more.sql": file("B")},
			"migration 0003_more.sql: want version 2 next", true},
		{"no number", fstest.MapFS{"m/init.sql": file("A")},
			"migration init.sql: name is not NNNN_name.sql", true},
		{"short number", fstest.MapFS{"m/1_init.sql": file("A")},
			"migration 1_init.sql: name is not NNNN_name.sql", true},
		{"no name", fstest.MapFS{"m/0001_.sql": file("A")},
			"migration 0001_.sql: name is not NNNN_name.sql", true},
		{"none", fstest.MapFS{"m/README": file("x")}, "no migrations", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ms, err := store.ParseMigrations(c.files, "m")
			if c.wantErr {
				if err == nil || err.Error() != c.want {
					t.Fatalf("got error %v, want %q", err, c.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range ms {
				got = append(got, m.String()+":"+m.SQL)
			}
			if s := fmt.Sprint(got); s != c.want {
				t.Fatalf("got %s, want %s", s, c.want)
			}
		})
	}
}

func TestMigrationPending(t *testing.T) {
	m := store.Migration{Version: 2, Name: "more"}
	cases := []struct {
		current, latest int
		want            bool
		wantErr         bool
	}{
		{0, 2, true, false},
		{1, 2, true, false},
		{2, 2, false, false},
		{3, 2, false, true}, // a newer program migrated the schema
	}
	for _, c := range cases {
		got, err := m.Pending(c.current, c.latest)
		if got != c.want || (err != nil) != c.wantErr {
			t.Errorf("Pending(%d, %d): got %t, %v; want %t, error %t", c.current, c.latest, got, err, c.want, c.wantErr)
		}
	}
}

func TestStoredHash(t *testing.T) {
	if got := store.StoredHash(nil); got == nil || len(got) != 0 {
		t.Fatalf("StoredHash(nil): got %#v, want an empty, non-nil slice", got)
	}
	if got := store.StoredHash([]byte("h")); string(got) != "h" {
		t.Fatalf("StoredHash(h): got %q, want %q", got, "h")
	}
}

func TestNewSecret(t *testing.T) {
	boom := errors.New("no entropy")
	cases := []struct {
		name    string
		gen     func() ([]byte, error)
		want    string
		wantErr string
	}{
		{"value", func() ([]byte, error) { return []byte("s"), nil }, "s", ""},
		{"error", func() ([]byte, error) { return nil, boom }, "", "generate: no entropy"},
		{"empty", func() ([]byte, error) { return []byte{}, nil }, "", "generator returned an empty secret"},
	}
	for _, c := range cases {
		got, err := store.NewSecret(c.gen)
		if string(got) != c.want || fmt.Sprint(err) != cmp.Or(c.wantErr, "<nil>") {
			t.Errorf("%s: got %q, %v; want %q, %s", c.name, got, err, c.want, cmp.Or(c.wantErr, "<nil>"))
		}
	}
	if _, err := store.NewSecret(func() ([]byte, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Errorf("error: got %v, want it to wrap %v", err, boom)
	}
}
