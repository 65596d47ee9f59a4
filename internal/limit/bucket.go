package limit

import (
	"sync"
	"time"
)

// Limiter is a token bucket per key: each key may make Burst requests at once
// and then one per Rate interval. Its methods are safe for concurrent use.
//
// It stores one number per key, the bucket's "theoretical arrival time" (the
// generic cell rate algorithm, GCRA): the instant at which the key's bucket
// would be full again. That is the token bucket exactly, without a float
// count of tokens, and a key whose instant has passed has a full bucket, so it
// can be forgotten.
type Limiter struct {
	mu        sync.Mutex
	now       func() time.Time
	base      time.Time     // instants are offsets from base, on the monotonic clock
	interval  time.Duration // time to refill one token
	tolerance time.Duration // burst × interval: how far ahead a bucket may run
	tab       table[time.Duration]
}

// NewLimiter returns a Limiter allowing r per key with bursts of burst (at
// least 1), remembering at most maxKeys keys. r must not be zero.
func NewLimiter(r Rate, burst, maxKeys int, now func() time.Time) *Limiter {
	burst = max(burst, 1)
	iv := r.interval()
	return &Limiter{
		now:       now,
		base:      now(),
		interval:  iv,
		tolerance: time.Duration(burst) * iv,
		tab:       newTable(maxKeys, func(full time.Duration, now time.Duration) bool { return full <= now }),
	}
}

// Allow takes a token from key's bucket. When the bucket is empty it takes
// nothing and returns false with the time until a token is back.
func (l *Limiter) Allow(key string) (retryAfter time.Duration, ok bool) {
	_, retryAfter, ok = l.Take(key)
	return retryAfter, ok
}

// Take is Allow that also returns the tokens left in key's bucket after it.
// When it takes the last one, retryAfter is the time until the next is
// back (so that a caller can say when to call again); otherwise 0.
func (l *Limiter) Take(key string) (left int, retryAfter time.Duration, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now().Sub(l.base)
	k := l.tab.key(key)
	full, ok := l.tab.m[k]
	if !ok || full < now {
		full = now
	}
	next := full + l.interval
	if ahead := next - now; ahead > l.tolerance {
		return 0, ahead - l.tolerance, false
	}
	l.tab.put(k, next, now)
	return int((l.tolerance - (next - now)) / l.interval), max(next+l.interval-l.tolerance-now, 0), true
}

// keys returns how many keys the limiter remembers (for tests).
func (l *Limiter) keys() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.tab.m)
}
