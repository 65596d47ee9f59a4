package auth

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/golang-jwt/jwt/v5"
)

const (
	// DefaultIssuer is the "iss" of every access token, also its required
	// "aud", on a server given no public address (see Origin.Issuer).
	DefaultIssuer = "energyapi"
	// tokenType is the JWT "typ" of access tokens (RFC 9068 section 2.1): other
	// JWTs signed by the same keys, should there ever be any, are not tokens.
	tokenType = "at+jwt"
	// maxSkew is how far in the future a token's iat or nbf may lie, for
	// replicas whose clocks differ slightly.
	maxSkew = 30 * time.Second
	// maxTokenLen refuses oversized Authorization values before any parsing.
	maxTokenLen = 4096
)

// tokenClaims are the RFC 9068 claims of an access token, with the secret
// generation of the client it was issued to (see Client.Generation).
type tokenClaims struct {
	ClientID   string `json:"client_id"`
	Generation string `json:"client_gen"`
	jwt.RegisteredClaims
}

// Tokens issues and verifies access tokens.
type Tokens struct {
	keys    *Keyring
	clients *Registry // nil: tokens are not checked against their client
	issuer  string    // the iss and aud of every token issued and accepted
	ttl     time.Duration
	now     func() time.Time
	rand    io.Reader
	parser  *jwt.Parser

	// refuse, when set, refuses valid tokens early (see RefuseWhen).
	refuse func(clientID string, issued time.Time) bool
	cache  verifiedCache
	header headerCache
}

// NewTokens returns a Tokens that signs with keys and issues tokens valid for
// ttl, naming issuer (Origin.Issuer) as their iss and aud. Verify refuses
// tokens naming another issuer, and the tokens of clients that clients
// knows as revoked or as having changed their secret since; a nil clients
// checks only signatures and claims, for tests of those alone.
func NewTokens(keys *Keyring, clients *Registry, issuer string, ttl time.Duration, now func() time.Time, random io.Reader) *Tokens {
	return &Tokens{
		keys: keys, clients: clients, issuer: issuer, ttl: ttl, now: now, rand: random,
		// Only EdDSA: a token naming any other algorithm ("none", or HS256
		// with the public key as secret) is refused before its signature is read.
		parser: jwt.NewParser(jwt.WithValidMethods([]string{jwt.SigningMethodEdDSA.Alg()}), jwt.WithoutClaimsValidation(), jwt.WithStrictDecoding()),
		cache:  verifiedCache{max: 100_000},
	}
}

// RefuseWhen makes Verify also refuse the tokens for which f, given the
// client and when the token was issued, returns true: the sandbox uses it to
// make a client's tokens stop working before their expires_in. Call it
// before the tokens are used.
func (t *Tokens) RefuseWhen(f func(clientID string, issued time.Time) bool) { t.refuse = f }

// Issuer returns the iss and aud of the tokens issued and accepted.
func (t *Tokens) Issuer() string { return t.issuer }

// TTL returns the lifetime of issued tokens.
func (t *Tokens) TTL() time.Duration { return t.ttl }

// Issue returns a signed access token for the client, bound to its current
// secret.
func (t *Tokens) Issue(c Client) (string, error) {
	now := t.now()
	jti := make([]byte, 12)
	if _, err := io.ReadFull(t.rand, jti); err != nil {
		return "", fmt.Errorf("auth: random: %w", err)
	}
	key := t.keys.signing()
	header, err := t.header.get(key.ID)
	if err != nil {
		return "", err
	}
	gen := c.Generation
	if t.clients != nil {
		gen = func() string { return t.clients.generation(c) }
	}
	return signJWS(header, newAccessClaims(t.issuer, c.ID, gen(), now, t.ttl, base64.RawURLEncoding.EncodeToString(jti)), key.Private)
}

// errInvalidToken is the one message for every unusable token: callers learn
// nothing from it that would help forge one.
var errInvalidToken = energy.Errorf(energy.Unauthorized, "Invalid or expired access token")

// Verify returns the client ID of a valid token, or an error with code
// Unauthorized. A token already verified costs two map lookups until it
// expires: the cache of verified signatures, and the client's current secret
// generation, which the cache never stands in for, so that a rotation or a
// revocation refuses the tokens issued before it as soon as the registry
// knows of it.
func (t *Tokens) Verify(ctx context.Context, token string) (string, error) {
	now := t.now()
	v, ok := t.cache.get(token)
	if !ok {
		if v, ok = t.verify(ctx, token, now); !ok {
			return "", errInvalidToken
		}
		t.cache.put(token, v, now)
	}
	switch {
	case v.refused || !now.Before(v.exp):
		return "", errInvalidToken
	case t.refuse != nil && t.refuse(v.clientID, v.iat):
		return "", errInvalidToken
	}
	if t.clients != nil {
		ok, final := t.clients.tokenValid(ctx, v.clientID, v.gen)
		if ok && t.clients.tokenRevoked(v.jti) {
			ok, final = false, true
		}
		if !ok {
			if final { // no store lookup for this token again
				v.refused = true
				t.cache.put(token, v, now)
			}
			return "", errInvalidToken
		}
	}
	return v.clientID, nil
}

// verify checks a token's signature and claims.
func (t *Tokens) verify(ctx context.Context, token string, now time.Time) (verified, bool) {
	if len(token) > maxTokenLen {
		return verified{}, false
	}
	var c tokenClaims
	tok, err := t.parser.ParseWithClaims(token, &c, func(tok *jwt.Token) (any, error) {
		if typ, _ := tok.Header["typ"].(string); typ != tokenType {
			return nil, errors.New("not an access token")
		}
		// RFC 7515 section 4.1.11: crit lists header extensions that must be
		// understood, and this verifier understands none (an empty list is
		// invalid too), so any crit is refused.
		if _, ok := tok.Header["crit"]; ok {
			return nil, errors.New("unsupported critical header")
		}
		kid, _ := tok.Header["kid"].(string)
		pk, ok := t.keys.public(ctx, kid)
		if !ok {
			return nil, errors.New("unknown key")
		}
		return pk, nil
	})
	if err != nil || !tok.Valid || !t.claimsValid(&c, now) {
		return verified{}, false
	}
	return verified{clientID: c.ClientID, gen: c.Generation, jti: c.ID, exp: c.ExpiresAt.Time, iat: c.IssuedAt.Time}, true
}

// claimsValid checks expiry exactly (no leeway: a token is dead at exp) and
// allows maxSkew only for tokens that look issued slightly in the future.
func (t *Tokens) claimsValid(c *tokenClaims, now time.Time) bool {
	switch {
	case c.ClientID == "" || c.Subject != c.ClientID || c.Issuer != t.issuer:
		return false
	case c.ExpiresAt == nil || !now.Before(c.ExpiresAt.Time):
		return false
	case c.IssuedAt == nil || c.IssuedAt.After(now.Add(maxSkew)):
		return false
	case c.NotBefore != nil && c.NotBefore.After(now.Add(maxSkew)):
		return false
	case c.ExpiresAt.Sub(c.IssuedAt.Time) > t.ttl+maxSkew:
		return false // never honour a lifetime longer than this server grants
	}
	for _, a := range c.Audience {
		if a == t.issuer {
			return true
		}
	}
	return false
}

// verified is a token whose signature and claims were checked.
type verified struct {
	clientID string
	gen      string // the client's secret generation when it was issued
	jti      string // the token's ID, which a revocation names
	exp, iat time.Time
	refused  bool // its client was revoked or changed its secret since
}

// verifiedCache remembers verified tokens until they expire, so a signature is
// checked once per token rather than once per request. It is bounded: when
// full it drops expired entries, and if none expired, everything.
type verifiedCache struct {
	max int
	mu  sync.RWMutex
	m   map[string]verified
}

func (c *verifiedCache) get(token string) (verified, bool) {
	c.mu.RLock()
	v, ok := c.m[token]
	c.mu.RUnlock()
	return v, ok
}

func (c *verifiedCache) put(token string, v verified, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string]verified)
	}
	if len(c.m) >= c.max {
		for k, e := range c.m {
			if !now.Before(e.exp) {
				delete(c.m, k)
			}
		}
		if len(c.m) >= c.max {
			c.m = make(map[string]verified)
		}
	}
	c.m[token] = v
}
