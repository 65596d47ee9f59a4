package api

import (
	"container/list"
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/energyapi/energyapi/internal/budget"
	"github.com/energyapi/energyapi/internal/coding"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// answerCache keeps encoded answers, and each compressed form of them
// once made, in the server's memory budget: the least recently used
// answer, or decoded part, goes first. An entry is valid only for the data
// its entity tag names; answers encoded from changed parts replace it.
//
// Requests that ask at once for an answer not encoded yet share one
// encoding. An answer larger than an eighth of the budget is not kept: it
// is shared by the requests writing it and counted in the budget until the
// last of them is done. An encoding first holds the bytes it expects to
// make; when the budget has no room for them, the request waits for
// answers being written to finish, at most answerWait, and is then
// answered 503 with Retry-After.
//
// An answer expected to take more than half the budget is not made here
// at all (streams): holding it would push out nearly everything else, or
// wait for a budget that never has room. Each request for it encodes it
// record by record from the parts and compresses it as it is written,
// holding only a chunk buffer and about an encoder's state in the budget
// meanwhile (writeStreamed).
type answerCache struct {
	b       *budget.Budget // nil: nothing is kept, answers are compressed as written
	maxKept int64

	mu    sync.Mutex
	lru   *list.List // of *cachedAnswer kept, most recent at the front
	byKey map[string]*list.Element
	// flight holds, by key, the answers being encoded and the large ones
	// being written; refs counts their requests.
	flight map[string]*cachedAnswer
	// perRecord is the bytes a record took in the last answer encoded, by
	// dataset and format: what the next encoding expects.
	perRecord map[perRecordKey]int64

	// byQuery maps raw query strings to their answer on one snapshot; it
	// is emptied when the snapshot changes or it grows large. Its entries
	// are counted in the budget too (queryBytes).
	snap       *dataset.Snapshot
	byQuery    map[queryKey]recentAnswer
	queryBytes int64
}

type perRecordKey struct {
	d *dataset.Dataset
	f format
}

// answerWait is the longest a request waits for room in the budget to
// encode its answer.
const answerWait = time.Second

// queryKey names a request as it came, before parsing: its dataset, the
// representation asked for, the year it was asked in (year windows move
// with it) and its raw query string. A struct, not a string built from
// them, so that looking one up allocates nothing.
type queryKey struct {
	d    *dataset.Dataset
	view *dataset.View // the reshaping view asked at, nil for d's shape
	f    format
	year int
	raw  string
	// maxDays is the longest range the client's plan allows: an answer
	// kept for one plan must not reach a client of a narrower one.
	maxDays int
}

// cachedAnswer is one encoded answer: its identity bytes and the
// compressed forms made so far.
type cachedAnswer struct {
	key   string
	tag   string // the entity tag of the data the body was encoded from
	forms *coding.Forms
	// kept is true for an answer in the cache's LRU; a large one is shared
	// by the requests writing it instead.
	kept bool
	// The fields below are guarded by the cache's lock.
	counted int64 // the bytes of forms the budget counts
	tick    int64 // when it was last used (budget.Tick)
	refs    int   // requests waiting for or writing it, while in flight
	// ready is closed once forms, or err, is set.
	ready chan struct{}
	err   error
	// making serialises the making of each compressed form.
	making [coding.Count]sync.Mutex
}

type recentAnswer struct {
	tag      string
	modified time.Time // zero when the answer covers no part
	answer   *cachedAnswer
	// tags are the entity tags of the answer's forms, by coding.
	tags [coding.Count]string
	// The header values, shared by every answer that sends them (net/http
	// does not change them).
	etagHeaders    [coding.Count][]string
	modifiedHeader []string
	// resolution is the X-Resolution header's value of an answer to a
	// query with a resolution; nil for others.
	resolution []string
}

// newAnswerCache returns a cache in b; a nil b keeps nothing.
func newAnswerCache(b *budget.Budget) *answerCache {
	c := &answerCache{b: b, lru: list.New(), byKey: map[string]*list.Element{},
		flight: map[string]*cachedAnswer{}, perRecord: map[perRecordKey]int64{}, byQuery: map[queryKey]recentAnswer{}}
	if b != nil {
		c.maxKept = b.Limit() / 8
		b.Register(c)
	}
	return c
}

// errAnswersBusy answers a request whose answer found no room in the
// memory budget in time.
var errAnswersBusy = energy.Errorf(energy.Unavailable, "The server is writing too many large answers: retry after 1 s")

// answer returns the answer under key for the data of tag: the one kept,
// the one being encoded or written by other requests, or the one encode
// makes of records, the number of records it covers. The caller calls
// done with it once written.
func (c *answerCache) answer(ctx context.Context, key, tag string, pk perRecordKey, records int, encode func() ([]byte, error)) (*cachedAnswer, error) {
	return c.answerForms(ctx, key, tag, pk, records, func(int64) (*coding.Forms, error) {
		body, err := encode()
		if err != nil {
			return nil, err
		}
		return coding.NewForms(body), nil
	})
}

// answerForms is answer with makeForms, which makes the answer's forms: its
// body and any compressed form it makes meanwhile. makeForms gets the bytes
// the body is expected to take (0: not known).
func (c *answerCache) answerForms(ctx context.Context, key, tag string, pk perRecordKey, records int, makeForms func(expect int64) (*coding.Forms, error)) (*cachedAnswer, error) {
	c.mu.Lock()
	if e, ok := c.byKey[key]; ok && e.Value.(*cachedAnswer).tag == tag {
		a := e.Value.(*cachedAnswer)
		c.touch(e)
		c.mu.Unlock()
		return a, nil
	}
	if a, ok := c.flight[key]; ok && a.tag == tag {
		a.refs++
		c.mu.Unlock()
		select {
		case <-a.ready:
		case <-ctx.Done():
			c.done(a)
			return nil, ctx.Err()
		}
		if a.err != nil {
			c.done(a)
			return nil, a.err
		}
		return a, nil
	}
	a := &cachedAnswer{key: key, tag: tag, refs: 1, ready: make(chan struct{})}
	c.flight[key] = a
	expect := int64(records) * c.perRecord[pk]
	c.mu.Unlock()
	c.fill(ctx, a, pk, records, expect, makeForms)
	if a.err != nil {
		c.done(a)
		return nil, a.err
	}
	return a, nil
}

// fill encodes a, holding the bytes it expects in the budget meanwhile,
// and keeps it if it is small enough; it closes a.ready.
func (c *answerCache) fill(ctx context.Context, a *cachedAnswer, pk perRecordKey, records int, expect int64, makeForms func(int64) (*coding.Forms, error)) {
	defer close(a.ready)
	if c.b != nil {
		wctx, cancel := context.WithTimeout(ctx, answerWait)
		err := c.b.Hold(wctx, expect)
		cancel()
		if err != nil {
			a.err = errAnswersBusy
			return
		}
		defer c.b.Release(expect)
	}
	forms, err := makeForms(expect)
	if err != nil {
		a.err = err
		return
	}
	a.forms = forms
	n := int64(a.forms.Size())
	c.mu.Lock()
	c.learn(pk, records, int64(len(forms.Identity())))
	if c.b != nil {
		c.b.Add(n)
		a.counted = n
	}
	// Whether to keep it goes by the body alone, as when the compressed
	// forms came afterwards: one made meanwhile must not tip it over.
	if c.b != nil && int64(cap(forms.Identity())) <= c.maxKept {
		a.kept = true
		c.keep(a)
	}
	c.mu.Unlock()
	if c.b != nil {
		c.b.Trim()
	}
}

// keep puts a, just encoded, in the LRU in place of what its key held.
// The caller holds c.mu.
func (c *answerCache) keep(a *cachedAnswer) {
	if c.flight[a.key] == a {
		delete(c.flight, a.key)
	}
	if e, ok := c.byKey[a.key]; ok {
		c.drop(e)
	}
	a.tick = c.b.Tick()
	c.byKey[a.key] = c.lru.PushFront(a)
}

func (c *answerCache) touch(e *list.Element) {
	e.Value.(*cachedAnswer).tick = c.b.Tick()
	c.lru.MoveToFront(e)
}

// done ends one request's use of a; the last request done with a shared
// answer gives its bytes back to the budget.
func (c *answerCache) done(a *cachedAnswer) {
	if a.kept {
		return
	}
	c.mu.Lock()
	a.refs--
	last := a.refs == 0
	if last && c.flight[a.key] == a {
		delete(c.flight, a.key)
	}
	n := a.counted
	if last {
		a.counted = 0
	}
	c.mu.Unlock()
	if last && n > 0 {
		c.b.Release(n)
	}
}

// form makes a's form in coding k, compressing it the first time, and
// counts it; it reports false when nothing is kept at all, and the caller
// compresses as it writes.
func (c *answerCache) form(a *cachedAnswer, k coding.Coding, z *coding.Compressor) bool {
	if _, ok := a.forms.Get(k); ok {
		return true
	}
	if c.b == nil {
		return false
	}
	// One request compresses; those asking at the same time wait for its
	// form rather than compress the same bytes too (a large answer asked
	// by hundreds at once would otherwise cost hundreds of compressions
	// and their buffers).
	a.making[k].Lock()
	_, made := a.forms.Get(k)
	if !made {
		a.forms.Make(z, k)
	}
	a.making[k].Unlock()
	if made {
		return true
	}
	c.mu.Lock()
	n := int64(a.forms.Size())
	switch {
	case a.kept:
		if e, ok := c.byKey[a.key]; !ok {
			// Dropped while a remembered query still serves it: it is in
			// use, so it comes back, counted with its new form.
			a.tick = c.b.Tick()
			c.byKey[a.key] = c.lru.PushFront(a)
		} else if e.Value != a {
			c.mu.Unlock()
			return true // replaced by a newer answer; a is on its way out
		}
		c.b.Add(n - a.counted)
		a.counted = n
	case a.refs > 0:
		c.b.Add(n - a.counted)
		a.counted = n
	}
	c.mu.Unlock()
	c.b.Trim()
	return true
}

// drop takes e's answer out of the LRU and the budget, and forgets the
// remembered queries it answers. The caller holds c.mu.
func (c *answerCache) drop(e *list.Element) {
	a := c.lru.Remove(e).(*cachedAnswer)
	delete(c.byKey, a.key)
	c.b.Add(-a.counted)
	a.counted = 0
	for k, r := range c.byQuery {
		if r.answer == a {
			delete(c.byQuery, k)
		}
	}
}

// Oldest implements budget.Pool.
func (c *answerCache) Oldest() (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.lru.Back(); e != nil {
		return e.Value.(*cachedAnswer).tick, true
	}
	return 0, false
}

// DropOldest implements budget.Pool.
func (c *answerCache) DropOldest() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.lru.Back()
	if e == nil {
		return false
	}
	c.drop(e)
	return true
}

// newRecentAnswer returns the validators of the answer to q in format f,
// without its body.
func newRecentAnswer(snap *dataset.Snapshot, q *dataset.Query, f format) recentAnswer {
	a := recentAnswer{tag: snap.Tag(q, formatNames[f])}
	for c := range coding.Count {
		a.tags[c] = c.Tag(a.tag)
		a.etagHeaders[c] = []string{a.tags[c]}
	}
	if t, ok := snap.LastModified(q); ok {
		a.modified, a.modifiedHeader = t, []string{t.Format(http.TimeFormat)}
	}
	if q.Resolution != 0 {
		a.resolution = []string{q.Resolution.ISO()}
	}
	return a
}

// maxRecentQueries bounds the raw query strings remembered; callers choose
// them, so they are not trusted to be few.
const maxRecentQueries = 4096

// recentQueryBytes is about what a remembered query costs besides its
// string: the map entry and the validators' strings and headers.
const recentQueryBytes = 512

func (c *answerCache) recent(k queryKey, snap *dataset.Snapshot) (a recentAnswer, ok bool) {
	if c.b == nil {
		return a, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap != snap {
		return a, false
	}
	a, ok = c.byQuery[k]
	if ok {
		if e, in := c.byKey[a.answer.key]; in {
			c.touch(e)
		}
	}
	return a, ok
}

func (c *answerCache) remember(k queryKey, snap *dataset.Snapshot, a recentAnswer) {
	if !a.answer.kept {
		return
	}
	c.mu.Lock()
	if c.snap != snap || len(c.byQuery) >= maxRecentQueries {
		c.b.Add(-c.queryBytes)
		c.snap, c.byQuery, c.queryBytes = snap, map[queryKey]recentAnswer{}, 0
	}
	if _, in := c.byKey[a.answer.key]; in {
		c.byQuery[k] = a
		n := int64(len(k.raw) + recentQueryBytes)
		c.queryBytes += n
		c.b.Add(n)
	}
	c.mu.Unlock()
}
