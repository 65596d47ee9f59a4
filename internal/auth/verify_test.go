package auth_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/golang-jwt/jwt/v5"
)

type forgeClaims struct {
	ClientID   string `json:"client_id"`
	Generation string `json:"client_gen"`
	jwt.RegisteredClaims
}

// claims returns valid claims for clientID, with its current secret
// generation if the store holds it.
func (e *env) claims(clientID string) forgeClaims {
	now := e.clock.Now()
	c, _ := e.store.Client(context.Background(), clientID)
	return forgeClaims{ClientID: clientID, Generation: c.Generation(), RegisteredClaims: jwt.RegisteredClaims{
		Issuer: auth.DefaultIssuer, Subject: clientID, Audience: jwt.ClaimStrings{auth.DefaultIssuer},
		IssuedAt: jwt.NewNumericDate(now), NotBefore: jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(300 * time.Second)), ID: "x",
	}}
}

// sign signs claims with the store's current key, as the server would, after
// mutate has had its way with the token.
func (e *env) sign(tb testing.TB, c forgeClaims, mutate func(*jwt.Token)) string {
	tb.Helper()
	keys, _ := e.store.SigningKeys(context.Background())
	tok := jwt.NewWithClaims(jwt.SigningMethodEdDSA, c)
	tok.Header["kid"] = keys[0].ID
	tok.Header["typ"] = "at+jwt"
	if mutate != nil {
		mutate(tok)
	}
	s, err := tok.SignedString(keys[0].Private)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func TestVerifyRefusesForgedTokens(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	mustIssue(t, e) // registers c1
	good := e.sign(t, e.claims("c1"), nil)
	if id, err := e.tokens.Verify(ctx, good); err != nil || id != "c1" {
		t.Fatalf("control token: got %q, %v; want c1", id, err)
	}
	keys, _ := e.store.SigningKeys(ctx)
	pub := keys[0].Private.Public().(ed25519.PublicKey)
	_, otherKey, _ := ed25519.GenerateKey(rand.Reader)

	none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, e.claims("c1")).SignedString(jwt.UnsafeAllowNoneSignatureType)
	hsConfused := func() string {
		tok := jwt.NewWithClaims(jwt.SigningMethodHS256, e.claims("c1"))
		tok.Header["kid"] = keys[0].ID
		tok.Header["typ"] = "at+jwt"
		s, _ := tok.SignedString([]byte(pub)) // the public key as an HMAC secret
		return s
	}()
	otherSigner := func() string {
		tok := jwt.NewWithClaims(jwt.SigningMethodEdDSA, e.claims("c1"))
		tok.Header["kid"] = keys[0].ID
		tok.Header["typ"] = "at+jwt"
		s, _ := tok.SignedString(otherKey)
		return s
	}()
	parts := strings.Split(good, ".")
	tamperedPayload := parts[0] + "." + strings.TrimRight(jwtSegment(t, `{"client_id":"admin","sub":"admin","iss":"energyapi","aud":["energyapi"],"exp":9999999999,"iat":1}`), "=") + "." + parts[2]

	future := e.claims("c1")
	future.IssuedAt = jwt.NewNumericDate(e.clock.Now().Add(31 * time.Second))
	future.ExpiresAt = jwt.NewNumericDate(e.clock.Now().Add(331 * time.Second))
	nbf := e.claims("c1")
	nbf.NotBefore = jwt.NewNumericDate(e.clock.Now().Add(31 * time.Second))
	long := e.claims("c1")
	long.ExpiresAt = jwt.NewNumericDate(e.clock.Now().Add(24 * time.Hour))
	wrongIss := e.claims("c1")
	wrongIss.Issuer = "someone-else"
	wrongAud := e.claims("c1")
	wrongAud.Audience = jwt.ClaimStrings{"another-api"}
	subMismatch := e.claims("c1")
	subMismatch.Subject = "c2"

	cases := map[string]string{
		"empty":                   "",
		"garbage":                 "not-a-jwt",
		"alg none":                none,
		"HS256 with public key":   hsConfused,
		"signed by another key":   otherSigner,
		"tampered payload":        tamperedPayload,
		"iat 31 s in the future":  e.sign(t, future, nil),
		"nbf 31 s in the future":  e.sign(t, nbf, nil),
		"lifetime beyond the TTL": e.sign(t, long, nil),
		"wrong issuer":            e.sign(t, wrongIss, nil),
		"wrong audience":          e.sign(t, wrongAud, nil),
		"sub differs":             e.sign(t, subMismatch, nil),
		"typ JWT":                 e.sign(t, e.claims("c1"), func(tok *jwt.Token) { tok.Header["typ"] = "JWT" }),
		"unknown kid":             e.sign(t, e.claims("c1"), func(tok *jwt.Token) { tok.Header["kid"] = "nope" }),
		// RFC 7515 section 4.1.11: a recipient must refuse a JWS whose crit
		// names an extension it does not understand, and this one understands none.
		"crit header": e.sign(t, e.claims("c1"), func(tok *jwt.Token) {
			tok.Header["crit"] = []string{"x-must-understand"}
			tok.Header["x-must-understand"] = true
		}),
		"empty crit header": e.sign(t, e.claims("c1"), func(tok *jwt.Token) { tok.Header["crit"] = []string{} }),
		"oversized":         good + strings.Repeat("A", 5000),
	}
	for name, tok := range cases {
		t.Run(name, func(t *testing.T) {
			if id, err := e.tokens.Verify(ctx, tok); err == nil {
				t.Errorf("got client %q, want an error", id)
			}
		})
	}
	t.Run("iat 29 s in the future is within skew", func(t *testing.T) {
		c := e.claims("c1")
		c.IssuedAt = jwt.NewNumericDate(e.clock.Now().Add(29 * time.Second))
		c.NotBefore = c.IssuedAt
		if _, err := e.tokens.Verify(ctx, e.sign(t, c, nil)); err != nil {
			t.Errorf("got %v, want success", err)
		}
	})
}

func jwtSegment(tb testing.TB, s string) string {
	tb.Helper()
	return base64.RawURLEncoding.EncodeToString([]byte(s))
}

func TestKeyRotation(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	first, _ := e.store.SigningKeys(ctx)

	e.clock.Advance(24 * time.Hour)
	if err := e.keys.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	keys, _ := e.store.SigningKeys(ctx)
	if len(keys) != 2 {
		t.Fatalf("after rotation: got %d keys, want 2", len(keys))
	}
	// Within the activation delay the old key still signs, so that replicas
	// that have not reloaded yet can verify what this one issues.
	during := mustIssue(t, e)
	if kid := headerKid(t, during); kid != first[0].ID {
		t.Errorf("during activation: signed with %q, want the old key %q", kid, first[0].ID)
	}
	e.clock.Advance(keyCfg.Activation)
	if err := e.keys.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if kid := headerKid(t, mustIssue(t, e)); kid != keys[0].ID {
		t.Errorf("after activation: signed with %q, want the new key %q", kid, keys[0].ID)
	}
	if jwks := e.keys.JWKS(); len(jwks) != 2 {
		t.Errorf("JWKS: got %d keys, want 2", len(jwks))
	}
	// Issued 2 min ago by the retired key: still within its 5 min TTL.
	if _, err := e.tokens.Verify(ctx, during); err != nil {
		t.Errorf("a token of the retired key within its TTL: got %v, want success", err)
	}

	// After two rotation periods plus activation and TTL the first key is gone.
	e.clock.Advance(24*time.Hour + keyCfg.TokenTTL + time.Second)
	if err := e.keys.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	for _, k := range mustKeys(t, e.store) {
		if k.ID == first[0].ID {
			t.Errorf("first key %q still stored after its horizon", k.ID)
		}
	}
}

func TestTokensSignedByAnotherReplicaVerify(t *testing.T) {
	a := newEnv(t)
	ctx := context.Background()
	// Replica b shares a's store (and so its keys) but has its own keyring.
	bKeys, err := auth.NewKeyring(ctx, a.store, keyCfg, a.clock.Now, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	b := auth.NewTokens(bKeys, a.reg, auth.DefaultIssuer, 300*time.Second, a.clock.Now, rand.Reader)
	tok := mustIssue(t, a)
	if id, err := b.Verify(ctx, tok); err != nil || id != "c1" {
		t.Errorf("got %q, %v; want c1", id, err)
	}
}

// TestTokensOfAnotherIssuerRefused: the issuer is part of what a token
// says. A server with a public address (Origin.Issuer) issues tokens naming
// it and refuses those naming another, the default among them, though the
// same keys signed them; so a verifier that compares iss with the metadata's
// issuer and this server agree.
func TestTokensOfAnotherIssuerRefused(t *testing.T) {
	a := newEnv(t)
	ctx := context.Background()
	public := auth.Origin{Public: "https://api.example.org"}.Issuer()
	b := auth.NewTokens(a.keys, a.reg, public, 300*time.Second, a.clock.Now, rand.Reader)
	tok := mustIssue(t, a)
	if _, err := b.Verify(ctx, tok); err == nil {
		t.Errorf("a token naming %q verified by the issuer %q, want it refused", auth.DefaultIssuer, public)
	}
	c, err := a.store.Client(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	own, err := b.Issue(c)
	if err != nil {
		t.Fatal(err)
	}
	if id, err := b.Verify(ctx, own); err != nil || id != "c1" {
		t.Errorf("its own token: got %q, %v; want c1", id, err)
	}
	if _, err := a.tokens.Verify(ctx, own); err == nil {
		t.Errorf("a token naming %q verified by the default issuer, want it refused", public)
	}
}

// mustIssue returns a token of e's for client c1, which it registers (and
// loads into e's registry) on first use.
func mustIssue(tb testing.TB, e *env) string {
	tb.Helper()
	ctx := context.Background()
	if err := e.reg.Ensure(ctx, "c1", "c1", "c1-secret"); err != nil {
		tb.Fatal(err)
	}
	if _, err := e.reg.Load(ctx); err != nil {
		tb.Fatal(err)
	}
	c, err := e.store.Client(ctx, "c1")
	if err != nil {
		tb.Fatal(err)
	}
	s, err := e.tokens.Issue(c)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func mustKeys(tb testing.TB, s *memStore) []auth.SigningKey {
	tb.Helper()
	k, err := s.SigningKeys(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	return k
}

func headerKid(tb testing.TB, tok string) string {
	tb.Helper()
	t, _, err := jwt.NewParser().ParseUnverified(tok, jwt.MapClaims{})
	if err != nil {
		tb.Fatal(err)
	}
	kid, _ := t.Header["kid"].(string)
	return kid
}

func TestBearerToken(t *testing.T) {
	cases := []struct {
		header string
		want   string
		ok     bool
	}{
		{"Bearer abc.def.ghi", "abc.def.ghi", true},
		{"bearer abc", "abc", true},
		{"BEARER   abc  ", "abc", true},
		{"Bearer\tabc", "abc", true},
		{"abc.def.ghi", "abc.def.ghi", true}, // bare token, as a published example sends it
		{"Bearer", "Bearer", true},           // a bare token that happens to read "Bearer": verification refuses it
		{"Basic dXNlcjpwYXNz", "", false},
		{"Bearer a b", "", false},
		{"", "", false},
		{"   ", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.header, func(t *testing.T) {
			got, ok := auth.BearerToken(tc.header)
			if got != tc.want || ok != tc.ok {
				t.Errorf("got %q, %v; want %q, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestRequireBearer(t *testing.T) {
	e := newEnv(t)
	c, secret, _ := e.reg.Create(context.Background(), "c")
	srv := e.server(t)
	tok := tokenFor(t, srv.URL, c.ID, secret)
	cases := []struct {
		name      string
		authz     string
		query     string
		status    int
		challenge string
	}{
		{"bearer", "Bearer " + tok, "", 200, ""},
		{"lowercase scheme", "bearer " + tok, "", 200, ""},
		{"bare token", tok, "", 200, ""},
		{"missing header", "", "", 401, `Bearer realm="energyapi"`},
		{"token in the query string only", "", "?access_token=" + url.QueryEscape(tok), 401, `Bearer realm="energyapi"`},
		{"tampered", "Bearer " + tok[:len(tok)-2] + "xx", "", 401, `error="invalid_token"`},
		{"basic scheme", "Basic " + tok, "", 401, `error="invalid_token"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st, h := get(t, srv.URL+"/protected"+tc.query, tc.authz)
			if st != tc.status {
				t.Errorf("status: got %d, want %d", st, tc.status)
			}
			if got := h.Get("WWW-Authenticate"); !strings.Contains(got, tc.challenge) || (tc.challenge == "") != (got == "") {
				t.Errorf("WWW-Authenticate: got %q, want it to contain %q", got, tc.challenge)
			}
		})
	}
}

// TestRequireBearerRecorded: a server that keeps per-request state of its
// own gets the authenticated client through record, and the request goes
// on with the context it came with; a record that keeps nothing leaves the
// client in the context, as RequireBearer does; a refused request is not
// recorded.
func TestRequireBearerRecorded(t *testing.T) {
	e := newEnv(t)
	c, secret, _ := e.reg.Create(context.Background(), "c")
	tok := tokenFor(t, e.server(t).URL, c.ID, secret)
	fail := func(w http.ResponseWriter, r *http.Request, err error) { w.WriteHeader(http.StatusUnauthorized) }
	for _, keeps := range []bool{true, false} {
		var recorded []string
		record := func(r *http.Request, id string) bool {
			recorded = append(recorded, id)
			return keeps
		}
		var outer, seen context.Context
		h := auth.RequireBearerRecorded(e.tokens, fail, record)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			seen = r.Context()
		}))
		serve := func(authz string) int {
			req := httptest.NewRequest(http.MethodGet, "/protected", nil)
			outer = req.Context()
			req.Header.Set("Authorization", authz)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			return w.Code
		}
		if st := serve("Bearer " + tok); st != http.StatusOK || len(recorded) != 1 || recorded[0] != c.ID {
			t.Fatalf("keeps=%v: got %d, recorded %q; want 200, %q recorded", keeps, st, recorded, c.ID)
		}
		if keeps && seen != outer {
			t.Error("recorded: the handler got a context derived for the client, want the one the request came with")
		}
		if want := map[bool]string{true: "", false: c.ID}[keeps]; auth.ClientID(seen) != want {
			t.Errorf("keeps=%v: ClientID in the context %q, want %q", keeps, auth.ClientID(seen), want)
		}
		if st := serve("Bearer " + tok[:len(tok)-2] + "xx"); st != http.StatusUnauthorized || len(recorded) != 1 {
			t.Errorf("keeps=%v, tampered token: got %d and %d recorded, want 401 and none more", keeps, st, len(recorded)-1)
		}
	}
}

func BenchmarkTokenEndpoint(b *testing.B) {
	e := newEnv(b)
	c, secret, _ := e.reg.Create(context.Background(), "bench")
	body := url.Values{"client_id": {c.ID}, "client_secret": {secret}, "grant_type": {"client_credentials"}}.Encode()
	te := &auth.TokenEndpoint{Registry: e.reg, Tokens: e.tokens, Log: nil}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest(http.MethodPost, tokenPath, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			w := httptest.NewRecorder()
			te.ServeHTTP(w, req)
			if w.Code != http.StatusOK {
				b.Fatalf("status %d", w.Code)
			}
		}
	})
}

func BenchmarkVerifyCached(b *testing.B) {
	e := newEnv(b)
	tok := mustIssue(b, e)
	ctx := context.Background()
	if _, err := e.tokens.Verify(ctx, tok); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := e.tokens.Verify(ctx, tok); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkVerifyFirstSight(b *testing.B) {
	e := newEnv(b)
	toks := make([]string, b.N)
	for i := range toks {
		toks[i] = mustIssue(b, e)
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.tokens.Verify(ctx, toks[i]); err != nil {
			b.Fatal(err)
		}
	}
}
