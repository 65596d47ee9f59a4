package auth

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
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
	payload, err := claims.marshal()
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

// marshal returns json.Marshal(c), appended field by field when every
// string is plain (see plainJSON), which all of them are but an issuer with
// unusual characters: reflection over the struct cost a tenth of a token
// request's instructions besides signing.
func (c accessClaims) marshal() ([]byte, error) {
	if !plainJSON(c.ClientID) || !plainJSON(c.Generation) || !plainJSON(c.Issuer) || !plainJSON(c.Subject) || !plainJSON(c.Audience[0]) || !plainJSON(c.ID) {
		return json.Marshal(c)
	}
	b := make([]byte, 0, 128+2*len(c.ClientID)+len(c.Generation)+2*len(c.Issuer)+len(c.ID))
	b = append(append(append(b, `{"client_id":"`...), c.ClientID...), `","client_gen":"`...)
	b = append(append(append(b, c.Generation...), `","iss":"`...), c.Issuer...)
	b = append(append(append(b, `","sub":"`...), c.Subject...), `","aud":["`...)
	b = append(append(b, c.Audience[0]...), `"],"exp":`...)
	b = append(strconv.AppendInt(b, c.ExpiresAt, 10), `,"nbf":`...)
	b = append(strconv.AppendInt(b, c.NotBefore, 10), `,"iat":`...)
	b = append(strconv.AppendInt(b, c.IssuedAt, 10), `,"jti":"`...)
	return append(append(b, c.ID...), `"}`...), nil
}

// plainJSON reports whether encoding/json writes s between quotes as it
// is: printable ASCII without quotes, backslashes or the characters it
// escapes for HTML (<, >, &).
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}
