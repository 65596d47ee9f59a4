package auth

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"
)

// accessClaims are the claims of an issued token as they go on the wire: the
// same JSON that tokenClaims produces (and Verify parses), but with plain
// fields, so that encoding them takes no reflection over jwt's types.
type accessClaims struct {
	ClientID   string    `json:"client_id"`
	Generation string    `json:"client_gen"`
	Issuer     string    `json:"iss"`
	Subject    string    `json:"sub"`
	Audience   [1]string `json:"aud"` // an array of one, as jwt.ClaimStrings encodes it
	ExpiresAt  int64     `json:"exp"`
	NotBefore  int64     `json:"nbf"`
	IssuedAt   int64     `json:"iat"`
	ID         string    `json:"jti"`
}

// jwsHeader is a signing key's protected header, Base64url-encoded once.
type jwsHeader struct {
	kid     string
	encoded string
}

// headerCache keeps the encoded header of the key that signs now.
type headerCache struct{ p atomic.Pointer[jwsHeader] }

func (c *headerCache) get(kid string) (string, error) {
	if h := c.p.Load(); h != nil && h.kid == kid {
		return h.encoded, nil
	}
	b, err := json.Marshal(struct {
		Alg string `json:"alg"`
		Kid string `json:"kid"`
		Typ string `json:"typ"`
	}{"EdDSA", kid, tokenType})
	if err != nil {
		return "", fmt.Errorf("auth: token header: %w", err)
	}
	h := &jwsHeader{kid: kid, encoded: base64.RawURLEncoding.EncodeToString(b)}
	c.p.Store(h)
	return h.encoded, nil
}

// signJWS returns the JWS compact serialization (RFC 7515 section 7.1) of
// claims under the encoded header, signed with EdDSA (RFC 8037): what
// jwt.Token.SignedString returns, built in one buffer.
func signJWS(header string, claims accessClaims, key ed25519.PrivateKey) (string, error) {
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", fmt.Errorf("auth: token claims: %w", err)
	}
	enc := base64.RawURLEncoding
	n := len(header) + 1 + enc.EncodedLen(len(payload))
	buf := make([]byte, n, n+1+enc.EncodedLen(ed25519.SignatureSize))
	copy(buf, header)
	buf[len(header)] = '.'
	enc.Encode(buf[len(header)+1:], payload)
	sig := ed25519.Sign(key, buf)
	buf = append(buf, '.')
	buf = enc.AppendEncode(buf, sig)
	return string(buf), nil
}

// newAccessClaims returns the claims of a token that issuer issues to
// clientID, whose secret generation is gen, at now.
func newAccessClaims(issuer, clientID, gen string, now time.Time, ttl time.Duration, jti string) accessClaims {
	iat := now.Unix()
	return accessClaims{
		ClientID:   clientID,
		Generation: gen,
		Issuer:     issuer,
		Subject:    clientID,
		Audience:   [1]string{issuer},
		ExpiresAt:  now.Add(ttl).Unix(),
		NotBefore:  iat,
		IssuedAt:   iat,
		ID:         jti,
	}
}
