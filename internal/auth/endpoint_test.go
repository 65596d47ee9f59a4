package auth_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/testwait"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

const tokenPath = "/public-api/access-token"

// contractClient returns an HTTP client that reports to tb every token
// request and answer that does not match the API's OpenAPI document.
func contractClient(tb testing.TB) *http.Client {
	return &http.Client{Transport: apitest.NewValidator(tb).Transport(tb, nil)}
}

// server serves the token endpoint at both paths and a protected route that
// echoes the authenticated client ID.
func (e *env) server(tb testing.TB) *httptest.Server {
	tb.Helper()
	mux := http.NewServeMux()
	te := &auth.TokenEndpoint{Registry: e.reg, Tokens: e.tokens, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	mux.Handle(tokenPath, te)
	mux.Handle("/transparency/oauth/accessToken", te)
	fail := func(w http.ResponseWriter, r *http.Request, err error) {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, err.Error())
	}
	mux.Handle("/protected", auth.RequireBearer(e.tokens, fail)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, auth.ClientID(r.Context()))
	})))
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	return srv
}

func TestClientCredentialsLibrary(t *testing.T) {
	// Characters that RFC 6749 section 2.3.1 requires to be form-url-encoded
	// inside Basic credentials.
	const id, secret = "app:one%two+three", "se:cr%et+with space"
	for _, style := range []struct {
		name  string
		style oauth2.AuthStyle
	}{{"params", oauth2.AuthStyleInParams}, {"header", oauth2.AuthStyleInHeader}} {
		t.Run(style.name, func(t *testing.T) {
			e := newEnv(t)
			if err := e.reg.Ensure(context.Background(), id, "lib", secret); err != nil {
				t.Fatal(err)
			}
			srv := e.server(t)
			cfg := clientcredentials.Config{ClientID: id, ClientSecret: secret, TokenURL: srv.URL + tokenPath, AuthStyle: style.style}
			tok, err := cfg.Token(context.WithValue(context.Background(), oauth2.HTTPClient, contractClient(t)))
			if err != nil {
				t.Fatalf("Token: %v", err)
			}
			if tok.TokenType != "bearer" {
				t.Errorf("token type: got %q, want %q", tok.TokenType, "bearer")
			}
			// The library turns expires_in into an Expiry on its own clock.
			if left := time.Until(tok.Expiry); left < 290*time.Second || left > 300*time.Second {
				t.Errorf("expiry: got %s from now, want 300 s", left)
			}
			resp, err := cfg.Client(context.Background()).Get(srv.URL + "/protected")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || string(body) != id {
				t.Errorf("protected route: got %d %q, want 200 %q", resp.StatusCode, body, id)
			}
		})
	}
}

func TestTokenSpecShapeAndLegacyPath(t *testing.T) {
	e := newEnv(t)
	c, secret, err := e.reg.Create(context.Background(), "curl")
	if err != nil {
		t.Fatal(err)
	}
	srv := e.server(t)
	for _, path := range []string{tokenPath, "/transparency/oauth/accessToken"} {
		t.Run(path, func(t *testing.T) {
			form := url.Values{"client_id": {c.ID}, "client_secret": {secret}, "grant_type": {"client_credentials"}}
			resp, err := contractClient(t).PostForm(srv.URL+path, form)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status: got %d, want 200", resp.StatusCode)
			}
			for h, want := range map[string]string{"Cache-Control": "no-store", "Pragma": "no-cache", "Content-Type": "application/json;charset=UTF-8"} {
				if got := resp.Header.Get(h); got != want {
					t.Errorf("%s: got %q, want %q", h, got, want)
				}
			}
			var raw map[string]any
			if err := json.NewDecoder(resp.Body).Decode(&raw); err != nil {
				t.Fatal(err)
			}
			if len(raw) != 3 {
				t.Errorf("fields: got %v, want access_token, token_type, expires_in", raw)
			}
			if tok, _ := raw["access_token"].(string); tok == "" {
				t.Errorf("access_token: got %v, want a non-empty string", raw["access_token"])
			}
			if raw["token_type"] != "bearer" {
				t.Errorf("token_type: got %v, want bearer", raw["token_type"])
			}
			if raw["expires_in"] != float64(300) { // a JSON number, not a string
				t.Errorf("expires_in: got %#v, want the number 300", raw["expires_in"])
			}
		})
	}
}

func TestTokenErrors(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	good, secret := mustCreate(t, e.reg, "good")
	revoked, rsecret := mustCreate(t, e.reg, "revoked")
	if err := e.reg.Revoke(ctx, revoked.ID); err != nil {
		t.Fatal(err)
	}
	srv := e.server(t)
	form := func(kv ...string) string {
		v := url.Values{}
		for i := 0; i < len(kv); i += 2 {
			v.Add(kv[i], kv[i+1])
		}
		return v.Encode()
	}
	basic := func(id, secret string) string {
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(id)+":"+url.QueryEscape(secret)))
	}
	const formType = "application/x-www-form-urlencoded"
	cases := []struct {
		name        string
		method      string
		contentType string
		authz       string
		body        string
		status      int
		errCode     string
		headers     map[string]string
	}{
		{"GET", http.MethodGet, "", "", "", 405, "invalid_request", map[string]string{"Allow": "POST"}},
		{"PUT", http.MethodPut, formType, "", form("grant_type", "client_credentials"), 405, "invalid_request", map[string]string{"Allow": "POST"}},
		{"JSON body", http.MethodPost, "application/json", "", `{"grant_type":"client_credentials"}`, 400, "invalid_request", nil},
		{"no content type", http.MethodPost, "", "", form("grant_type", "client_credentials"), 400, "invalid_request", nil},
		{"missing grant_type", http.MethodPost, formType, "", form("client_id", good.ID, "client_secret", secret), 400, "invalid_request", nil},
		{"missing client_id", http.MethodPost, formType, "", form("grant_type", "client_credentials", "client_secret", secret), 400, "invalid_request", nil},
		{"missing client_secret", http.MethodPost, formType, "", form("grant_type", "client_credentials", "client_id", good.ID), 400, "invalid_request", nil},
		{"repeated parameter", http.MethodPost, formType, "", form("grant_type", "client_credentials", "client_id", good.ID, "client_id", good.ID, "client_secret", secret), 400, "invalid_request", nil},
		{"basic and form secret", http.MethodPost, formType, basic(good.ID, secret), form("grant_type", "client_credentials", "client_id", good.ID, "client_secret", secret), 400, "invalid_request", nil},
		{"malformed basic", http.MethodPost, formType, "Basic !!!", form("grant_type", "client_credentials"), 400, "invalid_request", nil},
		{"password grant", http.MethodPost, formType, "", form("grant_type", "password", "client_id", good.ID, "client_secret", secret), 400, "unsupported_grant_type", nil},
		{"unknown client", http.MethodPost, formType, "", form("grant_type", "client_credentials", "client_id", "nobody", "client_secret", secret), 401, "invalid_client", nil},
		{"wrong secret", http.MethodPost, formType, "", form("grant_type", "client_credentials", "client_id", good.ID, "client_secret", secret+"x"), 401, "invalid_client", nil},
		{"revoked client", http.MethodPost, formType, "", form("grant_type", "client_credentials", "client_id", revoked.ID, "client_secret", rsecret), 401, "invalid_client", nil},
		{"wrong secret by basic", http.MethodPost, formType, basic(good.ID, "nope"), form("grant_type", "client_credentials"), 401, "invalid_client", map[string]string{"WWW-Authenticate": `Basic realm="energyapi"`}},
		{"body over 8 KiB", http.MethodPost, formType, "", form("grant_type", "client_credentials", "client_id", good.ID, "client_secret", secret, "pad", strings.Repeat("x", 8<<10)), 413, "invalid_request", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, srv.URL+tokenPath, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			if tc.authz != "" {
				req.Header.Set("Authorization", tc.authz)
			}
			resp, err := contractClient(t).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Errorf("status: got %d, want %d", resp.StatusCode, tc.status)
			}
			want := map[string]string{"Cache-Control": "no-store", "Pragma": "no-cache", "Content-Type": "application/json;charset=UTF-8"}
			for k, v := range tc.headers {
				want[k] = v
			}
			if _, ok := tc.headers["WWW-Authenticate"]; !ok {
				want["WWW-Authenticate"] = ""
			}
			for h, v := range want {
				if got := resp.Header.Get(h); got != v {
					t.Errorf("%s: got %q, want %q", h, got, v)
				}
			}
			var body map[string]string
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatalf("body is not RFC 6749 JSON: %v", err)
			}
			if body["error"] != tc.errCode || body["error_description"] == "" || len(body) != 2 {
				t.Errorf("body: got %v, want error %q with a description", body, tc.errCode)
			}
			if strings.Contains(body["error_description"], secret) {
				t.Errorf("error description repeats the secret: %q", body["error_description"])
			}
		})
	}
}

// tokenFor obtains a token over HTTP as a client of the spec would.
func tokenFor(tb testing.TB, srvURL, id, secret string) string {
	tb.Helper()
	resp, err := http.PostForm(srvURL+tokenPath, url.Values{"client_id": {id}, "client_secret": {secret}, "grant_type": {"client_credentials"}})
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var tr struct {
		AccessToken string `json:"access_token"`
	}
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("token: status %d", resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(&tr); err != nil {
		tb.Fatal(err)
	}
	return tr.AccessToken
}

func get(tb testing.TB, url, authz string) (int, http.Header) {
	tb.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header
}

func TestTokenExpiresAfterTTL(t *testing.T) {
	e := newEnv(t)
	c, secret, _ := e.reg.Create(context.Background(), "c")
	srv := e.server(t)
	tok := tokenFor(t, srv.URL, c.ID, secret)
	e.clock.Advance(299 * time.Second)
	if st, _ := get(t, srv.URL+"/protected", "Bearer "+tok); st != http.StatusOK {
		t.Fatalf("at 299 s: got %d, want 200", st)
	}
	e.clock.Advance(time.Second)
	st, h := get(t, srv.URL+"/protected", "Bearer "+tok)
	if st != http.StatusUnauthorized || !strings.Contains(h.Get("WWW-Authenticate"), `error="invalid_token"`) {
		t.Fatalf("at 300 s: got %d %q, want 401 with error=\"invalid_token\"", st, h.Get("WWW-Authenticate"))
	}
}

func TestRevokedClientTokenRefused(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go e.reg.Sync(ctx, 10*time.Millisecond, func(err error) { t.Error(err) })
	c, secret, _ := e.reg.Create(ctx, "c")
	srv := e.server(t)
	tok := tokenFor(t, srv.URL, c.ID, secret)
	if st, _ := get(t, srv.URL+"/protected", "Bearer "+tok); st != http.StatusOK {
		t.Fatalf("before revocation: got %d, want 200", st)
	}
	if err := e.reg.Revoke(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	// The sync polls every 10 ms; the requirement is 5 s.
	deadline := time.Now().Add(testwait.Scale(5 * time.Second))
	for {
		st, _ := get(t, srv.URL+"/protected", "Bearer "+tok)
		if st == http.StatusUnauthorized {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("5 s after revocation: got %d, want 401", st)
		}
		time.Sleep(5 * time.Millisecond)
	}
	resp, err := http.PostForm(srv.URL+tokenPath, url.Values{"client_id": {c.ID}, "client_secret": {secret}, "grant_type": {"client_credentials"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("token request after revocation: got %d, want 401", resp.StatusCode)
	}
}

func TestRotatedSecret(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	c, old, _ := e.reg.Create(ctx, "c")
	fresh := mustRotate(t, e.reg, c.ID)
	if fresh == old {
		t.Fatal("rotation returned the old secret")
	}
	if _, err := e.reg.Authenticate(ctx, c.ID, old); err == nil {
		t.Error("old secret: got success, want failure")
	}
	if _, err := e.reg.Authenticate(ctx, c.ID, fresh); err != nil {
		t.Errorf("new secret: got %v, want success", err)
	}
}

func TestGeneratedSecrets(t *testing.T) {
	e := newEnv(t)
	c, secret, _ := e.reg.Create(context.Background(), "c")
	raw, err := base64.RawURLEncoding.DecodeString(secret)
	if err != nil || len(raw) < 32 {
		t.Errorf("secret %q: got %d random bytes, want at least 32", secret, len(raw))
	}
	stored, _ := e.store.Client(context.Background(), c.ID)
	if strings.Contains(string(stored.SecretHash), secret) {
		t.Error("the store holds the secret itself")
	}
}

func TestEnsureWhenAnotherReplicaCreatesTheClient(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, stored string
	}{{"same secret", "demo-secret"}, {"other secret", "older-secret"}} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			// The other replica's client is already there, but our first lookup misses it.
			if err := e.reg.Ensure(ctx, "demo", "demo", tc.stored); err != nil {
				t.Fatal(err)
			}
			racing := &racingStore{memStore: e.store}
			reg, err := auth.NewRegistry(ctx, racing, e.store, e.clock.Now, rand.Reader)
			if err != nil {
				t.Fatal(err)
			}
			if err := reg.Ensure(ctx, "demo", "demo", "demo-secret"); err != nil {
				t.Fatalf("got %v, want success", err)
			}
			if _, err := reg.Authenticate(ctx, "demo", "demo-secret"); err != nil {
				t.Errorf("after Ensure: got %v, want demo-secret to authenticate", err)
			}
		})
	}
}
