package budget

import (
	"container/list"
	"context"
	"sync"
)

// Cache keeps values by key within a Budget, least recently used first
// out across every pool of the budget, and loads each missing key once
// however many callers wait for it.
type Cache[K comparable, V any] struct {
	b       *Budget
	mu      sync.Mutex
	lru     *list.List // of *entry[K, V], most recent at the front
	byKey   map[K]*list.Element
	loading map[K]*load[V]
}

type entry[K comparable, V any] struct {
	key  K
	val  V
	size int64
	tick int64
}

type load[V any] struct {
	done      chan struct{}
	val       V
	err       error
	cancelled bool // the loader's context ended it
}

// NewCache returns an empty cache that counts its values against b.
func NewCache[K comparable, V any](b *Budget) *Cache[K, V] {
	c := &Cache[K, V]{b: b, lru: list.New(), byKey: map[K]*list.Element{}, loading: map[K]*load[V]{}}
	b.Register(c)
	return c
}

// Get returns the value kept for k.
func (c *Cache[K, V]) Get(k K) (v V, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[k]
	if !ok {
		return v, false
	}
	c.touch(e)
	return e.Value.(*entry[K, V]).val, true
}

func (c *Cache[K, V]) touch(e *list.Element) {
	e.Value.(*entry[K, V]).tick = c.b.Tick()
	c.lru.MoveToFront(e)
}

// Put keeps v, of size bytes, under k, replacing what k held. A value
// larger than a quarter of the budget is not kept: it would push out too
// much of what others use.
func (c *Cache[K, V]) Put(k K, v V, size int64) {
	if size > c.b.Limit()/4 {
		return
	}
	c.mu.Lock()
	if e, ok := c.byKey[k]; ok {
		old := e.Value.(*entry[K, V])
		c.b.Add(size - old.size)
		old.val, old.size = v, size
		c.touch(e)
	} else {
		c.b.Add(size)
		c.byKey[k] = c.lru.PushFront(&entry[K, V]{key: k, val: v, size: size, tick: c.b.Tick()})
	}
	c.mu.Unlock()
	c.b.Trim()
}

// Load returns the value kept for k or, if there is none, the one fn
// returns with its size, which it keeps. Callers asking for a key being
// loaded wait for that load, or until ctx ends. A failed load is not kept:
// its error goes to the callers that waited for it, except that a load
// ended by its own caller's context is tried again by the next waiter.
func (c *Cache[K, V]) Load(ctx context.Context, k K, fn func(context.Context) (V, int64, error)) (V, error) {
	for {
		v, err, again := c.load(ctx, k, fn)
		if !again || ctx.Err() != nil {
			return v, err
		}
	}
}

func (c *Cache[K, V]) load(ctx context.Context, k K, fn func(context.Context) (V, int64, error)) (v V, err error, again bool) {
	c.mu.Lock()
	if e, ok := c.byKey[k]; ok {
		c.touch(e)
		v := e.Value.(*entry[K, V]).val
		c.mu.Unlock()
		return v, nil, false
	}
	if l, ok := c.loading[k]; ok {
		c.mu.Unlock()
		select {
		case <-l.done:
			return l.val, l.err, l.cancelled
		case <-ctx.Done():
			return v, ctx.Err(), false
		}
	}
	l := &load[V]{done: make(chan struct{})}
	c.loading[k] = l
	c.mu.Unlock()

	var size int64
	l.val, size, l.err = fn(ctx)
	l.cancelled = l.err != nil && ctx.Err() != nil
	if l.err == nil {
		c.Put(k, l.val, size)
	}
	c.mu.Lock()
	delete(c.loading, k)
	c.mu.Unlock()
	close(l.done)
	return l.val, l.err, false
}

// Len returns the number of values kept.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byKey)
}

// Oldest implements Pool.
func (c *Cache[K, V]) Oldest() (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.lru.Back()
	if e == nil {
		return 0, false
	}
	return e.Value.(*entry[K, V]).tick, true
}

// DropOldest implements Pool.
func (c *Cache[K, V]) DropOldest() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.lru.Back()
	if e == nil {
		return false
	}
	old := c.lru.Remove(e).(*entry[K, V])
	delete(c.byKey, old.key)
	c.b.Add(-old.size)
	return true
}
