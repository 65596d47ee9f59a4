// Package budget bounds the memory a server spends on what it can read or
// compute again: decoded parts, encoded answers, and the answers being
// written. One Budget is shared by every cache that holds such things;
// when the bytes they hold together pass its limit, the least recently
// used entry of any of them goes first. Answers being written hold bytes
// of the budget too (Hold): past the limit, once nothing cached is left to
// drop, a writer waits for room or gives up.
package budget

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
)

// ErrFull is Hold's error when no room was made before its context ended.
var ErrFull = errors.New("memory budget full")

// Pool is a cache whose entries a Budget may drop. Its methods are called
// without the Budget's lock held being needed by them, and never with the
// pool's own lock held by the caller.
type Pool interface {
	// Oldest returns the use tick of the pool's least recently used
	// entry; ok is false for an empty pool.
	Oldest() (tick int64, ok bool)
	// DropOldest removes that entry, taking its bytes off the budget with
	// Add; it reports false if the pool was empty.
	DropOldest() bool
}

// Budget counts the bytes its pools hold and its writers hold against one
// limit. Its zero value is not usable; call New.
type Budget struct {
	limit int64
	used  atomic.Int64
	clock atomic.Int64

	mu    sync.Mutex // serialises trimming and holds; guards pools
	pools []Pool
	room  chan struct{} // closed and replaced when held bytes are released
}

// New returns a budget of limit bytes (at least 1).
func New(limit int64) *Budget {
	return &Budget{limit: max(limit, 1), room: make(chan struct{})}
}

// Limit returns the budget's limit in bytes.
func (b *Budget) Limit() int64 { return b.limit }

// Used returns the bytes counted now, cached and held.
func (b *Budget) Used() int64 { return b.used.Load() }

// Register adds a pool whose entries the budget may drop.
func (b *Budget) Register(p Pool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pools = append(b.pools, p)
}

// Tick returns a new use tick: entries used later have larger ticks.
func (b *Budget) Tick() int64 { return b.clock.Add(1) }

// Add counts n more bytes (fewer for negative n). A pool that adds calls
// Trim afterwards, once it no longer holds its own lock.
func (b *Budget) Add(n int64) { b.used.Add(n) }

// Over reports whether the budget counts more than its limit.
func (b *Budget) Over() bool { return b.used.Load() > b.limit }

// Trim drops the least recently used entries of every pool until the
// budget is within its limit or nothing is left to drop.
func (b *Budget) Trim() {
	if !b.Over() {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.trimLocked(b.limit)
}

// trimLocked drops entries until at most target bytes are counted; it
// reports whether it got there. The caller holds b.mu.
func (b *Budget) trimLocked(target int64) bool {
	for b.used.Load() > target {
		var oldest Pool
		var tick int64
		for _, p := range b.pools {
			if t, ok := p.Oldest(); ok && (oldest == nil || t < tick) {
				oldest, tick = p, t
			}
		}
		if oldest == nil || !oldest.DropOldest() {
			return b.used.Load() <= target
		}
	}
	return true
}

// Hold reserves n bytes for an answer being written, dropping cached
// entries to make room. When the budget cannot make room, Hold waits for
// holders to release theirs until ctx ends, then returns ErrFull. A hold
// larger than the whole limit is admitted alone: when nothing else is
// counted. Every successful Hold is matched by a Release of the bytes.
func (b *Budget) Hold(ctx context.Context, n int64) error {
	for {
		b.mu.Lock()
		if b.trimLocked(b.limit-n) || b.used.Load() <= 0 {
			b.used.Add(n)
			b.mu.Unlock()
			return nil
		}
		room := b.room
		b.mu.Unlock()
		select {
		case <-room:
		case <-ctx.Done():
			return ErrFull
		}
	}
}

// Release gives back n held bytes and wakes the holds waiting for room.
func (b *Budget) Release(n int64) {
	b.used.Add(-n)
	b.mu.Lock()
	close(b.room)
	b.room = make(chan struct{})
	b.mu.Unlock()
}
