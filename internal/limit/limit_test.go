package limit

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
)

// The token endpoint takes a FailureGuard through auth's interface.
var _ auth.FailureGuard = (*FailureGuard)(nil)

// fakeClock is a settable time source; limiters in tests never read the real clock.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newClock() *fakeClock { return &fakeClock{t: time.Date(2024, 10, 27, 0, 0, 0, 0, time.UTC)} }

func TestParseRate(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Rate
		str  string
	}{
		{"10/s", Rate{10, time.Second}, "10/s"},
		{"600/m", Rate{600, time.Minute}, "600/m"},
		{" 5 / h ", Rate{5, time.Hour}, "5/h"},
		{"100/1m", Rate{100, time.Minute}, "100/m"},
		{"3/30s", Rate{3, 30 * time.Second}, "3/30s"},
		{"", Rate{}, ""},
		{"0", Rate{}, ""},
		{"0/s", Rate{}, ""},
	} {
		got, err := ParseRate(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseRate(%q): got %v, %v; want %v", tt.in, got, err, tt.want)
		}
		if got.String() != tt.str {
			t.Errorf("ParseRate(%q).String(): got %q, want %q", tt.in, got.String(), tt.str)
		}
	}
	for _, bad := range []string{"10", "10/", "x/s", "-1/s", "10/d", "10/-1s", "10/0s", "1.5/s"} {
		if r, err := ParseRate(bad); err == nil {
			t.Errorf("ParseRate(%q): got %v, want an error", bad, r)
		}
	}
}

func TestLimiterBurstThenRate(t *testing.T) {
	clk := newClock()
	l := NewLimiter(Rate{10, time.Second}, 3, 100, clk.now)
	for i := range 3 {
		if _, ok := l.Allow("a"); !ok {
			t.Fatalf("request %d of the burst: refused, want allowed", i+1)
		}
	}
	wait, ok := l.Allow("a")
	if ok || wait != 100*time.Millisecond {
		t.Fatalf("4th request at once: got ok=%v wait %v, want refused with 100ms", ok, wait)
	}
	// Another key has its own bucket.
	if _, ok := l.Allow("b"); !ok {
		t.Fatal(`key "b": refused, want allowed`)
	}
	clk.advance(99 * time.Millisecond)
	if wait, ok := l.Allow("a"); ok || wait != time.Millisecond {
		t.Fatalf("after 99ms: got ok=%v wait %v, want refused with 1ms", ok, wait)
	}
	clk.advance(time.Millisecond)
	if _, ok := l.Allow("a"); !ok {
		t.Fatal("after 100ms: refused, want one token back")
	}
	if _, ok := l.Allow("a"); ok {
		t.Fatal("second request after 100ms: allowed, want refused")
	}
	// A long pause refills the bucket to the burst, not beyond.
	clk.advance(time.Hour)
	for i := range 3 {
		if _, ok := l.Allow("a"); !ok {
			t.Fatalf("after an hour, request %d: refused, want allowed", i+1)
		}
	}
	if _, ok := l.Allow("a"); ok {
		t.Fatal("after an hour, 4th request: allowed, want the burst to cap at 3")
	}
}

func TestLimiterSustainedRate(t *testing.T) {
	clk := newClock()
	l := NewLimiter(Rate{600, time.Minute}, 1, 100, clk.now)
	allowed := 0
	for range 1000 { // 10 s in steps of 10ms, 100 attempts a second
		if _, ok := l.Allow("k"); ok {
			allowed++
		}
		clk.advance(10 * time.Millisecond)
	}
	if allowed != 100 {
		t.Fatalf("600/m over 10 s: got %d allowed, want 100", allowed)
	}
}

func TestLimiterBoundedKeys(t *testing.T) {
	clk := newClock()
	l := NewLimiter(Rate{1, time.Second}, 1, 50, clk.now)
	for i := range 1000 {
		l.Allow("key-" + strconv.Itoa(i))
	}
	if n := l.keys(); n != 50 {
		t.Fatalf("after 1000 keys: got %d remembered, want the maximum, 50", n)
	}
	// Idle buckets (full again) are swept once a sweep is due.
	clk.advance(2 * sweepEvery)
	l.Allow("fresh")
	if n := l.keys(); n != 1 {
		t.Fatalf("after the sweep: got %d keys, want 1", n)
	}
}

func TestFailureGuardPerPair(t *testing.T) {
	clk := newClock()
	g := NewFailureGuard(Rate{10, time.Minute}, Rate{}, 100, clk.now)
	for i := range 10 {
		if _, ok := g.Allow("guess", "192.0.2.1"); !ok {
			t.Fatalf("attempt %d: refused, want allowed", i+1)
		}
		g.Failed("guess", "192.0.2.1")
	}
	wait, ok := g.Allow("guess", "192.0.2.1")
	// All 10 fell into the first window: it must end, then slide out entirely.
	if ok || wait != time.Minute+time.Nanosecond {
		t.Fatalf("11th attempt: got ok=%v wait %v, want refused for 1m0.000000001s", ok, wait)
	}
	// The failures of one address lock no one else out.
	if _, ok := g.Allow("guess", "192.0.2.99"); !ok {
		t.Fatal("the same client_id from another address: refused, want allowed")
	}
	if _, ok := g.Allow("other", "192.0.2.1"); !ok {
		t.Fatal("another client_id: refused, want allowed (no address limit)")
	}
	// Without an address, the pair is the client ID alone.
	for range 10 {
		g.Failed("guess", "")
	}
	if _, ok := g.Allow("guess", ""); ok {
		t.Fatal("no remote address, after 10 failures without one: allowed, want refused")
	}
	clk.advance(time.Minute)
	if _, ok := g.Allow("guess", "192.0.2.1"); ok {
		t.Fatal("exactly one window later: allowed, want refused (the estimate equals the limit)")
	}
	clk.advance(time.Nanosecond)
	if _, ok := g.Allow("guess", "192.0.2.1"); !ok {
		t.Fatal("just after: refused, want allowed")
	}
	g.Failed("guess", "192.0.2.1")
	// Estimate 10·(1-f)+1 < 10 needs f > 0.1: 6 s into the window.
	wait, ok = g.Allow("guess", "192.0.2.1")
	if ok || wait < 6*time.Second-time.Millisecond || wait > 6*time.Second+time.Millisecond {
		t.Fatalf("after one more failure: got ok=%v wait %v, want refused for about 6s", ok, wait)
	}
	clk.advance(wait)
	if _, ok := g.Allow("guess", "192.0.2.1"); !ok {
		t.Fatalf("after waiting %v: refused, want allowed", wait)
	}
}

func TestFailureGuardSuccessesDoNotCount(t *testing.T) {
	clk := newClock()
	g := NewFailureGuard(Rate{2, time.Minute}, Rate{2, time.Minute}, 100, clk.now)
	for i := range 100 {
		if _, ok := g.Allow("good", "192.0.2.1"); !ok {
			t.Fatalf("attempt %d without failures: refused, want allowed", i+1)
		}
	}
}

func TestFailureGuardPerAddress(t *testing.T) {
	clk := newClock()
	g := NewFailureGuard(Rate{}, Rate{3, time.Minute}, 100, clk.now)
	for i := range 3 {
		g.Failed(fmt.Sprintf("id-%d", i), "2001:db8:1:2::10")
	}
	// Other client IDs from the same /64 are refused too.
	if _, ok := g.Allow("id-new", "2001:db8:1:2:ffff::1"); ok {
		t.Fatal("same /64: allowed, want refused")
	}
	if _, ok := g.Allow("id-new", "2001:db8:1:3::10"); !ok {
		t.Fatal("another /64: refused, want allowed")
	}
	if _, ok := g.Allow("id-new", ""); !ok {
		t.Fatal("no remote address: refused, want allowed (address unknown)")
	}
	g.Failed("x", "192.0.2.7")
	g.Failed("x", "::ffff:192.0.2.7") // the same IPv4 host, mapped
	g.Failed("x", "192.0.2.7")
	if _, ok := g.Allow("y", "192.0.2.7"); ok {
		t.Fatal("IPv4 after 3 failures (one written IPv4-mapped): allowed, want refused")
	}
	if _, ok := g.Allow("y", "192.0.2.8"); !ok {
		t.Fatal("neighbouring IPv4 address: refused, want allowed")
	}
}

func TestFailureGuardBoth(t *testing.T) {
	clk := newClock()
	g := NewFailureGuard(Rate{1, time.Minute}, Rate{5, time.Hour}, 100, clk.now)
	g.Failed("a", "192.0.2.1")
	wait, ok := g.Allow("a", "192.0.2.1")
	if ok || wait != time.Minute+time.Nanosecond {
		t.Fatalf("client over its limit from the address: got ok=%v wait %v, want refused for a minute", ok, wait)
	}
	for _, id := range []string{"b", "c", "d", "e"} {
		g.Failed(id, "192.0.2.1")
	}
	// Both over: the longer wait (the address's hour window) wins.
	wait, ok = g.Allow("a", "192.0.2.1")
	if ok || wait != time.Hour+time.Nanosecond {
		t.Fatalf("client and address over: got ok=%v wait %v, want refused for an hour", ok, wait)
	}
}

func TestFailureGuardBoundedKeys(t *testing.T) {
	clk := newClock()
	g := NewFailureGuard(Rate{1, time.Minute}, Rate{1000, time.Minute}, 10, clk.now)
	for i := range 500 {
		g.Failed(strconv.Itoa(i), "192.0.2."+strconv.Itoa(i%250))
	}
	if n, m := len(g.pair.tab.m), len(g.addr.tab.m); n != 10 || m != 10 {
		t.Fatalf("after 500 pairs and 250 addresses: got %d and %d entries, want 10 each", n, m)
	}
	clk.advance(3 * time.Minute) // both windows over for every key, and a sweep is due
	g.Failed("last", "192.0.2.1")
	if n := len(g.pair.tab.m); n != 1 {
		t.Fatalf("after the sweep: got %d pair entries, want 1", n)
	}
}
