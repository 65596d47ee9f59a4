package auth_test

import (
	"context"
	"crypto/rand"
	"sync/atomic"
	"testing"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
)

// countingStore counts single-client lookups, the store work that a token
// request served from memory must not do, and listings of every client,
// which only a change to the clients may cause.
type countingStore struct {
	*memStore
	lookups  atomic.Int64
	listings atomic.Int64
}

func (c *countingStore) Client(ctx context.Context, id string) (auth.Client, error) {
	c.lookups.Add(1)
	return c.memStore.Client(ctx, id)
}

func (c *countingStore) Clients(ctx context.Context) ([]auth.Client, error) {
	c.listings.Add(1)
	return c.memStore.Clients(ctx)
}

// replicas returns two registries on one store: serving, with its in-memory
// table, counted; and admin, standing for another process (energyapi
// clients) that changes the registry.
func replicas(tb testing.TB) (e *env, serving *auth.Registry, counted *countingStore, admin *auth.Registry) {
	tb.Helper()
	e = newEnv(tb)
	counted = &countingStore{memStore: e.store}
	return e, newRegistry(tb, e, counted), counted, e.reg
}

// newRegistry returns a registry of the clients in clients, with e's
// store for its registrations and revocations: another replica.
func newRegistry(tb testing.TB, e *env, clients auth.ClientStore) *auth.Registry {
	tb.Helper()
	g, err := auth.NewRegistry(context.Background(), clients, e.store, e.clock.Now, rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// mustCreate creates a client named name through g and returns it with
// its secret.
func mustCreate(tb testing.TB, g *auth.Registry, name string) (auth.Client, string) {
	tb.Helper()
	c, secret, err := g.Create(context.Background(), name)
	if err != nil {
		tb.Fatal(err)
	}
	return c, secret
}

// createLoaded creates a client named name through g, as mustCreate does,
// and has serving load it.
func createLoaded(tb testing.TB, g, serving *auth.Registry, name string) (auth.Client, string) {
	tb.Helper()
	c, secret := mustCreate(tb, g, name)
	mustLoad(tb, serving, true)
	return c, secret
}

// mustRotate gives client id a new secret through g and returns it.
func mustRotate(tb testing.TB, g *auth.Registry, id string) string {
	tb.Helper()
	_, secret, err := g.Rotate(context.Background(), id)
	if err != nil {
		tb.Fatal(err)
	}
	return secret
}

func mustLoad(tb testing.TB, g *auth.Registry, wantChanged bool) {
	tb.Helper()
	changed, err := g.Load(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	if changed != wantChanged {
		tb.Fatalf("Load: got changed=%v, want %v", changed, wantChanged)
	}
}

// wantAuth asserts the outcome of Authenticate: reason "" for success.
func wantAuth(tb testing.TB, g *auth.Registry, id, secret, wantReason string) {
	tb.Helper()
	_, err := g.Authenticate(context.Background(), id, secret)
	switch {
	case wantReason == "" && err != nil:
		tb.Errorf("Authenticate(%s): got %v, want success", id, err)
	case wantReason != "" && err == nil:
		tb.Errorf("Authenticate(%s): got success, want %s", id, wantReason)
	case wantReason != "" && (auth.FailureReason(err) != wantReason || energy.ErrorCode(err) != energy.Unauthorized):
		tb.Errorf("Authenticate(%s): got %v (reason %q, code %q), want reason %q and code Unauthorized", id, err, auth.FailureReason(err), energy.ErrorCode(err), wantReason)
	}
}

func TestRegistryAuthenticatesFromMemory(t *testing.T) {
	_, serving, counted, admin := replicas(t)
	c, secret := createLoaded(t, admin, serving, "c")
	mustLoad(t, serving, false) // same version: nothing to reload
	for range 100 {
		wantAuth(t, serving, c.ID, secret, "")
	}
	if n := counted.lookups.Load(); n != 0 {
		t.Errorf("store lookups for 100 successful authentications: got %d, want 0", n)
	}
}

func TestRegistryPicksUpRevocationWhenVersionChanges(t *testing.T) {
	e, serving, _, admin := replicas(t)
	ctx := context.Background()
	c, secret := createLoaded(t, admin, serving, "c")
	tokens := e.tokensOf(serving)
	tok := issue(t, tokens, c)
	if err := admin.Revoke(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	// Until the serving process reloads, its table still holds the client
	// as active: this is what being served from memory means, and why
	// revocation takes effect when the store tells of it (see Sync).
	wantAuth(t, serving, c.ID, secret, "")
	if _, err := tokens.Verify(ctx, tok); err != nil {
		t.Fatalf("before the reload: got %v, want the token accepted", err)
	}
	mustLoad(t, serving, true) // the clients version changed
	wantAuth(t, serving, c.ID, secret, auth.ReasonRevokedClient)
	// The token verifier consults the same table.
	if _, err := tokens.Verify(ctx, tok); err == nil {
		t.Error("after the reload: got the revoked client's token accepted, want it refused")
	}
}

func TestRegistryFallsBackToStoreForWhatMemoryRefuses(t *testing.T) {
	_, serving, counted, admin := replicas(t)
	c, old := createLoaded(t, admin, serving, "c")

	// A client created after the load works at once: the store decides.
	fresh, freshSecret := mustCreate(t, admin, "fresh")
	wantAuth(t, serving, fresh.ID, freshSecret, "")

	// A secret rotated by another process: the new one works at once, the
	// old one until the next load.
	rotated := mustRotate(t, admin, c.ID)
	wantAuth(t, serving, c.ID, rotated, "")
	wantAuth(t, serving, c.ID, old, "")
	mustLoad(t, serving, true)
	wantAuth(t, serving, c.ID, old, auth.ReasonWrongSecret)
	wantAuth(t, serving, c.ID, rotated, "")
	wantAuth(t, serving, "no-such-client", "whatever", auth.ReasonUnknownClient)

	before := counted.lookups.Load()
	wantAuth(t, serving, c.ID, rotated, "")
	wantAuth(t, serving, fresh.ID, freshSecret, "")
	if n := counted.lookups.Load() - before; n != 0 {
		t.Errorf("store lookups after the reload: got %d, want 0", n)
	}
}

func TestRegistryChangesApplyAtOnceInTheSameProcess(t *testing.T) {
	_, serving, _, _ := replicas(t)
	ctx := context.Background()
	c, secret := createLoaded(t, serving, serving, "c")
	rotated := mustRotate(t, serving, c.ID)
	wantAuth(t, serving, c.ID, secret, auth.ReasonWrongSecret)
	if err := serving.Revoke(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	wantAuth(t, serving, c.ID, rotated, auth.ReasonRevokedClient)
}
