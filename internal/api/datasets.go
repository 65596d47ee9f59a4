package api

import (
	"container/list"
	"net/http"
	"strings"
	"sync"

	"github.com/energyapi/energyapi/internal/dataset"
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
		f, ok := negotiate(r.Header.Get("Accept"))
		if !ok {
			writeError(w, r, o.Log, errNotAcceptable)
			return
		}
		q, err := c.ParseQuery(d, r.URL.Query(), dataset.Limits{MaxRangeDays: o.MaxRangeDays, Now: o.Now()})
		if err != nil {
			writeError(w, r, o.Log, err)
			return
		}
		snap := o.Data()
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
		tag := snap.Tag(q, formatNames[f])
		h := w.Header()
		h.Set("ETag", tag)
		h.Set("Cache-Control", o.CacheControl)
		if inm := r.Header.Get("If-None-Match"); inm != "" && etagMatches(inm, tag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		key := formatNames[f] + "|" + q.Key()
		body, ok := cache.get(key, tag)
		if !ok {
			if f == formatCSV {
				body = snap.AppendCSV(nil, q)
			} else {
				body = snap.AppendJSON(nil, q)
			}
			cache.put(key, tag, body)
		}
		writeBodyAs(w, contentTypes[f], http.StatusOK, body)
	})
}

// etagMatches reports whether an If-None-Match header names tag (RFC 9110
// 13.1.2: a list of tags, weak ones compared weakly, or "*").
func etagMatches(header, tag string) bool {
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
