package auth

import (
	"context"
	"maps"
	"time"
)

// A revoked access token (RFC 7009) is recorded in the store by its jti,
// with its client and expiry, as the next entry of the store's log of
// revocations (RevokedToken.Seq), and the store tells every replica's Sync
// of it as of a change to the clients (ClientWatcher). Each replica then
// reads the entries after the last one it has (RevokedSince), never the
// whole log and never the clients, and Verify refuses the tokens from its
// in-memory set: one atomic load and two map lookups per request, no lock,
// no allocation, no store round trip. A record outlives its token by
// nothing: the store drops rows past their expiry on the next revocation,
// and a replica drops them when it rebuilds its set.

// revokedSet is a registry's copy of the revoked tokens, by jti with their
// expiry. It is never changed once published: a change makes a new one.
// Copying every token on each revocation would cost O(n) for every one, so
// the new ones go to recent, which is copied instead, and a load joins them
// to base, built anew without the expired ones, once recent has grown to
// about the square root of base: amortised, a revocation copies O(sqrt n)
// entries, and the request that revokes a token never waits for a rebuild.
type revokedSet struct {
	seq    int64 // the largest RevokedToken.Seq read from the store
	base   map[string]time.Time
	recent map[string]time.Time
}

// minRecent is how many tokens recent holds before joining base however
// small base is: a handful of copies costs less than a rebuild.
const minRecent = 64

// has reports whether the token with this jti is in the set.
func (s *revokedSet) has(jti string) bool {
	if _, ok := s.recent[jti]; ok {
		return true
	}
	_, ok := s.base[jti]
	return ok
}

// with returns the set with ts added to recent and seq raised to at least
// seq, or s itself if that changes nothing. Tokens expired at now, or held
// already, are left out.
func (s *revokedSet) with(ts []RevokedToken, seq int64, now time.Time) *revokedSet {
	var add []RevokedToken
	for _, t := range ts {
		if now.Before(t.Expires) && !s.has(t.ID) {
			add = append(add, t)
		}
	}
	seq = max(seq, s.seq)
	switch {
	case len(add) == 0 && seq == s.seq:
		return s
	case len(add) == 0:
		return &revokedSet{seq: seq, base: s.base, recent: s.recent}
	}
	recent := make(map[string]time.Time, len(s.recent)+len(add))
	maps.Copy(recent, s.recent)
	for _, t := range add {
		recent[t.ID] = t.Expires
	}
	return &revokedSet{seq: seq, base: s.base, recent: recent}
}

// joined returns the set with recent joined to base in a new base without
// the tokens expired at now, once recent holds more than minRecent tokens
// and more than the square root of base; until then, s itself.
func (s *revokedSet) joined(now time.Time) *revokedSet {
	if n := len(s.recent); n <= minRecent || n*n <= len(s.base) {
		return s
	}
	base := make(map[string]time.Time, len(s.base)+len(s.recent))
	for _, held := range []map[string]time.Time{s.base, s.recent} {
		for jti, exp := range held {
			if now.Before(exp) {
				base[jti] = exp
			}
		}
	}
	return &revokedSet{seq: s.seq, base: base}
}

// changeRevoked publishes change of the current set, unless it returns the
// set unchanged. It holds revokedMu, not loadMu, so that the replica that
// revokes a token refuses it at once without waiting for a load.
func (g *Registry) changeRevoked(change func(*revokedSet) *revokedSet) {
	g.revokedMu.Lock()
	defer g.revokedMu.Unlock()
	cur := g.revoked.Load()
	if cur == nil {
		cur = &revokedSet{}
	}
	if next := change(cur); next != cur {
		g.revoked.Store(next)
	}
}

// loadRevoked reads the revocations after the last one the set holds and
// adds them, if the store keeps revocations. Loads take turns (loadMu), so
// the set's seq changes only here between the read and the addition.
func (g *Registry) loadRevoked(ctx context.Context) error {
	rs, ok := g.store.(RegistrationStore)
	if !ok {
		return nil
	}
	var after int64
	if cur := g.revoked.Load(); cur != nil {
		after = cur.seq
	}
	now := g.now()
	ts, err := rs.RevokedSince(ctx, after, now)
	if err != nil {
		return err
	}
	seq := after
	if len(ts) > 0 {
		seq = ts[len(ts)-1].Seq
	}
	g.changeRevoked(func(s *revokedSet) *revokedSet { return s.with(ts, seq, now).joined(now) })
	return nil
}

// tokenRevoked reports whether the token with this jti was revoked. It is
// on every data request's path: an atomic load and map lookups only.
func (g *Registry) tokenRevoked(jti string) bool {
	s := g.revoked.Load()
	return s != nil && s.has(jti)
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
	// Its Seq is not known here, and earlier ones may not have been read:
	// the set's seq stays, and the next load reads the token again.
	now := g.now()
	g.changeRevoked(func(s *revokedSet) *revokedSet { return s.with([]RevokedToken{t}, s.seq, now) })
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
