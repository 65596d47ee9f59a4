package auth_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/energyapi/energyapi/internal/auth"
)

// TestEnsureRestoresARevokedClient: a client revoked (as the developer
// endpoint's delete does) is made active again by Ensure with the given
// secret, in the in-memory table too, and tokens issued to it verify.
func TestEnsureRestoresARevokedClient(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	if err := e.reg.Ensure(ctx, "demo", "demo", "demo-secret"); err != nil {
		t.Fatal(err)
	}
	if err := e.reg.Revoke(ctx, "demo"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.reg.Load(ctx); err != nil { // the table holds the revoked client
		t.Fatal(err)
	}
	if _, err := e.reg.Authenticate(ctx, "demo", "demo-secret"); auth.FailureReason(err) != auth.ReasonRevokedClient {
		t.Fatalf("Authenticate after Revoke: got %v, want reason %s", err, auth.ReasonRevokedClient)
	}
	if err := e.reg.Ensure(ctx, "demo", "demo", "demo-secret"); err != nil {
		t.Fatalf("Ensure on a revoked client: got %v, want nil", err)
	}
	c, err := e.reg.Authenticate(ctx, "demo", "demo-secret")
	if err != nil || !c.Active() {
		t.Fatalf("Authenticate after Ensure: got %+v, %v, want the client active", c, err)
	}
	tok, err := e.tokens.Issue(c)
	if err != nil {
		t.Fatal(err)
	}
	if id, err := e.tokens.Verify(ctx, tok); err != nil || id != "demo" {
		t.Errorf("Verify a token issued after Ensure: got %q, %v, want demo", id, err)
	}
	stored, err := e.store.Client(ctx, "demo")
	if err != nil || !stored.Active() {
		t.Errorf("stored client after Ensure: got %+v, %v, want it active", stored, err)
	}

	// A revoked client whose secret was changed before is restored with
	// the given secret, not the one it had.
	mustRotate(t, e.reg, "demo")
	if err := e.reg.Revoke(ctx, "demo"); err != nil {
		t.Fatal(err)
	}
	if err := e.reg.Ensure(ctx, "demo", "demo", "demo-secret"); err != nil {
		t.Fatalf("Ensure on a rotated and revoked client: got %v, want nil", err)
	}
	if _, err := e.reg.Authenticate(ctx, "demo", "demo-secret"); err != nil {
		t.Errorf("Authenticate after Ensure on a rotated and revoked client: got %v, want success", err)
	}
}

// TestReservedClientRefused: the developer endpoints that change a client
// refuse a reserved one with 403 in the OAuth error shape, and it keeps
// working; other clients are rotated and deleted as before.
func TestReservedClientRefused(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	if err := e.reg.Ensure(ctx, "demo", "demo", "demo-secret"); err != nil {
		t.Fatal(err)
	}
	other, otherSecret := mustCreate(t, e.reg, "other")
	s := &auth.SelfService{Mode: auth.RegistrationOpen, Registry: e.reg, Tokens: e.tokens,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Reserved: []string{"demo"}}
	post := func(h http.Handler, id, secret string) *httptest.ResponseRecorder {
		form := url.Values{"client_id": {id}, "client_secret": {secret}}
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	for _, tc := range []struct {
		name string
		h    http.Handler
	}{{"rotate", s.HandleRotate()}, {"delete", s.HandleDelete()}} {
		t.Run(tc.name, func(t *testing.T) {
			w := post(tc.h, "demo", "demo-secret")
			var body struct {
				Error       string `json:"error"`
				Description string `json:"error_description"`
			}
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
				t.Fatalf("body %q: %v", w.Body, err)
			}
			if w.Code != http.StatusForbidden || body.Error != "access_denied" || !strings.Contains(body.Description, "client demo is reserved") {
				t.Errorf("got %d %s, want 403 access_denied saying the client is reserved", w.Code, w.Body)
			}
			if w := post(tc.h, "demo", "wrong"); w.Code != http.StatusUnauthorized {
				t.Errorf("wrong secret of the reserved client: got %d %s, want 401", w.Code, w.Body)
			}
			if _, err := e.reg.Authenticate(ctx, "demo", "demo-secret"); err != nil {
				t.Errorf("the reserved client after the refusal: got %v, want demo-secret to authenticate", err)
			}
		})
	}
	if w := post(s.HandleRotate(), other.ID, otherSecret); w.Code != http.StatusOK {
		t.Errorf("rotate another client: got %d %s, want 200", w.Code, w.Body)
	}
}
