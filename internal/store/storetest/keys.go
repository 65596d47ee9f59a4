package storetest

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
)

// signingKey returns a key whose private key is derived from a fixed seed, so
// that tests can tell keys apart by their bytes.
func signingKey(id string, seed byte, created time.Time) auth.SigningKey {
	return auth.SigningKey{
		ID:      id,
		Private: ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize)),
		Created: created,
	}
}

func testSigningKeys(t *testing.T, open func(t *testing.T) Store) {
	keyIDs := func(t testing.TB, s Store) []string {
		t.Helper()
		ks, err := s.SigningKeys(t.Context())
		noErr(t, "SigningKeys", err)
		var ids []string
		for _, k := range ks {
			ids = append(ids, k.ID)
		}
		return ids
	}

	t.Run("NewestFirst", func(t *testing.T) {
		s := open(t)
		if ids := keyIDs(t, s); len(ids) != 0 {
			t.Fatalf("SigningKeys of a new store: got %v, want none", ids)
		}
		k1 := signingKey("k1", 1, t0())
		k2 := signingKey("k2", 2, t0().Add(2*time.Hour))
		k3 := signingKey("k3", 3, t0().Add(time.Hour))
		for _, k := range []auth.SigningKey{k1, k2, k3} {
			noErr(t, "AddSigningKey", s.AddSigningKey(t.Context(), k))
		}
		ks, err := s.SigningKeys(t.Context())
		noErr(t, "SigningKeys", err)
		want := []auth.SigningKey{k2, k3, k1}
		if len(ks) != len(want) {
			t.Fatalf("SigningKeys: got %d keys, want %d", len(ks), len(want))
		}
		for i, k := range ks {
			w := want[i]
			if k.ID != w.ID || !k.Created.Equal(w.Created) || !k.Private.Equal(w.Private) {
				t.Fatalf("key %d: got %s created %v, want %s created %v (or private key differs)", i, k.ID, k.Created, w.ID, w.Created)
			}
		}
	})

	t.Run("DuplicateIsConflict", func(t *testing.T) {
		s := open(t)
		noErr(t, "AddSigningKey", s.AddSigningKey(t.Context(), signingKey("k1", 1, t0())))
		err := s.AddSigningKey(t.Context(), signingKey("k1", 2, t0().Add(time.Hour)))
		wantCode(t, "AddSigningKey duplicate", err, energy.Conflict)
		ks, err := s.SigningKeys(t.Context())
		noErr(t, "SigningKeys", err)
		if len(ks) != 1 || !ks[0].Private.Equal(signingKey("k1", 1, t0()).Private) {
			t.Fatalf("SigningKeys after refused duplicate: got %d keys, want the first k1 only", len(ks))
		}
	})

	t.Run("DeleteBefore", func(t *testing.T) {
		s := open(t)
		for i, id := range []string{"k1", "k2", "k3"} {
			k := signingKey(id, byte(i+1), t0().Add(time.Duration(i)*time.Hour))
			noErr(t, "AddSigningKey", s.AddSigningKey(t.Context(), k))
		}
		// k2 was created exactly at the cut-off: not before it, so it stays.
		noErr(t, "DeleteSigningKeysBefore", s.DeleteSigningKeysBefore(t.Context(), t0().Add(time.Hour)))
		if got, want := keyIDs(t, s), []string{"k3", "k2"}; !slices.Equal(got, want) {
			t.Fatalf("SigningKeys: got %v, want %v", got, want)
		}
	})
}

func testServerSecret(t *testing.T, open func(t *testing.T) Store) {
	constant := func(v string) func() ([]byte, error) {
		return func() ([]byte, error) { return []byte(v), nil }
	}
	mustNotRun := func(t testing.TB) func() ([]byte, error) {
		return func() ([]byte, error) {
			t.Errorf("gen called for a secret that exists")
			return []byte("unexpected"), nil
		}
	}

	t.Run("CreatedOnceThenKept", func(t *testing.T) {
		s := open(t)
		v, err := s.ServerSecret(t.Context(), "hash-key", constant("first"))
		noErr(t, "ServerSecret", err)
		if string(v) != "first" {
			t.Fatalf("first use: got %q, want %q", v, "first")
		}
		v, err = s.ServerSecret(t.Context(), "hash-key", mustNotRun(t))
		noErr(t, "ServerSecret", err)
		if string(v) != "first" {
			t.Fatalf("second use: got %q, want %q", v, "first")
		}
	})

	t.Run("NamesAreIndependent", func(t *testing.T) {
		s := open(t)
		a, err := s.ServerSecret(t.Context(), "a", constant("secret a"))
		noErr(t, "ServerSecret a", err)
		b, err := s.ServerSecret(t.Context(), "b", constant("secret b"))
		noErr(t, "ServerSecret b", err)
		if string(a) != "secret a" || string(b) != "secret b" {
			t.Fatalf("got a=%q b=%q, want a=%q b=%q", a, b, "secret a", "secret b")
		}
	})

	t.Run("GeneratorErrorStoresNothing", func(t *testing.T) {
		s := open(t)
		boom := errors.New("no entropy")
		_, err := s.ServerSecret(t.Context(), "k", func() ([]byte, error) { return nil, boom })
		if !errors.Is(err, boom) {
			t.Fatalf("ServerSecret: got error %v, want one wrapping %v", err, boom)
		}
		v, err := s.ServerSecret(t.Context(), "k", constant("later"))
		noErr(t, "ServerSecret", err)
		if string(v) != "later" {
			t.Fatalf("after a failed first use: got %q, want %q", v, "later")
		}
	})

	t.Run("ConcurrentFirstUseAgrees", func(t *testing.T) {
		s := open(t)
		const n = 8
		got := make([][]byte, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			wg.Go(func() {
				<-start
				got[i], errs[i] = s.ServerSecret(t.Context(), "k", constant("candidate "+string(rune('a'+i))))
			})
		}
		close(start)
		wg.Wait()
		for i := range n {
			noErr(t, "ServerSecret", errs[i])
			if !bytes.Equal(got[i], got[0]) {
				t.Fatalf("goroutine %d got %q, goroutine 0 got %q: want one value", i, got[i], got[0])
			}
		}
		if !bytes.HasPrefix(got[0], []byte("candidate ")) {
			t.Fatalf("got %q, want one of the generated values", got[0])
		}
		v, err := s.ServerSecret(t.Context(), "k", mustNotRun(t))
		noErr(t, "ServerSecret", err)
		if !bytes.Equal(v, got[0]) {
			t.Fatalf("after the race: got %q, want %q", v, got[0])
		}
	})
}
