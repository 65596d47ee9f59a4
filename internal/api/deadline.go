package api

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// withDeadline gives each request a deadline of d (d <= 0: none). Work that
// honours the request's context (store queries, secret lookups) stops at the
// deadline; if the handler has not begun its answer by then, the client gets
// 503 with Retry-After at once, and whatever the handler writes later is
// discarded. The handler runs on the server's goroutine (no goroutine per
// request: that cost a fresh stack grown anew on every request), and the
// middleware returns only when both the handler and the deadline's answer
// are done, so that a request keeps its slot for as long as it holds
// resources and nothing writes after it returns.
//
// A request answered from memory ends long before its deadline and never
// asks its context whether it is done: it pays for a place in one list
// (deadlines) and for none of the context package's machinery, which
// deadlineCtx makes only when asked.
func withDeadline(log *slog.Logger, d time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if d <= 0 {
			return next
		}
		q := newDeadlines(log, d)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			dl := deadlineOf(r)
			dl.r, dl.tw.w = r, w
			dl.ctx.Context = r.Context()
			q.add(dl)
			defer dl.ctx.release()
			// Deferred so that it runs on a panic too, which recoverPanics
			// then answers as usual.
			defer q.remove(dl)
			next.ServeHTTP(&dl.tw, r.WithContext(&dl.ctx))
		})
	}
}

// deadline is one request's place in the deadlines list, with what the
// deadline's answer needs. It lives in the request's entry.
type deadline struct {
	ctx deadlineCtx
	tw  timeoutWriter
	r   *http.Request // as it reached withDeadline

	// Under deadlines.mu: the list links, and whether the deadline passed
	// and its answer is being written (answered waits for it).
	links[deadline]
	expired  bool
	answered sync.WaitGroup
}

// deadlineOf returns the deadline kept in r's entry, or a new one for a
// request served outside NewServer.
func deadlineOf(r *http.Request) *deadline {
	if e := entryFrom(r.Context()); e != nil {
		return &e.deadline
	}
	return &deadline{}
}

// deadlines answers the requests that pass their deadline. Every deadline
// is d from when it was given, so they come due in the order given: one
// list in that order and one timer set for its head serve every request,
// where a timer and a context of each request's own cost more than the
// rest of a cached answer.
type deadlines struct {
	log *slog.Logger
	d   time.Duration

	mu    sync.Mutex
	list  fifo[deadline, *deadline]
	timer *time.Timer
	armed bool // the timer is set: for the head, or for one since removed
}

func newDeadlines(log *slog.Logger, d time.Duration) *deadlines {
	q := &deadlines{log: log, d: d}
	q.timer = time.AfterFunc(time.Hour, q.fire)
	q.timer.Stop()
	return q
}

// add gives dl its deadline, d from now, and puts it at the list's tail.
func (q *deadlines) add(dl *deadline) {
	q.mu.Lock()
	defer q.mu.Unlock()
	// Read under the lock, so that the list stays in deadline order.
	dl.ctx.at = time.Now().Add(q.d)
	dl.expired = false
	q.list.push(dl)
	if !q.armed {
		q.armed = true
		q.timer.Reset(q.d)
	}
}

// remove takes dl, whose request has ended, off the list; if its deadline
// has passed, it waits for the deadline's answer to be written.
func (q *deadlines) remove(dl *deadline) {
	q.mu.Lock()
	if dl.expired {
		q.mu.Unlock()
		dl.answered.Wait()
		return
	}
	q.list.remove(dl)
	q.mu.Unlock()
}

// fire answers the requests whose deadline has passed, each on a goroutine
// of its own (writing to a slow client must not hold the others), and sets
// the timer for the next deadline, if any.
func (q *deadlines) fire() {
	q.mu.Lock()
	defer q.mu.Unlock()
	now := time.Now()
	for q.list.head != nil && !q.list.head.ctx.at.After(now) {
		dl := q.list.head
		q.list.remove(dl)
		dl.expired = true
		dl.answered.Add(1)
		go q.answer(dl)
	}
	if q.list.head == nil {
		q.armed = false
		return
	}
	q.timer.Reset(q.list.head.ctx.at.Sub(now))
}

// answer answers 503 for dl's request, unless its handler has begun its own
// answer or its client went away.
func (q *deadlines) answer(dl *deadline) {
	defer dl.answered.Done()
	if dl.r.Context().Err() != nil {
		return
	}
	w, r := dl.tw.w, dl.r
	dl.tw.timeout(func() {
		w.Header().Set("Retry-After", "1")
		writeUnavailable(w, r, q.log, "1", fmt.Sprintf("The request took longer than %s: retry after 1 s", q.d))
		_ = http.NewResponseController(w).Flush()
	})
}

// deadlineCtx is a request's context with its deadline at. The context
// package's own deadline context (a timer, a place among its parent's
// children, a channel) is made only when something asks whether the
// context is done, or derives one that must know; until then the context
// is its parent with a deadline to report. Its Done and Err are those of
// the context made, which is done at the deadline (its own timer, apart
// from the deadlines list's) or with the parent.
type deadlineCtx struct {
	context.Context // the parent
	at              time.Time
	mu              sync.Mutex // held while made is made
	made            atomic.Pointer[madeCtx]
}

type madeCtx struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// Deadline reports the earlier of at and the parent's deadline, as the
// context made would.
func (c *deadlineCtx) Deadline() (time.Time, bool) {
	if d, ok := c.Context.Deadline(); ok && d.Before(c.at) {
		return d, true
	}
	return c.at, true
}

func (c *deadlineCtx) Done() <-chan struct{} { return c.std().Done() }

func (c *deadlineCtx) Err() error { return c.std().Err() }

// Value looks key up in the context made, once there is one: contexts
// derived from c then find, through it, the context they must register
// with to be cancelled at the deadline.
func (c *deadlineCtx) Value(key any) any {
	if m := c.made.Load(); m != nil {
		return m.ctx.Value(key)
	}
	return c.Context.Value(key)
}

// std returns the context made for c, making it the first time.
func (c *deadlineCtx) std() context.Context {
	if m := c.made.Load(); m != nil {
		return m.ctx
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if m := c.made.Load(); m != nil {
		return m.ctx
	}
	ctx, cancel := context.WithDeadline(c.Context, c.at)
	c.made.Store(&madeCtx{ctx: ctx, cancel: cancel})
	return ctx
}

// release frees the context made, if any, when the request ends.
func (c *deadlineCtx) release() {
	if m := c.made.Load(); m != nil {
		m.cancel()
	}
}

// timeoutWriter passes a handler's answer through until the deadline answers
// instead. The handler writes headers into a map of its own, so that the
// deadline path never races with it over the real one, unless it has begun
// its answer (answering).
type timeoutWriter struct {
	w        http.ResponseWriter
	h        http.Header // made when first asked for
	mu       sync.Mutex
	wrote    bool // the handler's answer has begun: its status line, or answering
	timedOut bool // the deadline answered; the handler's output is discarded
}

// Header returns the handler's own header map. Only the handler's
// goroutine calls it: the deadline's answer writes the real one.
func (tw *timeoutWriter) Header() http.Header {
	if tw.h == nil {
		tw.h = make(http.Header)
	}
	return tw.h
}

// answering tells the request's deadline, if w is the deadline's writer,
// that the handler has begun its answer, and returns the writer to write
// it to: the one under the deadline's, unless the deadline has answered
// already (then w, which discards what it is given). From then on the
// deadline does not answer instead, so the answer's headers need no map
// of their own, copied into the real one when the status goes out. A
// handler calls it once it holds its whole answer, with nothing left to
// wait for.
func answering(w http.ResponseWriter) http.ResponseWriter {
	tw, ok := w.(*timeoutWriter)
	if !ok {
		return w
	}
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.timedOut || tw.wrote {
		return w
	}
	tw.wrote = true
	dst := tw.w.Header()
	for k, vs := range tw.h {
		dst[k] = vs
	}
	return tw.w
}

func (tw *timeoutWriter) WriteHeader(code int) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.timedOut || tw.wrote {
		return
	}
	tw.writeHeaderLocked(code)
}

func (tw *timeoutWriter) writeHeaderLocked(code int) {
	dst := tw.w.Header()
	for k, vs := range tw.h {
		dst[k] = vs
	}
	if code >= 100 && code < 200 && code != http.StatusSwitchingProtocols {
		tw.w.WriteHeader(code) // informational: the final status is still to come
		return
	}
	tw.wrote = true
	tw.w.WriteHeader(code)
}

func (tw *timeoutWriter) Write(b []byte) (int, error) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.timedOut {
		return 0, http.ErrHandlerTimeout
	}
	if !tw.wrote {
		tw.writeHeaderLocked(http.StatusOK)
	}
	return tw.w.Write(b)
}

// FlushError lets handlers stream through http.ResponseController.
func (tw *timeoutWriter) FlushError() error {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.timedOut {
		return http.ErrHandlerTimeout
	}
	if !tw.wrote {
		tw.writeHeaderLocked(http.StatusOK)
	}
	return http.NewResponseController(tw.w).Flush()
}

// timeout runs answer unless the handler has already begun its own answer.
func (tw *timeoutWriter) timeout(answer func()) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.wrote {
		return
	}
	tw.timedOut = true
	answer()
}
