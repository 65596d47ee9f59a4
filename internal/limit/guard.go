package limit

import (
	"math"
	"strconv"
	"sync"
	"time"
)

// FailureGuard limits failed client authentications per remote address and
// per client ID from one remote address, to slow down credential guessing.
// It implements auth.FailureGuard. Its methods are safe for concurrent use.
//
// No limit counts a client ID's failures from everywhere: one would let
// anyone who knows a client's ID lock that client out by failing on purpose.
// A stranger's failures use up only the stranger's own address and pair.
//
// Each limit is a sliding window: the count of the current fixed window plus
// the previous window's count weighted by how much of it still overlaps the
// last Per. That is close to "N in any Per" (unlike a fixed window, which lets
// 2N through around a window boundary) in two counters per key.
type FailureGuard struct {
	mu   sync.Mutex
	now  func() time.Time
	base time.Time
	pair *counter // nil: no limit per client ID and address
	addr *counter // nil: no limit per address
}

// NewFailureGuard returns a guard admitting perPair failures per client ID
// from one remote address and perAddr per remote address (either zero for
// no limit), remembering at most maxKeys of each.
func NewFailureGuard(perPair, perAddr Rate, maxKeys int, now func() time.Time) *FailureGuard {
	g := &FailureGuard{now: now, base: now()}
	if !perPair.IsZero() {
		g.pair = newCounter(perPair, maxKeys)
	}
	if !perAddr.IsZero() {
		g.addr = newCounter(perAddr, maxKeys)
	}
	return g
}

// Allow reports whether an authentication attempt by clientID from remote may
// proceed: it may unless the address, or the client ID from that address,
// has used up its failures. If not, it returns how long until both would
// allow one. An empty remote (an unknown address) is not limited by address,
// and its pair limit is then one per client ID.
func (g *FailureGuard) Allow(clientID, remote string) (retryAfter time.Duration, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now().Sub(g.base)
	addr := addrKey(remote)
	ok = true
	if g.pair != nil {
		if wait, allowed := g.pair.allow(pairKey(clientID, addr), now); !allowed {
			retryAfter, ok = max(retryAfter, wait), false
		}
	}
	if g.addr != nil && remote != "" {
		if wait, allowed := g.addr.allow(addr, now); !allowed {
			retryAfter, ok = max(retryAfter, wait), false
		}
	}
	return retryAfter, ok
}

// Failed counts a failed authentication against remote and against clientID
// from remote.
func (g *FailureGuard) Failed(clientID, remote string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now().Sub(g.base)
	addr := addrKey(remote)
	if g.pair != nil {
		g.pair.add(pairKey(clientID, addr), now)
	}
	if g.addr != nil && remote != "" {
		g.addr.add(addr, now)
	}
}

// pairKey is the key of a client ID from one address key. The address goes
// first, after its length, so that no two pairs share a key whatever bytes
// the client ID (or an address taken from a header) holds.
func pairKey(clientID, addr string) string {
	return strconv.Itoa(len(addr)) + ":" + addr + clientID
}

// addrKey is the unit an address limit applies to: an IPv4 address, or an
// IPv6 /64 (DefaultPrefixes), as registrations count by default. Anything
// that is not an IP address is its own key.
func addrKey(remote string) string { return DefaultPrefixes().Key(remote) }

// counter counts events per key in sliding windows of Per.
type counter struct {
	rate Rate
	tab  table[window]
}

// window holds a key's counts in the fixed window numbered idx and the one before.
type window struct {
	idx       int64
	cur, prev int
}

func newCounter(r Rate, maxKeys int) *counter {
	per := r.Per
	return &counter{rate: r, tab: newTable(maxKeys, func(w window, now time.Duration) bool {
		return int64(now/per) > w.idx+1 // both of its windows are over
	})}
}

// at returns w as seen from the window that holds now.
func (c *counter) at(w window, now time.Duration) window {
	idx := int64(now / c.rate.Per)
	switch {
	case idx == w.idx:
		return w
	case idx == w.idx+1:
		return window{idx: idx, prev: w.cur}
	}
	return window{idx: idx}
}

func (c *counter) allow(key string, now time.Duration) (time.Duration, bool) {
	w, ok := c.tab.m[c.tab.key(key)]
	if !ok {
		return 0, true
	}
	w = c.at(w, now)
	per := c.rate.Per
	limit := float64(c.rate.N)
	start := time.Duration(w.idx) * per
	elapsed := float64(now-start) / float64(per)
	if float64(w.prev)*(1-elapsed)+float64(w.cur) < limit {
		return 0, true
	}
	// Solve for the instant at which the estimate falls below the limit.
	var until time.Duration
	if float64(w.cur) >= limit {
		// Only once this window is the previous one, and enough of it has slid out.
		until = start + per + ceil(float64(per)*(1-limit/float64(w.cur)))
	} else {
		until = start + ceil(float64(per)*(1-(limit-float64(w.cur))/float64(w.prev)))
	}
	// One nanosecond past the instant, at which the estimate equals the limit.
	return max(until-now, 0) + time.Nanosecond, false
}

// ceil rounds up, so that float error never makes a wait end too early.
func ceil(ns float64) time.Duration { return time.Duration(math.Ceil(ns)) }

func (c *counter) add(key string, now time.Duration) {
	k := c.tab.key(key)
	w := c.at(c.tab.m[k], now)
	w.cur++
	c.tab.put(k, w, now)
}
