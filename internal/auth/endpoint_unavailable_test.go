package auth_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
)

// awayStore is a client store whose lookups fail as a serving replica's do
// while the database is away: with code Unavailable.
type awayStore struct{ *memStore }

func (awayStore) Client(context.Context, string) (auth.Client, error) {
	return auth.Client{}, energy.Errorf(energy.Unavailable, "The data store is not answering")
}

// TestTokenWhileTheStoreIsAway: a token request that the in-memory client
// table cannot decide, while the store is away, is answered 503 with
// Retry-After in the OAuth error shape, and counts as no failed
// authentication; a client the table holds still gets its token.
func TestTokenWhileTheStoreIsAway(t *testing.T) {
	e := newEnv(t)
	c, secret, err := e.reg.Create(context.Background(), "acme")
	if err != nil {
		t.Fatal(err)
	}
	if e.reg, err = auth.NewRegistry(context.Background(), awayStore{e.store}, e.store, e.clock.Now, rand.Reader); err != nil {
		t.Fatal(err)
	}
	if _, err := e.reg.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	guard := &countingGuard{}
	srv := httptest.NewServer(&auth.TokenEndpoint{Registry: e.reg, Tokens: e.tokens, Guard: guard, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(srv.Close)
	client := contractClient(t)
	post := func(id, secret string) *http.Response {
		t.Helper()
		resp, err := client.PostForm(srv.URL+tokenPath, url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	for name, cred := range map[string][2]string{"wrong secret": {c.ID, "wrong"}, "unknown client": {"stranger", secret}} {
		resp := post(cred[0], cred[1])
		var body struct{ Error string }
		_ = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || body.Error != "temporarily_unavailable" {
			t.Errorf("%s: got %d, Retry-After %q, error %q; want 503, Retry-After, temporarily_unavailable",
				name, resp.StatusCode, resp.Header.Get("Retry-After"), body.Error)
		}
	}
	if guard.failed != 0 {
		t.Errorf("failed authentications told to the guard: %d, want 0", guard.failed)
	}
	resp := post(c.ID, secret)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("known client: got %d, want 200", resp.StatusCode)
	}
}

// countingGuard counts the failed authentications it is told of.
type countingGuard struct{ failed int }

func (*countingGuard) Allow(string, string) (time.Duration, bool) { return 0, true }
func (g *countingGuard) Failed(string, string)                    { g.failed++ }
