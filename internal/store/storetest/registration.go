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
// concurrent registrations, that registrations read back, and that a
// revoked token reads back until it expires and advances the clients
// version the other process reads.
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

func testRevokedTokens(t *testing.T, a, b Store, ra, rb auth.RegistrationStore, now time.Time) {
	ctx := t.Context()
	before, err := b.ClientsVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := ra.RevokeToken(ctx, auth.RevokedToken{ID: "jti-1", ClientID: "reg-00", Expires: now.Add(5 * time.Minute)}, now); err != nil {
		t.Fatal(err)
	}
	if after, err := b.ClientsVersion(ctx); err != nil || after == before {
		t.Errorf("clients version after a token revocation: got %d (%v), want a change from %d", after, err, before)
	}
	got, err := rb.RevokedTokens(ctx, now)
	if err != nil || len(got) != 1 || got[0].ID != "jti-1" || !got[0].Expires.Equal(now.Add(5*time.Minute)) {
		t.Errorf("RevokedTokens: got %+v (%v), want jti-1 as written", got, err)
	}
	if got, err := rb.RevokedTokens(ctx, now.Add(5*time.Minute)); err != nil || len(got) != 0 {
		t.Errorf("RevokedTokens once expired: got %+v (%v), want none", got, err)
	}
}
