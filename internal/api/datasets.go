package api

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
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
// UnknownParameters says what a data request with a query parameter its
// endpoint does not take gets.
type UnknownParameters string

const (
	// IgnoreUnknown answers as if the parameter were absent, as the live
	// family does.
	IgnoreUnknown UnknownParameters = "ignore"
	// RejectUnknown answers as invalid input (400; the v1.0 areas' 406)
	// naming the parameter: a misspelt filter (zone for biddingZone) is
	// then told, not silently dropped.
	RejectUnknown UnknownParameters = "reject"
)

// unknownParameter returns an error with code Invalid naming the first
// parameter of params, by name, that d's endpoint does not take; nil if it
// takes them all. format is every data endpoint's.
func unknownParameter(d *dataset.Dataset, params url.Values) error {
	for _, name := range slices.Sorted(maps.Keys(params)) {
		if name != "format" && !d.Takes(name) {
			return energy.Errorf(energy.Invalid, "unknown parameter %s: %s takes %s", name, d.Path(), strings.Join(d.ParameterNames(), ", "))
		}
	}
	return nil
}

// A reshaping view v (a v1.0 path of a v2.0 series) answers the same
// records through the same steps; only its encoding and keys differ.
func handleDataset(o Options, c *dataset.Catalog, d *dataset.Dataset, v *dataset.View, cache *answerCache) http.Handler {
	if v != nil && !v.Reshapes() {
		v = nil // the same answers: the same keys
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, ok := requestFormat(r)
		if !ok {
			writeError(w, r, o.Log, errNotAcceptable)
			return
		}
		accepted := o.Cache.Compression.Accepted(r)
		snap := o.Data.Snapshot()
		now := requestDate(o, r)
		// A query string seen before on this snapshot has its answer ready:
		// no parsing, no tag to compute. The year is part of the key because
		// year windows move with it.
		maxDays := maxRangeDays(o, r)
		raw := queryKey{d: d, view: v, f: f, year: now.Year(), raw: r.URL.RawQuery, maxDays: maxDays}
		if a, ok := cache.recent(raw, snap); ok {
			writeTagged(w, r, o, f, a, accepted, cache)
			return
		}
		params, err := queryOf(r.URL.RawQuery)
		if err != nil {
			writeQueryError(w, r, o.Log, d, err)
			return
		}
		if o.Data.UnknownParameters == RejectUnknown {
			if err := unknownParameter(d, params); err != nil {
				writeQueryError(w, r, o.Log, d, err)
				return
			}
		}
		q, err := c.ParseViewQuery(d, v, params, dataset.Limits{MaxRangeDays: maxDays, Now: now, PagedMaxRangeDays: planRangeDays(o, r)})
		if err != nil {
			writeQueryError(w, r, o.Log, d, err)
			return
		}
		// A derived dataset's parts are derived when first needed, the
		// validators' included: a store that fails then fails the request.
		if err := snap.Derive(r.Context(), q); err != nil {
			writeError(w, r, o.Log, err)
			return
		}
		if snap.Unknown(q) {
			if o.Data.UnmatchedFilter != EmptyArray {
				writeEmpty(w)
				return
			}
			if f == formatJSON {
				writeBody(w, http.StatusOK, dataset.AppendEmptyJSON(nil, q))
				return
			}
		}
		if q.Paged() {
			writePage(w, r, o, snap, q, f)
			return
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
		writeAnswer(w, r, o, cache, snap, q, raw, a, accepted)
	})
}

// writeAnswer answers q with its answer from cache, encoded there if need
// be, or, if too large for the budget, streamed as it is encoded.
func writeAnswer(w http.ResponseWriter, r *http.Request, o Options, cache *answerCache, snap *dataset.Snapshot, q *dataset.Query, raw queryKey, a recentAnswer, accepted coding.Accepted) {
	f := raw.f
	pk, records := perRecordKey{q.Dataset, f}, snap.Records(q)
	if cache.streams(pk, records, q) {
		view, err := asOf(r.Context(), o, snap, q)
		if err != nil {
			writeError(w, r, o.Log, err)
			return
		}
		writeStreamed(w, r, o, a, accepted, cache, streamed{view: view, q: q, f: f, pk: pk, records: records})
		return
	}
	key := formatNames[f] + "|" + q.Key()
	ans, err := cache.answerForms(r.Context(), key, a.tag, pk, records, func(expect int64) (*coding.Forms, error) {
		view, err := asOf(r.Context(), o, snap, q)
		if err != nil {
			return nil, err
		}
		// Parts the server no longer holds are read from the store:
		// such a read is a store call (StoreClass), 503 if it fails.
		return encodeForms(r.Context(), view, q, f, cache.pipeFor(o.Cache.Compression, accepted, expect), expect)
	})
	if err != nil {
		writeError(w, r, o.Log, err)
		return
	}
	defer cache.done(ans)
	a.answer = ans
	cache.remember(raw, snap, a)
	writeTagged(w, r, o, f, a, accepted, cache)
}

// pipeMin is the smallest answer, as expected, compressed while it is
// encoded: below it the goroutine and the hand-overs cost more than the
// overlap saves. pipePiece is the size of the pieces handed over.
const (
	pipeMin   = 64 << 10
	pipePiece = 32 << 10
)

// pipeFor returns the compressor to compress an answer of about expect
// bytes with while it is encoded, nil when that is not worth it: the
// answer is small or of a size not known yet, nothing is kept (it is
// compressed as it is written), or the request making it would not get
// it in gzip.
func (c *answerCache) pipeFor(z *coding.Compressor, accepted coding.Accepted, expect int64) *coding.Compressor {
	if z == nil || c.b == nil || expect < pipeMin {
		return nil
	}
	if k, _ := accepted.Choose(int(expect)); k != coding.Gzip {
		return nil
	}
	return z
}

// encodeForms encodes the answer to q in format f from view and, with a
// compressor z, compresses it in gzip meanwhile (coding.Pipe): a cold
// answer's encoding and compression were its two largest stages, one
// after the other on one CPU while the requests waiting for the answer
// left the other idle. The request making the answer, and those waiting
// for it, then find its gzip form made with its body.
func encodeForms(ctx context.Context, view *dataset.Snapshot, q *dataset.Query, f format, z *coding.Compressor, expect int64) (*coding.Forms, error) {
	build, tee := view.AppendJSON, view.AppendJSONTee
	if f == formatCSV {
		build, tee = view.AppendCSV, view.AppendCSVTee
	}
	if z == nil {
		body, err := build(ctx, nil, q)
		if err != nil {
			return nil, err
		}
		return coding.NewForms(body), nil
	}
	p := z.NewPipe(int(expect))
	defer p.Close() // an encoder that panics leaves no goroutine waiting
	body, err := tee(ctx, nil, q, pipePiece, p.Feed)
	gz, perr := p.Close()
	if err != nil {
		return nil, err
	}
	forms := coding.NewForms(body)
	if perr == nil && len(body) >= coding.MinSize {
		forms.Put(coding.Gzip, gz)
	}
	return forms, nil
}

// asOf returns the snapshot that answers q: snap, or for a query with
// asOf the data as they stood then.
func asOf(ctx context.Context, o Options, snap *dataset.Snapshot, q *dataset.Query) (*dataset.Snapshot, error) {
	if q.AsOf.IsZero() {
		return snap, nil
	}
	if o.Data.AsOf == nil {
		return nil, energy.Errorf(energy.Invalid, "parameter asOf: this server keeps no history of its data")
	}
	return o.Data.AsOf(ctx, snap, q)
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
	o.Cache.Compression.SetHeaders(w.Header(), k)
	if cache.form(a.answer, k, o.Cache.Compression) {
		writeForm(w, f, a.answer.forms, k)
		return
	}
	// Too large to keep: compressed as it is written, length unknown.
	w.Header().Set("Content-Type", contentTypes[f])
	w.WriteHeader(http.StatusOK)
	_ = o.Cache.Compression.Write(w, k, identity) // a failed write is the caller gone
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
	if a.resolution != nil {
		h[resolutionHeader] = a.resolution
	}
	o.Cache.Compression.SetVary(h)
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
