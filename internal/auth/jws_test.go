package auth

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// TestSignJWSMatchesJWTLibrary compares the issued token byte for byte with
// the one golang-jwt builds from the same header and claims: Ed25519
// signatures are deterministic, so any difference in encoding shows.
func TestSignJWSMatchesJWTLibrary(t *testing.T) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2024, 10, 27, 1, 30, 0, 999_000_000, time.UTC) // sub-second part truncated
	for _, tc := range []struct{ name, clientID, kid string }{
		{"generated id", "5ce068555388efa20fe7bc49b138a249", "k1"},
		{"id needing JSON escapes", "app:one%two+three \"quoted\" <tag> &", "kid/with+chars"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var hc headerCache
			header, err := hc.get(tc.kid)
			if err != nil {
				t.Fatal(err)
			}
			got, err := signJWS(header, newAccessClaims(DefaultIssuer, tc.clientID, "0123456789abcdef", now, 300*time.Second, "jti-1"), priv)
			if err != nil {
				t.Fatal(err)
			}
			lib := jwt.NewWithClaims(jwt.SigningMethodEdDSA, tokenClaims{
				ClientID:   tc.clientID,
				Generation: "0123456789abcdef",
				RegisteredClaims: jwt.RegisteredClaims{
					Issuer: DefaultIssuer, Subject: tc.clientID, Audience: jwt.ClaimStrings{DefaultIssuer},
					IssuedAt: jwt.NewNumericDate(now), NotBefore: jwt.NewNumericDate(now),
					ExpiresAt: jwt.NewNumericDate(now.Add(300 * time.Second)), ID: "jti-1",
				},
			})
			lib.Header["kid"] = tc.kid
			lib.Header["typ"] = tokenType
			want, err := lib.SignedString(priv)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("token:\ngot  %s\nwant %s", got, want)
			}
			// The cached header serves the next token of the same key.
			if again, _ := hc.get(tc.kid); again != header {
				t.Errorf("cached header: got %q, want %q", again, header)
			}
		})
	}
}

// TestClaimsMarshalAsJSON: the claims appended by hand are json.Marshal's
// bytes, for plain strings and for those it escapes (which take its path).
func TestClaimsMarshalAsJSON(t *testing.T) {
	now := time.Date(2024, 10, 27, 1, 30, 0, 0, time.UTC)
	for _, tc := range []struct{ name, issuer, client string }{
		{"plain", DefaultIssuer, "18226e497b634539e22157393c6529ec"},
		{"url issuer", "https://api.example.com/x?a=1&b=2", "demo"},
		{"html and quotes", `<"iss">`, `c\d`},
		{"non-ASCII", "énergie\u2028", "client\x01"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newAccessClaims(tc.issuer, tc.client, Fingerprint("h"), now, 5*time.Minute, "jti-1")
			got, err := c.marshal()
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(c)
			if string(got) != string(want) {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
}

// TestWriteTokenAsWriteJSON: the token answer appended by hand has
// writeJSON's bytes and headers.
func TestWriteTokenAsWriteJSON(t *testing.T) {
	e := &TokenEndpoint{Tokens: NewTokens(nil, nil, DefaultIssuer, 5*time.Minute, time.Now, rand.Reader)}
	for _, tok := range []string{"eyJh.eyJj.sig-_", "eyJhbGciOiJFZERTQSJ9.eyJjbGllbnRfaWQiOiJ4In0.c2ln_-"} {
		got, want := httptest.NewRecorder(), httptest.NewRecorder()
		e.writeToken(got, tok)
		writeJSON(want, http.StatusOK, tokenResponse{AccessToken: tok, TokenType: "bearer", ExpiresIn: 300})
		if got.Body.String() != want.Body.String() || !reflect.DeepEqual(got.Header(), want.Header()) || got.Code != want.Code {
			t.Errorf("%s: got %d %v %s, want %d %v %s", tok, got.Code, got.Header(), got.Body, want.Code, want.Header(), want.Body)
		}
	}
}
