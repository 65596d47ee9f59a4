package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The literals below are the examples of the RFCs, as printed there:
//
//	RFC 7591 section 3.1 (request), 3.2.2 (error):  https://www.rfc-editor.org/rfc/rfc7591
//	RFC 7009 section 2.1 (request):                  https://www.rfc-editor.org/rfc/rfc7009
//	RFC 7662 section 2.1 (request), 2.2 (inactive):  https://www.rfc-editor.org/rfc/rfc7662
//
// The RFC 7009 and 7662 examples authenticate as client s6BhdRkqt3 with
// secret gX1fBat3bV (RFC 6749's example client) and with the bearer token
// rfcOperatorToken.
const (
	rfc7591Request = `{
 "redirect_uris": [
   "https://client.example.org/callback",
   "https://client.example.org/callback2"],
 "client_name": "My Example Client",
 "client_name#ja-Jpan-JP":
    "\u30AF\u30E9\u30A4\u30A2\u30F3\u30C8\u540D",
 "token_endpoint_auth_method": "client_secret_basic",
 "logo_uri": "https://client.example.org/logo.png",
 "jwks_uri": "https://client.example.org/my_public_keys.jwks",
 "example_extension_parameter": "example_value"
}`
	rfc7591GrantError = `{"error":"invalid_client_metadata","error_description":"The grant type 'authorization_code' is not supported by this server."}`
	rfc7009Basic      = "Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW"
	rfc7009Body       = "token=45ghiukldjahdnhzdauz&token_type_hint=refresh_token"
	rfc7662Body       = "token=2YotnFZFEjr1zCsicMWpAA"
	rfc7662Inactive   = `{"active":false}`
	rfcExampleClient  = "s6BhdRkqt3"
	rfcExampleSecret  = "gX1fBat3bV"
	formContent       = "application/x-www-form-urlencoded"
	peakValleyOneDay  = "/load/v2.0/peak-valley-load?dateFrom=01/01/2024&dateTo=01/01/2024"
)

func TestRFCEndpointsSQLite(t *testing.T) {
	t.Parallel()
	env := sqliteEnv(t)
	ensureClient(t, env, rfcExampleClient, rfcExampleSecret)
	checkRFCEndpoints(t, startServe(t, env, operatorFlags(t, "open")...), startServe(t, env, operatorFlags(t, "open")...))
}

func TestRFCEndpointsPostgreSQL(t *testing.T) {
	t.Parallel()
	env := map[string]string{"ENERGYAPI_DB": cluster.Database(t)}
	ensureClient(t, env, rfcExampleClient, rfcExampleSecret)
	checkRFCEndpoints(t, startServe(t, env, operatorFlags(t, "open")...), startServe(t, env, operatorFlags(t, "open")...))
}

func checkRFCEndpoints(t *testing.T, a, b *server) {
	t.Run("RFC 8414 metadata", func(t *testing.T) { checkMetadata(t, a) })
	t.Run("RFC 7591 registration", func(t *testing.T) { checkDynamicRegistration(t, a) })
	t.Run("RFC 7662 introspection of a token that is not one", func(t *testing.T) {
		st, h, body := exchange(t, "POST", a.base+"/introspect", map[string]string{
			"Accept": "application/json", "Content-Type": formContent, "Authorization": "Bearer " + rfcOperatorToken}, rfc7662Body)
		if st != http.StatusOK || body != rfc7662Inactive || h.Get("Cache-Control") != "no-store" {
			t.Errorf("got %d %s (Cache-Control %q), want 200 %s, no-store", st, body, h.Get("Cache-Control"), rfc7662Inactive)
		}
		st, h, _ = exchange(t, "POST", a.base+"/introspect", map[string]string{"Content-Type": formContent, "Authorization": "Bearer wrong-token-of-some-length"}, rfc7662Body)
		if st != http.StatusUnauthorized || !strings.Contains(h.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("without the operator token: got %d (%q), want 401 with a Bearer challenge", st, h.Get("WWW-Authenticate"))
		}
	})
	t.Run("RFC 7009 revocation of a token that is not one", func(t *testing.T) {
		st, _, body := exchange(t, "POST", a.base+"/revoke", map[string]string{"Content-Type": formContent, "Authorization": rfc7009Basic}, rfc7009Body)
		if st != http.StatusOK || body != "" {
			t.Errorf("got %d %q, want 200 and no body (section 2.2: an invalid token is no error)", st, body)
		}
		st, _, body = exchange(t, "POST", a.base+"/revoke", map[string]string{"Content-Type": formContent, "Authorization": "Basic czZCaGRSa3F0Mzp3cm9uZw=="}, rfc7009Body)
		if st != http.StatusUnauthorized || !strings.Contains(body, `"invalid_client"`) {
			t.Errorf("with a wrong secret: got %d %s, want 401 invalid_client", st, body)
		}
	})
	t.Run("revoked token refused on every replica and introspected inactive", func(t *testing.T) { checkTokenRevocation(t, a, b) })
}

func checkMetadata(t *testing.T, s *server) {
	st, _, body := exchange(t, "GET", s.base+"/.well-known/oauth-authorization-server", nil, "")
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); st != http.StatusOK || err != nil {
		t.Fatalf("got %d %s (%v), want 200 JSON", st, body, err)
	}
	want := map[string]any{
		"issuer": s.base, "token_endpoint": s.base + "/public-api/access-token", "jwks_uri": s.base + "/.well-known/jwks.json",
		"registration_endpoint": s.base + "/register", "revocation_endpoint": s.base + "/revoke", "introspection_endpoint": s.base + "/introspect",
	}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s: got %v, want %v", k, m[k], v)
		}
	}
	// RFC 8414 section 2: response_types_supported is required.
	if _, ok := m["response_types_supported"]; !ok {
		t.Errorf("response_types_supported missing: %s", body)
	}
	if g, _ := json.Marshal(m["grant_types_supported"]); string(g) != `["client_credentials"]` {
		t.Errorf("grant_types_supported: got %s, want [\"client_credentials\"]", g)
	}
}

func checkDynamicRegistration(t *testing.T, s *server) {
	hdr := map[string]string{"Content-Type": "application/json", "Accept": "application/json", "Authorization": "Bearer " + rfcOperatorToken}
	st, h, body := exchange(t, "POST", s.base+"/register", hdr, rfc7591Request)
	var got struct {
		ClientID        string   `json:"client_id"`
		ClientSecret    string   `json:"client_secret"`
		IssuedAt        int64    `json:"client_id_issued_at"`
		SecretExpiresAt *int64   `json:"client_secret_expires_at"`
		ClientName      string   `json:"client_name"`
		GrantTypes      []string `json:"grant_types"`
		AuthMethod      string   `json:"token_endpoint_auth_method"`
	}
	if err := json.Unmarshal([]byte(body), &got); st != http.StatusCreated || err != nil {
		t.Fatalf("section 3.1 example: got %d %s (%v), want 201", st, body, err)
	}
	if got.ClientID == "" || got.ClientSecret == "" || got.SecretExpiresAt == nil || got.ClientName != "My Example Client" ||
		got.AuthMethod != "client_secret_basic" || len(got.GrantTypes) != 1 || got.GrantTypes[0] != "client_credentials" ||
		time.Since(time.Unix(got.IssuedAt, 0)) > time.Hour || h.Get("Cache-Control") != "no-store" {
		t.Errorf("section 3.2.1 response: got %s (Cache-Control %q)", body, h.Get("Cache-Control"))
	}
	if _, st := s.token(t, got.ClientID, got.ClientSecret); st != http.StatusOK {
		t.Errorf("token for the registered client: got %d, want 200", st)
	}
	st, _, body = exchange(t, "POST", s.base+"/register", hdr, `{"client_name":"x","grant_types":["authorization_code"]}`)
	if st != http.StatusBadRequest || body != rfc7591GrantError {
		t.Errorf("section 3.2.2 example: got %d %s, want 400 %s", st, body, rfc7591GrantError)
	}
	delete(hdr, "Authorization")
	st, h, _ = exchange(t, "POST", s.base+"/register", hdr, rfc7591Request)
	if st != http.StatusUnauthorized || !strings.Contains(h.Get("WWW-Authenticate"), `error="invalid_token"`) {
		t.Errorf("without an initial access token: got %d (%q), want 401 invalid_token", st, h.Get("WWW-Authenticate"))
	}
}

// checkTokenRevocation obtains a token on replica a, has both replicas use
// it (so that each verified and cached it), revokes it on a with the RFC
// 7009 request, and checks that both replicas refuse it within the bound of
// a rotation, and that introspection answers {"active":false}.
func checkTokenRevocation(t *testing.T, a, b *server) {
	tok, st := a.token(t, rfcExampleClient, rfcExampleSecret)
	other, _ := a.token(t, rfcExampleClient, rfcExampleSecret)
	if st != http.StatusOK {
		t.Fatalf("token: got %d", st)
	}
	for name, s := range map[string]*server{"A": a, "B": b} {
		if st, body := s.get(t, peakValleyOneDay, tok); st != http.StatusOK {
			t.Fatalf("token on %s before revocation: got %d %s", name, st, body)
		}
	}
	introspect := func(s *server, token string) string {
		_, _, body := exchange(t, "POST", s.base+"/introspect", map[string]string{"Content-Type": formContent, "Authorization": "Bearer " + rfcOperatorToken}, "token="+token)
		return body
	}
	if body := introspect(b, tok); !strings.Contains(body, `"active":true,"client_id":"`+rfcExampleClient+`"`) {
		t.Fatalf("introspection before revocation: got %s, want active", body)
	}
	st, _, body := exchange(t, "POST", a.base+"/revoke", map[string]string{"Content-Type": formContent, "Authorization": rfc7009Basic}, "token="+tok+"&token_type_hint=access_token")
	if st != http.StatusOK {
		t.Fatalf("revoke: got %d %s", st, body)
	}
	deadline := time.Now().Add(credentialsEndWithin(t))
	var checks []refusal
	for name, s := range map[string]*server{"A": a, "B": b} {
		checks = append(checks, refusal{name + " refusing the revoked token", func() bool {
			st, _ := s.get(t, peakValleyOneDay, tok)
			return st == http.StatusUnauthorized
		}}, refusal{name + " introspecting it inactive", func() bool { return introspect(s, tok) == rfc7662Inactive }})
	}
	if _, late := awaitAll(deadline, checks); len(late) > 0 {
		t.Errorf("not within %s of the revocation: %v", credentialsEndWithin(t), late)
	}
	for name, s := range map[string]*server{"A": a, "B": b} {
		if st, body := s.get(t, peakValleyOneDay, other); st != http.StatusOK {
			t.Errorf("the client's other token on %s: got %d %s, want 200 (only the revoked token ends)", name, st, body)
		}
	}
}
