package api

import (
	"container/list"
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/energyapi/energyapi/internal/coding"
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
// encoded once per version of the dataset's data and kept in cache, with
// each compressed form once first asked for, so a repeated query costs a
// lookup and a write.
func handleDataset(o Options, c *dataset.Catalog, d *dataset.Dataset, cache *answerCache) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, ok := requestFormat(r)
		if !ok {
			writeError(w, r, o.Log, errNotAcceptable)
			return
		}
		accepted := o.Compression.Accepted(r)
		snap := o.Data()
		now := requestDate(o, r)
		// A query string seen before on this snapshot has its answer ready:
		// no parsing, no tag to compute. The year is part of the key because
		// year windows move with it.
		raw := queryKey{d: d, f: f, year: now.Year(), raw: r.URL.RawQuery}
		if a, ok := cache.recent(raw, snap); ok {
			writeTagged(w, r, o, f, a, accepted, cache)
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
		if k, ok := heldBefore(r, a, accepted); ok {
			w = answering(w)
			writeValidators(w, o, a, k)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		key := formatNames[f] + "|" + q.Key()
		ans, ok := cache.get(key, a.tag)
		if !ok {
			view, err := asOf(r.Context(), o, snap, q)
			if err != nil {
				writeError(w, r, o.Log, err)
				return
			}
			// Parts the server no longer holds are read from the store:
			// such a read is a store call (StoreClass), 503 if it fails.
			var body []byte
			if f == formatCSV {
				body, err = view.AppendCSV(r.Context(), nil, q)
			} else {
				body, err = view.AppendJSON(r.Context(), nil, q)
			}
			if err != nil {
				writeError(w, r, o.Log, err)
				return
			}
			ans = cache.put(key, a.tag, body)
		}
		a.answer = ans
		cache.remember(raw, snap, a)
		writeTagged(w, r, o, f, a, accepted, cache)
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

// errNoCoding answers an Accept-Encoding that refuses identity and every
// coding this server has.
var errNoCoding = energy.Errorf(notAcceptable, "Not Acceptable: Accept-Encoding admits none of identity, gzip, zstd")

// writeTagged answers with a's body in the coding accepted asks for, with
// its validators, or 304 if the caller holds it.
func writeTagged(w http.ResponseWriter, r *http.Request, o Options, f format, a recentAnswer, accepted coding.Accepted, cache *answerCache) {
	w = answering(w) // the answer is in hand
	identity := a.answer.forms.Identity()
	k, ok := accepted.Choose(len(identity))
	if !ok {
		writeError(w, r, o.Log, errNoCoding)
		return
	}
	if held, ok := holds(r, a, accepted, k); ok {
		writeValidators(w, o, a, held)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	writeValidators(w, o, a, k)
	o.Compression.SetHeaders(w.Header(), k)
	if cache.form(a.answer, k, o.Compression) {
		writeForm(w, f, a.answer.forms, k)
		return
	}
	// Too large to keep: compressed as it is written, length unknown.
	w.Header().Set("Content-Type", contentTypes[f])
	w.WriteHeader(http.StatusOK)
	_ = o.Compression.Write(w, k, identity) // a failed write is the caller gone
}

// writeForm answers 200 with the body of forms in coding k, which is made,
// with header values made once with it.
func writeForm(w http.ResponseWriter, f format, forms *coding.Forms, k coding.Coding) {
	h := w.Header()
	h["Content-Type"] = contentTypeHeaders[f]
	h["Content-Length"] = forms.Length(k)
	w.WriteHeader(http.StatusOK)
	b, _ := forms.Get(k)
	_, _ = w.Write(b)
}

// writeValidators sets the validators of a's form in coding k: ETag,
// Last-Modified and Cache-Control, from values formatted once per answer
// (on the revalidation path they are most of the work), and Vary.
func writeValidators(w http.ResponseWriter, o Options, a recentAnswer, k coding.Coding) {
	h := w.Header()
	h["Etag"] = a.etagHeaders[k]
	if a.modifiedHeader != nil {
		h["Last-Modified"] = a.modifiedHeader
	}
	h["Cache-Control"] = o.cacheControl
	o.Compression.SetVary(h)
}

// holds reports whether the caller holds a current form of a, and which:
// its If-None-Match names the tag of a form its Accept-Encoding admits
// (the one it would get, k, looked at first), or, without If-None-Match
// (which takes precedence, RFC 9110 13.2.2), its If-Modified-Since is no
// earlier than a's last modification, to the second that HTTP dates keep:
// then the form is k.
func holds(r *http.Request, a recentAnswer, accepted coding.Accepted, k coding.Coding) (coding.Coding, bool) {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		if etagMatches(inm, a.tags[k]) {
			return k, true
		}
		for c := range coding.Count {
			if c != k && accepted.Admits(c) && etagMatches(inm, a.tags[c]) {
				return c, true
			}
		}
		return k, false
	}
	return k, modifiedSince(r, a)
}

// heldBefore is holds before a's body is encoded, when the coding it would
// be sent in is not known: an If-None-Match names the form it matches, and
// an If-Modified-Since is answered here only for a caller that takes
// identity alone.
func heldBefore(r *http.Request, a recentAnswer, accepted coding.Accepted) (coding.Coding, bool) {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		for c := range coding.Count {
			if accepted.Admits(c) && etagMatches(inm, a.tags[c]) {
				return c, true
			}
		}
		return coding.Identity, false
	}
	for c := coding.Identity + 1; c < coding.Count; c++ {
		if accepted.Admits(c) {
			return coding.Identity, false
		}
	}
	return coding.Identity, accepted.Admits(coding.Identity) && modifiedSince(r, a)
}

// modifiedSince reports whether r's If-Modified-Since is no earlier than
// a's last modification.
func modifiedSince(r *http.Request, a recentAnswer) bool {
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
// a byte budget that counts each answer's compressed forms too. An entry is
// valid only for the data version it was encoded from; answers encoded
// from changed parts replace it.
type answerCache struct {
	mu     sync.Mutex
	budget int
	size   int
	lru    *list.List // of *cachedAnswer, most recent at the front
	byKey  map[string]*list.Element

	// byQuery maps raw query strings to their answer on one snapshot; it
	// is emptied when the snapshot changes or it grows large.
	snap    *dataset.Snapshot
	byQuery map[queryKey]recentAnswer
}

// queryKey names a request as it came, before parsing: its dataset, the
// representation asked for, the year it was asked in (year windows move
// with it) and its raw query string. A struct, not a string built from
// them, so that looking one up allocates nothing.
type queryKey struct {
	d    *dataset.Dataset
	f    format
	year int
	raw  string
}

// cachedAnswer is one encoded answer: its identity bytes and the
// compressed forms made so far.
type cachedAnswer struct {
	key   string
	tag   string // the entity tag of the data the body was encoded from
	forms *coding.Forms
	// kept is false for an answer too large for the cache: it is compressed
	// as it is written rather than kept.
	kept bool
	// counted is the bytes of forms the cache's size counts, under its lock.
	counted int
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
	return a
}

// maxRecentQueries bounds the raw query strings remembered; callers choose
// them, so they are not trusted to be few.
const maxRecentQueries = 4096

func (c *answerCache) recent(k queryKey, snap *dataset.Snapshot) (a recentAnswer, ok bool) {
	if c.budget == 0 {
		return a, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap != snap {
		return a, false
	}
	a, ok = c.byQuery[k]
	return a, ok
}

func (c *answerCache) remember(k queryKey, snap *dataset.Snapshot, a recentAnswer) {
	if !a.answer.kept {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap != snap || len(c.byQuery) >= maxRecentQueries {
		c.snap, c.byQuery = snap, map[queryKey]recentAnswer{}
	}
	c.byQuery[k] = a
}

// newAnswerCache returns a cache of at most budget bytes of answers; a
// budget of 0 caches nothing.
func newAnswerCache(budget int) *answerCache {
	return &answerCache{budget: budget, lru: list.New(), byKey: map[string]*list.Element{}}
}

func (c *answerCache) get(key, tag string) (*cachedAnswer, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok || e.Value.(*cachedAnswer).tag != tag {
		return nil, false
	}
	c.lru.MoveToFront(e)
	return e.Value.(*cachedAnswer), true
}

// put keeps body as the answer under key, for the data of tag, and returns
// it. An answer larger than an eighth of the budget would evict too much:
// it is returned but not kept.
func (c *answerCache) put(key, tag string, body []byte) *cachedAnswer {
	a := &cachedAnswer{key: key, tag: tag, forms: coding.NewForms(body), kept: c.budget > 0 && len(body) <= c.budget/8}
	if !a.kept {
		return a
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		old := e.Value.(*cachedAnswer)
		c.size -= old.counted
		old.counted = 0
		e.Value = a
		c.lru.MoveToFront(e)
	} else {
		c.byKey[key] = c.lru.PushFront(a)
	}
	c.count(a)
	return a
}

// form makes a's form in coding k, compressing it the first time; it
// reports false for an answer too large to keep, which the caller
// compresses as it writes.
func (c *answerCache) form(a *cachedAnswer, k coding.Coding, z *coding.Compressor) bool {
	if _, ok := a.forms.Get(k); ok {
		return true
	}
	if !a.kept {
		return false
	}
	a.forms.Make(z, k)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch e, ok := c.byKey[a.key]; {
	case !ok:
		// Evicted while a remembered query still serves it: it is in use, so
		// it comes back, counted with its new form.
		c.byKey[a.key] = c.lru.PushFront(a)
	case e.Value != a:
		return true // replaced by a newer answer; a is on its way out
	}
	c.count(a)
	return true
}

// count brings the size the cache counts for a, which it holds, up to
// date, and evicts the least recently used answers beyond the budget.
// The caller holds c.mu.
func (c *answerCache) count(a *cachedAnswer) {
	n := a.forms.Size()
	c.size += n - a.counted
	a.counted = n
	for c.size > c.budget {
		e := c.lru.Back()
		old := e.Value.(*cachedAnswer)
		c.lru.Remove(e)
		delete(c.byKey, old.key)
		c.size -= old.counted
		old.counted = 0
	}
}
