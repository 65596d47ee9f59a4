package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/energyapi/energyapi/internal/bulk"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/poll"
)

// Feed is the updates feed: the imports a store records, listed by
// GET /updates and pushed by GET /updates/stream as Server-Sent Events.
// Every replica runs one over the shared store and pushes an import once it
// serves the data the import wrote, so that a client that refetches on an
// event gets the new data from the replica that told it.
type Feed struct {
	src  dataset.EventSource
	data func() *dataset.Snapshot
	poke chan struct{}

	started atomic.Bool // Start has moved the feed past the old imports

	mu     sync.Mutex
	last   int64                               // the last event pushed
	subs   map[chan dataset.ImportEvent]string // each stream's caller address
	byAddr map[string]int                      // streams open per address; no zero entries
}

// Bounds of the feed.
const (
	// maxStreams bounds the streams open at once; each holds a connection
	// and a goroutine but no request slot.
	maxStreams = 1000
	// streamRetry is the Retry-After, in seconds, of a refused stream.
	streamRetry = 5
	// streamBuffer is how many events a stream may fall behind by; one that
	// falls further is closed, and its client resumes with Last-Event-ID.
	streamBuffer = 64
	// maxUpdates bounds the events one GET /updates lists.
	maxUpdates = 1000
	// DefaultStreamsPerAddr is Limits.StreamsPerAddr's default: enough
	// for a few browser tabs and scripts behind one address, few enough
	// that a hundred addresses are needed to hold every stream.
	DefaultStreamsPerAddr = 10
	// DefaultStreamWriteTimeout is Limits.StreamWriteTimeout's default.
	DefaultStreamWriteTimeout = 10 * time.Second
	// keepAlive is how often a quiet stream sends a comment, so that
	// proxies keep it open.
	keepAlive = 15 * time.Second
)

// NewFeed returns the feed of src's imports; data is the server's current
// snapshot, whose version tells which imports it serves.
func NewFeed(src dataset.EventSource, data func() *dataset.Snapshot) *Feed {
	return &Feed{src: src, data: data, poke: make(chan struct{}, 1), subs: map[chan dataset.ImportEvent]string{}, byAddr: map[string]int{}}
}

// Start moves the feed past the imports of the data the server serves now,
// which are not news to a stream (GET /updates lists them). The server
// calls it before it serves streams and starts Run, so that an import that
// commits afterwards is pushed however the goroutines are scheduled; Run
// tries again itself if Start failed (the store away) or was not called.
func (f *Feed) Start(ctx context.Context) error {
	err := f.skipPast(ctx, f.data().Version)
	if err == nil {
		f.started.Store(true)
	}
	return err
}

// Run pushes new imports to the open streams: it looks every interval, and
// at once after Poke, until ctx ends.
func (f *Feed) Run(ctx context.Context, interval time.Duration, onErr func(error)) {
	report := func(err error) {
		if err != nil && ctx.Err() == nil && onErr != nil {
			onErr(err)
		}
	}
	// Until the feed is past the imports recorded before, it tries that
	// again every interval; then it pushes.
	served := f.data().Version
	skipped := f.started.Load()
	if !skipped {
		err := f.skipPast(ctx, served)
		report(err)
		skipped = err == nil
	}
	poll.Every(ctx, interval, f.poke, func(ctx context.Context) {
		if skipped {
			report(f.Push(ctx))
			return
		}
		err := f.skipPast(ctx, served)
		report(err)
		skipped = err == nil
	})
}

// Poke asks Run to look for new imports now: the server calls it when it
// has loaded new data.
func (f *Feed) Poke() {
	select {
	case f.poke <- struct{}{}:
	default:
	}
}

// next returns the imports recorded after the last one pushed.
func (f *Feed) next(ctx context.Context) ([]dataset.ImportEvent, error) {
	f.mu.Lock()
	last := f.last
	f.mu.Unlock()
	return f.src.ImportEvents(ctx, last, time.Time{}, maxUpdates)
}

// skipPast moves the feed past the imports of data versions up to served,
// the data the server held when the feed started: those are not news to a
// stream. An import that commits later has a later data version, and is
// pushed (Push) once the server serves it, however that and the feed's
// start interleave. Imports recorded before stores kept versions (0) are
// all old.
func (f *Feed) skipPast(ctx context.Context, served int64) error {
	for {
		es, err := f.next(ctx)
		if err != nil {
			return err
		}
		f.mu.Lock()
		n := 0
		for _, e := range es {
			if e.Version > served {
				break
			}
			f.last, n = e.ID, n+1
		}
		f.mu.Unlock()
		if n < len(es) || len(es) == 0 {
			return nil
		}
	}
}

// Push sends every import recorded since the last one pushed, in order, to
// the open streams, stopping at the first whose data the server does not
// serve yet.
func (f *Feed) Push(ctx context.Context) error {
	es, err := f.next(ctx)
	if err != nil {
		return err
	}
	served := f.data().Version
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, e := range es {
		if e.ID <= f.last {
			continue
		}
		if e.Version > served {
			break
		}
		f.last = e.ID
		for ch := range f.subs {
			select {
			case ch <- e:
			default: // too far behind: its client resumes from Last-Event-ID
				f.drop(ch)
			}
		}
	}
	return nil
}

// subscribe returns a channel of the imports pushed from now on to a
// stream of the caller at addr, and the ID of the last one pushed before.
// It returns an error with code energy.Unavailable when maxStreams are open, and
// tooMany when addr holds perAddr of them.
func (f *Feed) subscribe(addr string, perAddr int) (ch chan dataset.ImportEvent, last int64, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byAddr[addr] >= perAddr {
		return nil, 0, energy.Errorf(tooMany, "Too many update streams from this address: at most %d at once; close one, or retry after %d s", perAddr, streamRetry)
	}
	if len(f.subs) >= maxStreams {
		return nil, 0, energy.Errorf(energy.Unavailable, "Too many update streams are open: retry after %d s", streamRetry)
	}
	ch = make(chan dataset.ImportEvent, streamBuffer)
	f.subs[ch] = addr
	f.byAddr[addr]++
	return ch, f.last, nil
}

func (f *Feed) unsubscribe(ch chan dataset.ImportEvent) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.drop(ch)
}

// drop ends the stream of ch, if it is open; f.mu is held.
func (f *Feed) drop(ch chan dataset.ImportEvent) {
	addr, ok := f.subs[ch]
	if !ok {
		return
	}
	delete(f.subs, ch)
	close(ch)
	if f.byAddr[addr]--; f.byAddr[addr] == 0 {
		delete(f.byAddr, addr)
	}
}

// updateBody is one import in GET /updates and in the stream.
type updateBody struct {
	ID          int64        `json:"id"`
	Dataset     string       `json:"dataset"`
	Period      *updateSpan  `json:"period"` // null for imports recorded before periods were
	Rows        updateCounts `json:"rows"`
	Started     string       `json:"started"`
	Time        string       `json:"time"` // when it committed: the published_at/revised_at of what it changed
	DataVersion int64        `json:"data_version"`
	Changed     bool         `json:"changed"`
	// Files are the bulk files the import changed, with the server's bulk
	// files on (Data.Bulk) only.
	Files []string `json:"files,omitempty"`
}

// updateSpan is the Europe/Rome days an import covered: the whole months
// (or years, for monthly and yearly datasets) its records fall in, the
// granularity at which answers' ETags change.
type updateSpan struct {
	From string `json:"from"` // yyyy-mm-dd
	To   string `json:"to"`
}

type updateCounts struct {
	Read      int `json:"read"`
	Inserted  int `json:"inserted"`
	Updated   int `json:"updated"`
	Unchanged int `json:"unchanged"`
}

func newUpdateBody(o Options, e dataset.ImportEvent) updateBody {
	b := updateBody{
		ID: e.ID, Dataset: e.Dataset,
		Rows:    updateCounts{e.Stats.Read, e.Stats.Inserted, e.Stats.Updated, e.Stats.Unchanged},
		Started: e.Started.UTC().Format(time.RFC3339Nano), Time: e.Finished.UTC().Format(time.RFC3339Nano),
		DataVersion: e.Version, Changed: e.Stats.Inserted+e.Stats.Updated > 0,
	}
	first, _, ok1 := dataset.PartDays(e.FirstPart)
	_, last, ok2 := dataset.PartDays(e.LastPart)
	if ok1 && ok2 {
		b.Period = &updateSpan{first.String(), last.String()}
	}
	if o.Data.Bulk != nil && b.Changed {
		b.Files = bulkFilesOf(o.Data.Catalog, e)
	}
	return b
}

// bulkFilesOf returns the paths of the bulk files an import changed: every
// format of each period from its first part to its last, of its dataset
// and of those derived from it. An import's parts are at most a few
// years of months apart, so the list stays short.
func bulkFilesOf(c *dataset.Catalog, e dataset.ImportEvent) []string {
	periods := partsBetween(e.FirstPart, e.LastPart)
	var out []string
	for _, d := range c.All() {
		if d.Name != e.Dataset && (d.Derive == nil || d.Derive.From != e.Dataset) {
			continue
		}
		for _, p := range periods {
			for _, f := range bulk.Formats {
				out = append(out, "/bulk/"+d.Name+"/"+p+"."+string(f))
			}
		}
	}
	return out
}

// partsBetween returns the part IDs from first to last, both months
// (yyyy-mm) or both years (yyyy); none for anything else.
func partsBetween(first, last string) []string {
	a, _, ok1 := dataset.PartDays(first)
	b, _, ok2 := dataset.PartDays(last)
	if !ok1 || !ok2 || len(first) != len(last) {
		return nil
	}
	var out []string
	for t := a.Start(); !t.After(b.Start()); {
		if len(first) == 4 {
			out = append(out, t.Format("2006"))
			t = t.AddDate(1, 0, 0)
		} else {
			out = append(out, t.Format("2006-01"))
			t = t.AddDate(0, 1, 0)
		}
	}
	return out
}

// handleUpdates lists the imports recorded after since (an RFC 3339
// instant) and after the import with ID after, oldest first, at most
// maxUpdates; next, when set, is the after of the following page.
func handleUpdates(o Options) http.Handler {
	type page struct {
		Updates []updateBody `json:"updates"`
		Next    *int64       `json:"next"`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q, err := queryOf(r.URL.RawQuery)
		if err != nil {
			writeError(w, r, o.Log, err)
			return
		}
		var since time.Time
		if s := q.Get("since"); s != "" {
			t, err := time.Parse(time.RFC3339Nano, s)
			if err != nil {
				writeError(w, r, o.Log, energy.Errorf(energy.Invalid, "parameter since value %q does not conform to an RFC 3339 instant such as 2024-03-01T12:00:00Z", s))
				return
			}
			since = t
		}
		after, err := eventID(q.Get("after"))
		if err != nil {
			writeError(w, r, o.Log, err)
			return
		}
		es, err := o.Data.Updates.src.ImportEvents(r.Context(), after, since, maxUpdates+1)
		if err != nil {
			writeError(w, r, o.Log, err)
			return
		}
		out := page{Updates: []updateBody{}}
		if len(es) > maxUpdates {
			es = es[:maxUpdates]
			next := es[len(es)-1].ID
			out.Next = &next
		}
		for _, e := range es {
			out.Updates = append(out.Updates, newUpdateBody(o, e))
		}
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		encode(w, http.StatusOK, out)
	})
}

// eventID parses an import's ID; empty is 0, before every import.
func eventID(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id < 0 {
		return 0, energy.Errorf(energy.Invalid, "event ID %q is not a non-negative integer", s)
	}
	return id, nil
}

// missed returns the imports after after, up to last. It reads the store
// as requests do, in the store class (StoreClass), and gives its slot back
// when done: an open stream holds no slot.
func (f *Feed) missed(ctx context.Context, after, last int64) ([]dataset.ImportEvent, error) {
	if t := ticketFrom(ctx); t != nil {
		defer t.release()
	}
	var missed []dataset.ImportEvent
	for after < last {
		es, err := f.src.ImportEvents(ctx, after, time.Time{}, maxUpdates)
		if err != nil {
			return nil, err
		}
		if len(es) == 0 {
			break
		}
		for _, e := range es {
			if e.ID <= last {
				missed = append(missed, e)
			}
		}
		after = es[len(es)-1].ID
	}
	return missed, nil
}

// handleUpdatesStream pushes each import as a Server-Sent Event (event
// "import", id its ID, data its JSON) once this server serves its data. A
// client that reconnects with Last-Event-ID (or ?after=) first gets the
// imports it missed. The stream bypasses the request deadline and slots of
// other requests (NewServer): it stays open until the client leaves, or
// stops reading for o.Limits.StreamWriteTimeout. One caller holds at most
// o.Limits.StreamsPerAddr streams.
func handleUpdatesStream(o Options) http.Handler {
	f := o.Data.Updates
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q, err := queryOf(r.URL.RawQuery)
		if err != nil {
			writeError(w, r, o.Log, err)
			return
		}
		from := r.Header.Get("Last-Event-ID")
		if from == "" {
			from = q.Get("after")
		}
		after, err := eventID(from)
		if err != nil {
			writeError(w, r, o.Log, err)
			return
		}
		ch, last, err := f.subscribe(o.Limits.RemoteAddr(r), o.Limits.StreamsPerAddr)
		if err != nil {
			w.Header().Set("Retry-After", strconv.Itoa(streamRetry))
			writeError(w, r, o.Log, err)
			return
		}
		defer f.unsubscribe(ch)
		var missed []dataset.ImportEvent
		if from != "" {
			if missed, err = f.missed(r.Context(), after, last); err != nil {
				writeError(w, r, o.Log, err)
				return
			}
		}
		h := w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("X-Accel-Buffering", "no") // proxies that buffer answers must not buffer this one
		w.WriteHeader(http.StatusOK)
		sw := sseWriter{w: w, rc: http.NewResponseController(w), timeout: o.Limits.StreamWriteTimeout, o: o}
		// A comment first, so that the client knows the stream is open.
		if sw.write([]byte(": energyapi updates\n\n")) != nil {
			return
		}
		for _, e := range missed {
			if sw.event(e) != nil {
				return
			}
		}
		tick := time.NewTicker(keepAlive)
		defer tick.Stop()
		for {
			select {
			case <-r.Context().Done():
				return
			case e, ok := <-ch:
				if !ok || sw.event(e) != nil {
					return
				}
			case <-tick.C:
				if sw.write([]byte(": keep-alive\n\n")) != nil {
					return
				}
			}
		}
	})
}

// sseWriter writes a stream, each write with its own deadline: a client
// that stops reading fills the connection's buffers until a write blocks,
// and that write fails after timeout, which ends the stream and frees its
// connection, goroutine and place among the streams.
type sseWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	o       Options // what the events say (newUpdateBody)
}

// write sends b to the client at once. The deadline is on the real clock,
// since it bounds a socket; it is cleared after the write, because the
// stream may then stay quiet for long (and over HTTP/2 a deadline that
// passes ends the stream even with no write pending). Neither call can
// fail on a writer that reaches the connection.
func (s sseWriter) write(b []byte) error {
	_ = s.rc.SetWriteDeadline(time.Now().Add(s.timeout))
	defer func() { _ = s.rc.SetWriteDeadline(time.Time{}) }()
	if _, err := s.w.Write(b); err != nil {
		return err
	}
	return s.rc.Flush()
}

// event sends the import e.
func (s sseWriter) event(e dataset.ImportEvent) error {
	b, err := json.Marshal(newUpdateBody(s.o, e))
	if err != nil {
		return err
	}
	return s.write(fmt.Appendf(nil, "id: %d\nevent: import\ndata: %s\n\n", e.ID, b))
}
