package auth_test

import (
	"context"
	"crypto/rand"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
)

// tokenStatus returns the status of a token request with these credentials.
func tokenStatus(tb testing.TB, srvURL, id, secret string) int {
	tb.Helper()
	resp, err := http.PostForm(srvURL+tokenPath, url.Values{"client_id": {id}, "client_secret": {secret}, "grant_type": {"client_credentials"}})
	if err != nil {
		tb.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// admin returns a registry on e's store standing for another process, such
// as "energyapi clients", whose changes e.reg learns of only by reloading.
func admin(tb testing.TB, e *env) *auth.Registry { return newRegistry(tb, e, e.store) }

// TestRotationAndRevocationEndEarlierTokensOnReload checks that once the
// serving registry has reloaded after another process rotated a secret or
// revoked a client (what a change notification makes it do), the old secret
// gets no token and the tokens issued before are refused, even those the
// verifier has already verified and cached.
func TestRotationAndRevocationEndEarlierTokensOnReload(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	other := admin(t, e)
	c, old := mustCreate(t, other, "c")
	mustLoad(t, e.reg, true)
	srv := e.server(t)
	before := tokenFor(t, srv.URL, c.ID, old)
	if st, _ := get(t, srv.URL+"/protected", "Bearer "+before); st != http.StatusOK {
		t.Fatalf("before the rotation: got %d, want 200", st)
	}

	fresh := mustRotate(t, other, c.ID)
	mustLoad(t, e.reg, true)
	if st := tokenStatus(t, srv.URL, c.ID, old); st != http.StatusUnauthorized {
		t.Errorf("token request with the old secret after the reload: got %d, want 401", st)
	}
	if st, _ := get(t, srv.URL+"/protected", "Bearer "+before); st != http.StatusUnauthorized {
		t.Errorf("token issued before the rotation, after the reload: got %d, want 401", st)
	}
	after := tokenFor(t, srv.URL, c.ID, fresh)
	if st, _ := get(t, srv.URL+"/protected", "Bearer "+after); st != http.StatusOK {
		t.Fatalf("token issued with the new secret: got %d, want 200", st)
	}

	if err := other.Revoke(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	mustLoad(t, e.reg, true)
	if st := tokenStatus(t, srv.URL, c.ID, fresh); st != http.StatusUnauthorized {
		t.Errorf("token request after the revocation: got %d, want 401", st)
	}
	if st, _ := get(t, srv.URL+"/protected", "Bearer "+after); st != http.StatusUnauthorized {
		t.Errorf("token issued before the revocation, after the reload: got %d, want 401", st)
	}
}

// notifyingStore is a memStore that tells its watchers of client changes
// when the test says so, as the PostgreSQL store does on a notification.
type notifyingStore struct {
	*memStore
	notify chan struct{}
}

func (n *notifyingStore) WatchClients(ctx context.Context, changed func(), _ func(error)) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-n.notify:
			changed()
		}
	}
}

// syncing returns a registry on e's store, through a notifyingStore, with
// Sync running until the test ends and polling only hourly, once its first
// load holds client id; and the channel that makes the store notify.
func syncing(t *testing.T, e *env, id string) (*auth.Registry, chan<- struct{}) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ns := &notifyingStore{memStore: e.store, notify: make(chan struct{}, 1)}
	serving, err := auth.NewRegistry(ctx, ns, ns, e.clock.Now, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		serving.Sync(ctx, time.Hour, func(err error) { t.Error(err) })
	}()
	t.Cleanup(func() { cancel(); <-done })
	waitUntil(t, "the first load", func() bool { return serving.Registered(id) })
	return serving, ns.notify
}

// TestSyncReloadsWhenTheStoreNotifies checks that Sync reloads as soon as
// the store tells of a change, not at its next poll (an hour away here).
func TestSyncReloadsWhenTheStoreNotifies(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	other := admin(t, e)
	c, old := mustCreate(t, other, "c")
	serving, notify := syncing(t, e, c.ID)
	wantAuth(t, serving, c.ID, old, "")

	mustRotate(t, other, c.ID)
	notify <- struct{}{}
	waitUntil(t, "the old secret refused after the notification", func() bool {
		_, err := serving.Authenticate(ctx, c.ID, old)
		return auth.FailureReason(err) == auth.ReasonWrongSecret
	})
}

// waitUntil polls cond until it holds, failing after a bound generous
// enough for a busy machine: a wait for an event, not a timing assertion.
func waitUntil(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("%s: not within 10s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestTokensAgainstATableBehindTheStore checks the tokens a replica sees
// before it has reloaded: one issued elsewhere after a rotation is accepted
// (the store decides what the table does not know, and the table is
// reloaded at once), and once a token is
// known to predate a rotation, refusing it again costs no store lookup.
func TestTokensAgainstATableBehindTheStore(t *testing.T) {
	e, serving, counted, other := replicas(t)
	ctx := context.Background()
	c, _ := createLoaded(t, other, serving, "c")
	tokens := e.tokensOf(serving)
	before := issue(t, tokens, c)
	mustRotate(t, other, c.ID)
	rotated, err := e.store.Client(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	newer := issue(t, e.tokens, rotated) // by the replica that rotated
	if _, err := tokens.Verify(ctx, newer); err != nil {
		t.Errorf("a token issued with the new secret, before the reload: got %v, want it accepted", err)
	}
	// Verify found the table behind the store and reloaded it.
	mustLoad(t, serving, false)
	if _, err := tokens.Verify(ctx, newer); err != nil {
		t.Errorf("a token issued with the new secret, after the reload: got %v, want it accepted", err)
	}
	if _, err := tokens.Verify(ctx, before); err == nil {
		t.Error("a token issued before the rotation, after the reload: accepted, want it refused")
	}
	lookups := counted.lookups.Load()
	for range 10 {
		if _, err := tokens.Verify(ctx, before); err == nil {
			t.Fatal("the token issued before the rotation, again: accepted, want it refused")
		}
	}
	if n := counted.lookups.Load() - lookups; n != 0 {
		t.Errorf("store lookups for refusing a stale token 10 times more: got %d, want 0", n)
	}
}
