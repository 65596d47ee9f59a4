package storetest

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
)

// testRegistrations checks, through two processes on one database, that
// the per-address limit of CreateRegisteredClient holds exactly under
// concurrent registrations, that registrations read back, and that the
// other process follows revoked tokens (testRevokedTokens).
func testRegistrations(t *testing.T, open func(t *testing.T) (Store, Store)) {
	a, b := open(t)
	ra, okA := a.(auth.RegistrationStore)
	rb, okB := b.(auth.RegistrationStore)
	if !okA || !okB {
		t.Fatal("the store keeps no registrations")
	}
	ctx := t.Context()
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	const limit, tries = 3, 12
	var admitted atomic.Int32
	var wg sync.WaitGroup
	for i := range tries {
		wg.Go(func() {
			s := []auth.RegistrationStore{ra, rb}[i%2]
			id := fmt.Sprintf("reg-%02d", i)
			c := auth.Client{ID: id, Name: "app", SecretHash: []byte("h1:x"), Created: now}
			ok, err := s.CreateRegisteredClient(ctx, c, auth.Registration{ClientID: id, Contact: "dev@example.com", Origin: auth.OriginWeb, Addr: "addr-1", Created: now}, limit)
			if err != nil {
				t.Errorf("CreateRegisteredClient %s: %v", id, err)
			}
			if ok {
				admitted.Add(1)
			}
		})
	}
	wg.Wait()
	if got := admitted.Load(); got != limit {
		t.Errorf("registrations admitted from one address: got %d of %d, want %d", got, tries, limit)
	}
	regs, err := rb.Registrations(ctx)
	if err != nil || len(regs) != limit || regs[0].Contact != "dev@example.com" || !regs[0].Created.Equal(now) {
		t.Errorf("Registrations: got %+v (%v), want %d as written", regs, err, limit)
	}
	if _, err := ra.Registration(ctx, "no-such"); energy.ErrorCode(err) != energy.NotFound {
		t.Errorf("Registration of an unknown client: got %v, want NotFound", err)
	}
	// An hour later the address may register again.
	later := now.Add(time.Hour + time.Second)
	c := auth.Client{ID: "reg-later", Name: "app", SecretHash: []byte("h1:x"), Created: later}
	if ok, err := ra.CreateRegisteredClient(ctx, c, auth.Registration{ClientID: c.ID, Origin: auth.OriginWeb, Addr: "addr-1", Created: later}, limit); !ok || err != nil {
		t.Errorf("registration an hour later: got %v, %v, want admitted", ok, err)
	}
	testRevokedTokens(t, a, b, ra, rb, now)
}

// testRevokedTokens checks the log of revoked tokens through two
// processes: a revocation leaves the clients version alone, reads back by
// RevokedSince with a Seq above those before it, whichever process wrote
// it, once only, until it expires, and the next revocation drops it then.
func testRevokedTokens(t *testing.T, a, b Store, ra, rb auth.RegistrationStore, now time.Time) {
	ctx := t.Context()
	before, err := b.ClientsVersion(ctx)
	noErr(t, "ClientsVersion", err)
	revoke := func(s auth.RegistrationStore, id string, ttl time.Duration, at time.Time) {
		t.Helper()
		noErr(t, "RevokeToken "+id, s.RevokeToken(ctx, auth.RevokedToken{ID: id, ClientID: "reg-00", Expires: now.Add(ttl)}, at))
	}
	since := func(after int64, at time.Time) []auth.RevokedToken {
		t.Helper()
		ts, err := rb.RevokedSince(ctx, after, at)
		noErr(t, "RevokedSince", err)
		return ts
	}
	revoke(ra, "jti-1", 5*time.Minute, now)
	if after, err := b.ClientsVersion(ctx); err != nil || after != before {
		t.Errorf("clients version after a token revocation: got %d (%v), want %d unchanged", after, err, before)
	}
	got := since(0, now)
	if len(got) != 1 || got[0].ID != "jti-1" || got[0].ClientID != "reg-00" || !got[0].Expires.Equal(now.Add(5*time.Minute)) || got[0].Seq <= 0 {
		t.Fatalf("RevokedSince(0): got %+v, want jti-1 as written, with a Seq above 0", got)
	}
	first := got[0].Seq
	if got := since(first, now); len(got) != 0 {
		t.Errorf("RevokedSince(its Seq): got %+v, want none", got)
	}
	revoke(ra, "jti-2", 10*time.Minute, now)
	revoke(rb, "jti-3", 10*time.Minute, now)
	revoke(ra, "jti-1", 5*time.Minute, now) // again: recorded already
	got = since(first, now)
	if len(got) != 2 || got[0].ID != "jti-2" || got[1].ID != "jti-3" || got[0].Seq <= first || got[1].Seq <= got[0].Seq {
		t.Errorf("RevokedSince(%d): got %+v, want jti-2 then jti-3 with rising Seqs above it, jti-1 not again", first, got)
	}
	if got := since(0, now.Add(5*time.Minute)); len(got) != 2 || got[0].ID != "jti-2" {
		t.Errorf("RevokedSince once jti-1 expired: got %+v, want jti-2 and jti-3 only", got)
	}
	revoke(rb, "jti-4", 10*time.Minute, now.Add(6*time.Minute)) // drops jti-1, expired then
	if got := since(0, now); len(got) != 3 || got[0].ID != "jti-2" {
		t.Errorf("RevokedSince(0) after a revocation past jti-1's expiry: got %+v, want jti-2, jti-3 and jti-4 (jti-1 dropped)", got)
	}
	testRevokedSinceMissesNone(t, ra, rb, now)
}

// testRevokedSinceMissesNone revokes tokens through both processes at once
// while a follower reads from the last Seq it has, as a replica does: it
// must end with every one. A Seq taken from a counter that does not follow
// commit order (a PostgreSQL sequence) fails this now and then: a
// revocation commits with a Seq below one the follower already read.
func testRevokedSinceMissesNone(t *testing.T, ra, rb auth.RegistrationStore, now time.Time) {
	ctx := t.Context()
	const each = 40
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for w, s := range []auth.RegistrationStore{ra, rb} {
		wg.Go(func() {
			for i := range each {
				tok := auth.RevokedToken{ID: fmt.Sprintf("many-%d-%02d", w, i), ClientID: "reg-00", Expires: now.Add(time.Hour)}
				if err := s.RevokeToken(ctx, tok, now); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	seen := map[string]bool{}
	var last int64
	follow := func() {
		ts, err := rb.RevokedSince(ctx, last, now)
		noErr(t, "RevokedSince", err)
		for _, tok := range ts {
			if tok.Seq <= last {
				t.Fatalf("RevokedSince(%d): got Seq %d of %s, want above it, rising", last, tok.Seq, tok.ID)
			}
			seen[tok.ID], last = true, tok.Seq
		}
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for following := true; following; {
		select {
		case <-done:
			following = false
		default:
		}
		follow()
	}
	follow()
	close(errs)
	noErr(t, "RevokeToken", <-errs)
	for w := range 2 {
		for i := range each {
			if id := fmt.Sprintf("many-%d-%02d", w, i); !seen[id] {
				t.Errorf("following RevokedSince from the last Seq read: %s missed", id)
			}
		}
	}
}
