package api

import (
	"container/list"
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// UnmatchedFilter is the answer to a filter value outside its reference list.
type UnmatchedFilter string

// Answers to an unmatched filter value.
const (
	// EmptyBody is the specification's rule (4.2 rule 1): 200 with no body.
	EmptyBody UnmatchedFilter = "empty-body"
	// EmptyArray answers 200 with the envelope and an empty array, for
	// clients that cannot parse an empty body.
	EmptyArray UnmatchedFilter = "empty-array"
)

// handleDataset serves any dataset from the current snapshot. Answers are
// encoded once per version of the dataset's data and kept in cache, so a
// repeated query costs a lookup and a write.
func handleDataset(o Options, c *dataset.Catalog, d *dataset.Dataset, cache *answerCache) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, ok := requestFormat(r)
		if !ok {
			writeError(w, r, o.Log, errNotAcceptable)
			return
		}
		snap := o.Data()
		now := o.Clock()
		// A query string seen before on this snapshot has its answer ready:
		// no parsing, no tag to compute. The year is part of the key because
		// year windows move with it.
		raw := formatNames[f] + "|" + strconv.Itoa(now.Year()) + "|" + r.URL.RawQuery
		if a, ok := cache.recent(d, raw, snap); ok {
			writeTagged(w, r, o, f, a)
			return
		}
		params, err := queryOf(r.URL.RawQuery)
		if err != nil {
			writeQueryError(w, r, o.Log, d, err)
			return
		}
		q, err := c.ParseQuery(d, params, dataset.Limits{MaxRangeDays: o.MaxRangeDays, Now: now})
		if err != nil {
			writeQueryError(w, r, o.Log, d, err)
			return
		}
		if snap.Unknown(q) {
			if o.UnmatchedFilter != EmptyArray {
				writeEmpty(w)
				return
			}
			if f == formatJSON {
				writeBody(w, http.StatusOK, dataset.AppendEmptyJSON(nil, q))
				return
			}
		}
		// The validators come from the current parts, also for an answer as
		// of an earlier time: they change whenever that answer may.
		a := newRecentAnswer(snap, q, f)
		if notModified(r, a) {
			writeValidators(w, o, a)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		key := formatNames[f] + "|" + q.Key()
		body, ok := cache.get(key, a.tag)
		if !ok {
			view, err := asOf(r.Context(), o, snap, q)
			if err != nil {
				writeError(w, r, o.Log, err)
				return
			}
			if f == formatCSV {
				body = view.AppendCSV(nil, q)
			} else {
				body = view.AppendJSON(nil, q)
			}
			cache.put(key, a.tag, body)
		}
		a.body = body
		cache.remember(d, raw, snap, a)
		writeTagged(w, r, o, f, a)
	})
}

// asOf returns the snapshot that answers q: snap, or for a query with
// asOf the data as they stood then.
func asOf(ctx context.Context, o Options, snap *dataset.Snapshot, q *dataset.Query) (*dataset.Snapshot, error) {
	if q.AsOf.IsZero() {
		return snap, nil
	}
	if o.AsOf == nil {
		return nil, energy.Errorf(energy.Invalid, "parameter asOf: this server keeps no history of its data")
	}
	return o.AsOf(ctx, snap, q)
}

// writeTagged answers with a's body and validators, or 304 if the caller
// has it.
func writeTagged(w http.ResponseWriter, r *http.Request, o Options, f format, a recentAnswer) {
	writeValidators(w, o, a)
	if notModified(r, a) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	writeBodyAs(w, contentTypes[f], http.StatusOK, a.body)
}

// writeValidators sets the answer's ETag, Last-Modified and Cache-Control,
// from values formatted once per answer: on the revalidation path they are
// most of the work.
func writeValidators(w http.ResponseWriter, o Options, a recentAnswer) {
	h := w.Header()
	h["Etag"] = a.etagHeader
	if a.modifiedHeader != nil {
		h["Last-Modified"] = a.modifiedHeader
	}
	h["Cache-Control"] = o.cacheControl
}

// notModified reports whether the caller holds the answer a: its
// If-None-Match names a's tag or, without If-None-Match (which takes
// precedence, RFC 9110 13.2.2), its If-Modified-Since is no earlier than
// a's last modification, to the second that HTTP dates keep.
func notModified(r *http.Request, a recentAnswer) bool {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		return etagMatches(inm, a.tag)
	}
	ims := r.Header.Get("If-Modified-Since")
	if ims == "" || a.modified.IsZero() {
		return false
	}
	t, err := http.ParseTime(ims)
	return err == nil && !a.modified.Truncate(time.Second).After(t)
}

// etagMatches reports whether an If-None-Match header names tag (RFC 9110
// 13.1.2: a list of tags, weak ones compared weakly, or "*").
func etagMatches(header, tag string) bool {
	if header == tag {
		return true
	}
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == tag {
			return true
		}
	}
	return false
}

// answerCache keeps encoded answers, least recently used first out, within
// a byte budget. An entry is valid only for the data version it was
// encoded from; answers encoded from changed parts replace it.
type answerCache struct {
	mu     sync.Mutex
	budget int
	size   int
	lru    *list.List // of *cached, most recent at the front
	byKey  map[string]*list.Element

	// byQuery maps a dataset's raw query strings to their answer on one
	// snapshot; it is emptied when the snapshot changes or it grows large.
	snap    *dataset.Snapshot
	byQuery map[*dataset.Dataset]map[string]recentAnswer
	queries int
}

type recentAnswer struct {
	tag      string
	modified time.Time // zero when the answer covers no part
	body     []byte
	// The header values, shared by every answer that sends them (net/http
	// does not change them).
	etagHeader, modifiedHeader []string
}

// newRecentAnswer returns the validators of the answer to q in format f,
// without its body.
func newRecentAnswer(snap *dataset.Snapshot, q *dataset.Query, f format) recentAnswer {
	a := recentAnswer{tag: snap.Tag(q, formatNames[f])}
	a.etagHeader = []string{a.tag}
	if t, ok := snap.LastModified(q); ok {
		a.modified, a.modifiedHeader = t, []string{t.Format(http.TimeFormat)}
	}
	return a
}

// maxRecentQueries bounds the raw query strings remembered; callers choose
// them, so they are not trusted to be few.
const maxRecentQueries = 4096

func (c *answerCache) recent(d *dataset.Dataset, raw string, snap *dataset.Snapshot) (a recentAnswer, ok bool) {
	if c.budget == 0 {
		return a, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap != snap {
		return a, false
	}
	a, ok = c.byQuery[d][raw]
	return a, ok
}

func (c *answerCache) remember(d *dataset.Dataset, raw string, snap *dataset.Snapshot, a recentAnswer) {
	if c.budget == 0 || len(a.body) > c.budget/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap != snap || c.queries >= maxRecentQueries {
		c.snap, c.byQuery, c.queries = snap, map[*dataset.Dataset]map[string]recentAnswer{}, 0
	}
	if c.byQuery[d] == nil {
		c.byQuery[d] = map[string]recentAnswer{}
	}
	if _, ok := c.byQuery[d][raw]; !ok {
		c.queries++
	}
	c.byQuery[d][raw] = a
}

type cached struct {
	key  string
	tag  string // the entity tag of the data the body was encoded from
	body []byte
}

// newAnswerCache returns a cache of at most budget bytes of answers; a
// budget of 0 caches nothing.
func newAnswerCache(budget int) *answerCache {
	return &answerCache{budget: budget, lru: list.New(), byKey: map[string]*list.Element{}}
}

func (c *answerCache) get(key, tag string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok || e.Value.(*cached).tag != tag {
		return nil, false
	}
	c.lru.MoveToFront(e)
	return e.Value.(*cached).body, true
}

func (c *answerCache) put(key, tag string, body []byte) {
	// An answer larger than an eighth of the budget would evict too much.
	if len(body) > c.budget/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		old := e.Value.(*cached)
		c.size += len(body) - len(old.body)
		old.tag, old.body = tag, body
		c.lru.MoveToFront(e)
	} else {
		c.byKey[key] = c.lru.PushFront(&cached{key, tag, body})
		c.size += len(body)
	}
	for c.size > c.budget {
		e := c.lru.Back()
		old := e.Value.(*cached)
		c.lru.Remove(e)
		delete(c.byKey, old.key)
		c.size -= len(old.body)
	}
}
