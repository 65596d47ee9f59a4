package storetest

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
)

// t0 is the reference time of the registry tests; nothing depends on today.
func t0() time.Time { return time.Date(2024, 5, 1, 9, 30, 0, 0, time.UTC) }

func newClient(id string, created time.Time) auth.Client {
	return auth.Client{ID: id, Name: "Client " + id, SecretHash: []byte("hash of " + id), Created: created}
}

// wantClient fails the test unless got has every field of want.
func wantClient(t testing.TB, got, want auth.Client) {
	t.Helper()
	if got.ID != want.ID || got.Name != want.Name || !bytes.Equal(got.SecretHash, want.SecretHash) ||
		!got.Created.Equal(want.Created) || !got.Revoked.Equal(want.Revoked) {
		t.Fatalf("client:\ngot  %+v\nwant %+v", got, want)
	}
}

func testClients(t *testing.T, open func(t *testing.T) Store) {
	t.Run("CreateAndGet", func(t *testing.T) {
		s := open(t)
		c := newClient("alpha", t0())
		noErr(t, "CreateClient", s.CreateClient(t.Context(), c))
		got, err := s.Client(t.Context(), "alpha")
		noErr(t, "Client", err)
		wantClient(t, got, c)
		if !got.Active() {
			t.Fatalf("Active: got false, want true for a new client")
		}
	})

	t.Run("CreateRevoked", func(t *testing.T) {
		s := open(t)
		c := newClient("alpha", t0())
		c.Revoked = t0().Add(time.Hour)
		noErr(t, "CreateClient", s.CreateClient(t.Context(), c))
		got, err := s.Client(t.Context(), "alpha")
		noErr(t, "Client", err)
		wantClient(t, got, c)
	})

	t.Run("DuplicateIsConflict", func(t *testing.T) {
		s := open(t)
		first := newClient("alpha", t0())
		noErr(t, "CreateClient", s.CreateClient(t.Context(), first))
		second := newClient("alpha", t0().Add(time.Hour))
		second.Name = "Impostor"
		wantCode(t, "CreateClient duplicate", s.CreateClient(t.Context(), second), energy.Conflict)
		got, err := s.Client(t.Context(), "alpha")
		noErr(t, "Client", err)
		wantClient(t, got, first)
	})

	t.Run("NotFound", func(t *testing.T) {
		s := open(t)
		noErr(t, "CreateClient", s.CreateClient(t.Context(), newClient("alpha", t0())))
		_, err := s.Client(t.Context(), "beta")
		wantCode(t, "Client", err, energy.NotFound)
		wantCode(t, "RevokeClient", s.RevokeClient(t.Context(), "beta", t0()), energy.NotFound)
		wantCode(t, "SetClientSecret", s.SetClientSecret(t.Context(), "beta", []byte("h")), energy.NotFound)
	})

	t.Run("ListOldestFirstThenByID", func(t *testing.T) {
		s := open(t)
		if cs, err := s.Clients(t.Context()); err != nil || len(cs) != 0 {
			t.Fatalf("Clients of a new store: got %v, %v, want none", cs, err)
		}
		for _, c := range []auth.Client{
			newClient("zeta", t0().Add(2*time.Hour)),
			newClient("gamma", t0()),
			newClient("alpha", t0().Add(time.Hour)),
			newClient("beta", t0()),
		} {
			noErr(t, "CreateClient", s.CreateClient(t.Context(), c))
		}
		noErr(t, "RevokeClient", s.RevokeClient(t.Context(), "gamma", t0().Add(3*time.Hour)))
		cs, err := s.Clients(t.Context())
		noErr(t, "Clients", err)
		var ids []string
		for _, c := range cs {
			ids = append(ids, c.ID)
		}
		if want := []string{"beta", "gamma", "alpha", "zeta"}; !slices.Equal(ids, want) {
			t.Fatalf("Clients: got %v, want %v", ids, want)
		}
		want := newClient("gamma", t0())
		want.Revoked = t0().Add(3 * time.Hour)
		wantClient(t, cs[1], want)
	})

	t.Run("RevokeKeepsFirstTime", func(t *testing.T) {
		s := open(t)
		noErr(t, "CreateClient", s.CreateClient(t.Context(), newClient("alpha", t0())))
		first, second := t0().Add(time.Hour), t0().Add(2*time.Hour)
		noErr(t, "RevokeClient", s.RevokeClient(t.Context(), "alpha", first))
		noErr(t, "RevokeClient again", s.RevokeClient(t.Context(), "alpha", second))
		got, err := s.Client(t.Context(), "alpha")
		noErr(t, "Client", err)
		if !got.Revoked.Equal(first) || got.Active() {
			t.Fatalf("Revoked: got %v (active %t), want %v (inactive)", got.Revoked, got.Active(), first)
		}
	})

	t.Run("SetSecret", func(t *testing.T) {
		s := open(t)
		noErr(t, "CreateClient", s.CreateClient(t.Context(), newClient("alpha", t0())))
		noErr(t, "SetClientSecret", s.SetClientSecret(t.Context(), "alpha", []byte("new hash")))
		got, err := s.Client(t.Context(), "alpha")
		noErr(t, "Client", err)
		if want := "new hash"; string(got.SecretHash) != want {
			t.Fatalf("SecretHash: got %q, want %q", got.SecretHash, want)
		}
	})

	t.Run("SetSecretOfRevokedIsConflict", func(t *testing.T) {
		s := open(t)
		noErr(t, "CreateClient", s.CreateClient(t.Context(), newClient("alpha", t0())))
		noErr(t, "RevokeClient", s.RevokeClient(t.Context(), "alpha", t0().Add(time.Hour)))
		wantCode(t, "SetClientSecret", s.SetClientSecret(t.Context(), "alpha", []byte("new hash")), energy.Conflict)
		got, err := s.Client(t.Context(), "alpha")
		noErr(t, "Client", err)
		if want := "hash of alpha"; string(got.SecretHash) != want {
			t.Fatalf("SecretHash after refused change: got %q, want %q", got.SecretHash, want)
		}
	})

	t.Run("Restore", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			revoke bool
		}{{"revoked", true}, {"active", false}} {
			t.Run(tc.name, func(t *testing.T) {
				s := open(t)
				noErr(t, "CreateClient", s.CreateClient(t.Context(), newClient("alpha", t0())))
				if tc.revoke {
					noErr(t, "RevokeClient", s.RevokeClient(t.Context(), "alpha", t0().Add(time.Hour)))
				}
				before, err := s.ClientsVersion(t.Context())
				noErr(t, "ClientsVersion", err)
				noErr(t, "RestoreClient", s.RestoreClient(t.Context(), "alpha", []byte("restored hash")))
				after, err := s.ClientsVersion(t.Context())
				noErr(t, "ClientsVersion", err)
				if after == before {
					t.Errorf("ClientsVersion: got %d before and after RestoreClient, want a change", after)
				}
				got, err := s.Client(t.Context(), "alpha")
				noErr(t, "Client", err)
				want := newClient("alpha", t0())
				want.SecretHash = []byte("restored hash")
				wantClient(t, got, want)
				if !got.Active() {
					t.Fatalf("Active after RestoreClient: got false, want true")
				}
				// A restored client is like any active one: it can be revoked again.
				noErr(t, "RevokeClient after restore", s.RevokeClient(t.Context(), "alpha", t0().Add(2*time.Hour)))
				if got, err := s.Client(t.Context(), "alpha"); err != nil || got.Active() || !got.Revoked.Equal(t0().Add(2*time.Hour)) {
					t.Fatalf("Client revoked after restore: got %+v, %v, want revoked at %v", got, err, t0().Add(2*time.Hour))
				}
			})
		}
	})

	t.Run("RestoreUnknownIsNotFound", func(t *testing.T) {
		s := open(t)
		noErr(t, "CreateClient", s.CreateClient(t.Context(), newClient("alpha", t0())))
		before, err := s.ClientsVersion(t.Context())
		noErr(t, "ClientsVersion", err)
		wantCode(t, "RestoreClient", s.RestoreClient(t.Context(), "beta", []byte("h")), energy.NotFound)
		if _, err := s.Client(t.Context(), "beta"); energy.ErrorCode(err) != energy.NotFound {
			t.Fatalf("Client after a refused RestoreClient: got %v, want code NotFound", err)
		}
		if after, err := s.ClientsVersion(t.Context()); err != nil || after != before {
			t.Fatalf("ClientsVersion after a refused RestoreClient: got %d (%v), want %d", after, err, before)
		}
	})

	t.Run("Version", func(t *testing.T) {
		s := open(t)
		// The steps share one store and run in order: each sees the previous ones' effects.
		steps := []struct {
			name    string
			do      func(ctx context.Context) error
			changes bool
		}{
			{"create", func(ctx context.Context) error { return s.CreateClient(ctx, newClient("alpha", t0())) }, true},
			{"create another", func(ctx context.Context) error { return s.CreateClient(ctx, newClient("beta", t0())) }, true},
			{"get", func(ctx context.Context) error { _, err := s.Client(ctx, "alpha"); return err }, false},
			{"list", func(ctx context.Context) error { _, err := s.Clients(ctx); return err }, false},
			{"set secret", func(ctx context.Context) error { return s.SetClientSecret(ctx, "alpha", []byte("h2")) }, true},
			{"revoke", func(ctx context.Context) error { return s.RevokeClient(ctx, "alpha", t0().Add(time.Hour)) }, true},
			{"create duplicate (fails)", func(ctx context.Context) error {
				return failsWith(energy.Conflict, s.CreateClient(ctx, newClient("alpha", t0())))
			}, false},
			{"set secret of revoked (fails)", func(ctx context.Context) error {
				return failsWith(energy.Conflict, s.SetClientSecret(ctx, "alpha", []byte("h3")))
			}, false},
			{"revoke unknown (fails)", func(ctx context.Context) error {
				return failsWith(energy.NotFound, s.RevokeClient(ctx, "nobody", t0()))
			}, false},
			{"set secret of another", func(ctx context.Context) error { return s.SetClientSecret(ctx, "beta", []byte("h4")) }, true},
			{"restore revoked", func(ctx context.Context) error { return s.RestoreClient(ctx, "alpha", []byte("h5")) }, true},
			{"restore active", func(ctx context.Context) error { return s.RestoreClient(ctx, "alpha", []byte("h6")) }, true},
			{"restore unknown (fails)", func(ctx context.Context) error {
				return failsWith(energy.NotFound, s.RestoreClient(ctx, "nobody", []byte("h7")))
			}, false},
		}
		for _, step := range steps {
			t.Run(step.name, func(t *testing.T) {
				before, err := s.ClientsVersion(t.Context())
				noErr(t, "ClientsVersion", err)
				noErr(t, step.name, step.do(t.Context()))
				after, err := s.ClientsVersion(t.Context())
				noErr(t, "ClientsVersion", err)
				if changed := after != before; changed != step.changes {
					t.Fatalf("version %d -> %d: got changed %t, want %t", before, after, changed, step.changes)
				}
			})
		}
	})
}

// failsWith returns nil if err carries code, and an error saying so otherwise.
func failsWith(code energy.Code, err error) error {
	if got := energy.ErrorCode(err); got != code {
		return fmt.Errorf("got error %v (code %q), want code %q", err, got, code)
	}
	return nil
}
