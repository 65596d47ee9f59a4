package auth

import (
	"crypto/ed25519"
	"crypto/rand"
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
