package limit

import (
	"hash/maphash"
	"time"
)

// sweepEvery is how often a table drops the entries that no longer limit
// anyone. Between sweeps, memory is still bounded by the table's maximum.
const sweepEvery = time.Minute

// table maps caller-chosen keys to limiter state in bounded memory.
//
// Keys are hashed to 64 bits with a per-table random seed: a client_id can be
// kilobytes long, and a table keyed by the strings themselves would let a
// caller spend memory on them. A collision merely makes two keys share one
// limit; with 64 bits and a secret seed, callers can neither expect one nor
// arrange one.
type table[V any] struct {
	seed      maphash.Seed
	m         map[uint64]V
	max       int
	idle      func(v V, now time.Duration) bool // v limits no one any more
	nextSweep time.Duration
}

func newTable[V any](maxKeys int, idle func(V, time.Duration) bool) table[V] {
	return table[V]{seed: maphash.MakeSeed(), m: map[uint64]V{}, max: max(maxKeys, 1), idle: idle}
}

func (t *table[V]) key(s string) uint64 { return maphash.String(t.seed, s) }

// put stores v under k. When k is new and the table is full, an arbitrary
// entry goes first. Forgetting an entry only ever makes a limit more lenient
// for its key, so eviction can lock nobody out; what it bounds is memory.
func (t *table[V]) put(k uint64, v V, now time.Duration) {
	if now >= t.nextSweep {
		for key, old := range t.m {
			if t.idle(old, now) {
				delete(t.m, key)
			}
		}
		t.nextSweep = now + sweepEvery
	}
	if _, ok := t.m[k]; !ok && len(t.m) >= t.max {
		for key := range t.m {
			delete(t.m, key)
			break
		}
	}
	t.m[k] = v
}
