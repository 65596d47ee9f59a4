package auth_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
)

// TestTokenRevocationReloadsNoClient checks what keeps /revoke cheap with
// many revoked tokens: the replica that revokes a token refuses it at once,
// and another replica's next load reads that revocation alone, listing no
// client, and then refuses it too, and only it.
func TestTokenRevocationReloadsNoClient(t *testing.T) {
	e, serving, counted, other := replicas(t)
	ctx := t.Context()
	c, _ := createLoaded(t, other, serving, "c")
	mustLoad(t, other, true)
	tokens := e.tokensOf(serving)
	revoked, kept := issue(t, e.tokens, c), issue(t, e.tokens, c) // through other
	for _, tok := range []string{revoked, kept} {
		if _, err := tokens.Verify(ctx, tok); err != nil {
			t.Fatalf("before the revocation: got %v, want the token accepted", err)
		}
	}
	listings := counted.listings.Load()

	if wrong, err := e.tokens.Revoke(ctx, c.ID, revoked); wrong || err != nil {
		t.Fatalf("Revoke: got %v, %v, want it done", wrong, err)
	}
	if _, err := e.tokens.Verify(ctx, revoked); err == nil {
		t.Error("on the replica that revoked it, before any load: accepted, want refused")
	}
	mustLoad(t, serving, false) // no client changed: the table stays
	if _, err := tokens.Verify(ctx, revoked); err == nil {
		t.Error("on the other replica after its load: accepted, want refused")
	}
	if _, err := tokens.Verify(ctx, kept); err != nil {
		t.Errorf("the client's other token: got %v, want it accepted", err)
	}
	if n := counted.listings.Load() - listings; n != 0 {
		t.Errorf("client listings for a token's revocation: got %d, want 0", n)
	}
}

// TestVerifyAmongManyRevokedAllocatesNothing checks the data requests'
// bearer check with 10,000 revoked tokens held: a cached token costs no
// allocation, revoked or not, and a revoked one is refused.
func TestVerifyAmongManyRevokedAllocatesNothing(t *testing.T) {
	e, serving, _, other := replicas(t)
	ctx := t.Context()
	c, _ := mustCreate(t, other, "c")
	now := e.clock.Now()
	for i := range 10_000 {
		if err := e.store.RevokeToken(ctx, auth.RevokedToken{ID: fmt.Sprint("jti-", i), ClientID: c.ID, Expires: now.Add(time.Hour)}, now); err != nil {
			t.Fatal(err)
		}
	}
	tokens := e.tokensOf(serving)
	live, revoked := issue(t, e.tokens, c), issue(t, e.tokens, c)
	if _, err := e.tokens.Revoke(ctx, c.ID, revoked); err != nil {
		t.Fatal(err)
	}
	mustLoad(t, serving, true)
	verify := func(tok string, want bool) {
		t.Helper()
		if _, err := tokens.Verify(ctx, tok); (err == nil) != want {
			t.Fatalf("Verify: got %v, want accepted %v", err, want)
		}
	}
	verify(live, true)
	verify(revoked, false)
	for name, tok := range map[string]string{"live": live, "revoked": revoked} {
		if n := testing.AllocsPerRun(100, func() { _, _ = tokens.Verify(ctx, tok) }); n != 0 {
			t.Errorf("allocations per Verify of a cached %s token: got %v, want 0", name, n)
		}
	}
}

// TestSyncHearsOfARevocation checks that Sync reads a revocation as soon as
// the store tells of it, not at its next poll (an hour away here).
func TestSyncHearsOfARevocation(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	c, _ := mustCreate(t, e.reg, "c")
	serving, notify := syncing(t, e, c.ID)
	tokens := e.tokensOf(serving)
	tok := issue(t, e.tokens, c)
	if _, err := tokens.Verify(ctx, tok); err != nil {
		t.Fatalf("before the revocation: got %v, want the token accepted", err)
	}
	if _, err := e.tokens.Revoke(ctx, c.ID, tok); err != nil {
		t.Fatal(err)
	}
	notify <- struct{}{}
	waitUntil(t, "the revoked token refused after the notification", func() bool {
		_, err := tokens.Verify(ctx, tok)
		return err != nil
	})
}

// issue returns a token for c from tokens.
func issue(tb testing.TB, tokens *auth.Tokens, c auth.Client) string {
	tb.Helper()
	tok, err := tokens.Issue(c)
	if err != nil {
		tb.Fatal(err)
	}
	return tok
}
