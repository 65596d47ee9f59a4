package auth

import (
	"context"
	"maps"
	"time"
)

// A revoked access token (RFC 7009) is recorded in the store by its jti,
// with its client and expiry, in the same transaction that advances the
// clients version and, on PostgreSQL, notifies the clients channel. Every
// replica's Sync therefore reloads the revoked tokens as it reloads a
// rotation, and Verify refuses them from its in-memory table: one map
// lookup per request, no store round trip. A record outlives its token by
// nothing: rows past their expiry are dropped on the next revocation, and a
// load never reads them.

// loadRevoked reads the tokens revoked and not yet expired, or none if the
// store keeps no revocations.
func (g *Registry) loadRevoked(ctx context.Context) (map[string]time.Time, error) {
	rs, ok := g.store.(RegistrationStore)
	if !ok {
		return nil, nil
	}
	ts, err := rs.RevokedTokens(ctx, g.now())
	if err != nil || len(ts) == 0 {
		return nil, err
	}
	m := make(map[string]time.Time, len(ts))
	for _, t := range ts {
		m[t.ID] = t.Expires
	}
	return m, nil
}

// tokenRevoked reports whether the token with this jti was revoked.
func (g *Registry) tokenRevoked(jti string) bool {
	t := g.table.Load()
	if t == nil || len(t.revoked) == 0 {
		return false
	}
	_, ok := t.revoked[jti]
	return ok
}

// RevokeToken records the revocation of a token: this process refuses it at
// once, the others as soon as their Sync hears of the change.
func (g *Registry) RevokeToken(ctx context.Context, t RevokedToken) error {
	rs, ok := g.store.(RegistrationStore)
	if !ok {
		return nil // nothing to record it in: the token lives until it expires
	}
	if err := rs.RevokeToken(ctx, t, g.now()); err != nil {
		return err
	}
	g.loadMu.Lock()
	defer g.loadMu.Unlock()
	if cur := g.table.Load(); cur != nil {
		revoked := maps.Clone(cur.revoked)
		if revoked == nil {
			revoked = map[string]time.Time{}
		}
		revoked[t.ID] = t.Expires
		g.table.Store(&clientTable{version: cur.version, byID: cur.byID, revoked: revoked})
	}
	return nil
}

// TokenInfo is what an introspection tells of a token (RFC 7662 section 2.2).
type TokenInfo struct {
	ClientID string
	ID       string // jti
	Issued   time.Time
	Expires  time.Time
}

// Parse returns what a token says of itself if its signature and claims are
// valid and it has not expired, whether or not it was revoked since.
func (t *Tokens) Parse(ctx context.Context, token string) (TokenInfo, bool) {
	now := t.now()
	v, ok := t.cache.get(token)
	if !ok {
		if v, ok = t.verify(ctx, token, now); !ok {
			return TokenInfo{}, false
		}
	}
	if !now.Before(v.exp) {
		return TokenInfo{}, false
	}
	return TokenInfo{ClientID: v.clientID, ID: v.jti, Issued: v.iat, Expires: v.exp}, true
}

// Inspect returns what a token says of itself and whether it is active:
// Verify would admit it.
func (t *Tokens) Inspect(ctx context.Context, token string) (TokenInfo, bool) {
	info, ok := t.Parse(ctx, token)
	if !ok {
		return TokenInfo{}, false
	}
	if _, err := t.Verify(ctx, token); err != nil {
		return TokenInfo{}, false
	}
	return info, true
}

// Revoke revokes token if it is a live token of this server issued to
// clientID. A token that is not live needs no revocation (RFC 7009 section
// 2.2: no error); one issued to another client is left alone, and other is
// true.
func (t *Tokens) Revoke(ctx context.Context, clientID, token string) (other bool, err error) {
	info, ok := t.Parse(ctx, token)
	switch {
	case !ok || t.clients == nil:
		return false, nil
	case info.ClientID != clientID:
		return true, nil
	}
	return false, t.clients.RevokeToken(ctx, RevokedToken{ID: info.ID, ClientID: info.ClientID, Expires: info.Expires})
}
