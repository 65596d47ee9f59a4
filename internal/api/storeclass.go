package api

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// StoreClass is the admission class of the requests that wait on the store:
// a token request the in-memory client table cannot decide, an asOf read of
// parts the server does not hold, GET /updates, /readyz. Data answers come
// from memory; when the database stops or hangs, requests that need it must
// not take the slots those answers need, nor wait long.
//
// A request turns to the store at its first store call (Do), which finds out
// whether it needs the store at all: the request then gives up its general
// slot (see limitInFlight) and waits, for at most the class's wait, for one
// of the class's slots, which it keeps until it ends. Requests waiting on
// the store thus hold no general slot however long the store takes, and at
// most MaxInFlight requests plus the class's slots are served at once. Each
// store call made for a request has a deadline of its own, so that a hung
// database costs a request that long and no more; a call that fails without
// a domain answer (connection refused, deadline passed, connection lost, the
// server shutting down) is answered 503 with Retry-After, and the reason
// goes to the request's log line.
type StoreClass struct {
	adm     *admission
	timeout time.Duration
	now     func() time.Time
}

// StoreClassConfig sizes a StoreClass.
type StoreClassConfig struct {
	// Slots is how many requests may wait on the store at once; at least 1.
	Slots int
	// MaxQueue is how many requests may wait for one of those slots; more
	// are refused at once.
	MaxQueue int
	// Wait is the longest a request waits for a slot; 0: none, a request
	// that finds every slot taken is refused at once.
	Wait time.Duration
	// Timeout is the deadline of each store call made for a request; 0:
	// none but the request's own.
	Timeout time.Duration
}

// NewStoreClass returns the class that cfg sizes; now defaults to time.Now.
func NewStoreClass(cfg StoreClassConfig, now func() time.Time) *StoreClass {
	if now == nil {
		now = time.Now
	}
	adm := newAdmission(admissionConfig{Slots: max(cfg.Slots, 1), MaxQueue: cfg.MaxQueue, Timeout: cfg.Wait}, now)
	return &StoreClass{adm: adm, timeout: cfg.Timeout, now: now}
}

// Errors of the class, in the result envelope as 503 with Retry-After.
var (
	errStoreBusy        = energy.Errorf(energy.Unavailable, "Too many requests are waiting on the data store: retry after 1 s")
	errStoreUnavailable = energy.Errorf(energy.Unavailable, "The data store is not answering: retry after 1 s")
)

// Do runs op, a store call, for the request whose context is ctx: in the
// class, with the class's deadline. It returns op's error if that has a
// domain code (NotFound, say), and otherwise an error with code Unavailable
// that wraps it; an error with code Unavailable also when no slot frees up
// in time. A ctx that belongs to no request (startup, background polls)
// runs op as it is, as does a nil class.
func (c *StoreClass) Do(ctx context.Context, op func(context.Context) error) error {
	t := ticketFrom(ctx)
	if c == nil || t == nil {
		return op(ctx)
	}
	if err := c.enter(ctx, t); err != nil {
		return err
	}
	octx := ctx
	if c.timeout > 0 {
		var cancel context.CancelFunc
		octx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	err := op(octx)
	if err == nil || energy.ErrorCode(err) != energy.Internal {
		return err
	}
	if e := entryFrom(ctx); e != nil {
		e.extra = append(e.extra, slog.String("store_error", err.Error()))
	}
	// Both wrapped: the code for the answer, the cause for errors.Is (a
	// caller that went away is told apart by context.Canceled).
	return fmt.Errorf("%w: %w", errStoreUnavailable, err)
}

// enter moves the request that holds t into the class, unless it is there
// already: it gives up its general slot at once, then waits for a store slot.
func (c *StoreClass) enter(ctx context.Context, t *ticket) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.store != nil {
		return nil
	}
	if t.general != nil {
		t.general.release()
		t.general = nil
	}
	if c.adm.acquire(ctx, c.now()) != admitted {
		return errStoreBusy
	}
	t.store = c.adm
	return nil
}

// bound serves next, a handler that needs the store but cannot pass the
// request's context to it (the metrics collector reads the store with a
// deadline of its own), in the class. A nil class serves next as it is.
func (c *StoreClass) bound(log *slog.Logger, next http.Handler) http.Handler {
	if c == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if t := ticketFrom(r.Context()); t != nil {
			if err := c.enter(r.Context(), t); err != nil {
				writeError(w, r, log, err)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// ticket is what a request holds of the admission classes: the general slot
// it was admitted to, until it turns to the store, then a store slot.
// limitInFlight puts the general slot in it and releases what it holds when
// the request ends.
type ticket struct {
	mu      sync.Mutex
	general *admission // the general slot held; nil once given up
	store   *admission // the store slot held; nil until the request turns to the store
}

// ticketFrom returns the ticket of the request whose context is ctx, nil
// outside a request.
func ticketFrom(ctx context.Context) *ticket {
	if e := entryFrom(ctx); e != nil {
		return &e.slots
	}
	return nil
}

// hold records that the request holds a slot of a.
func (t *ticket) hold(a *admission) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.general = a
}

// release gives back whatever slot t holds.
func (t *ticket) release() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.general != nil {
		t.general.release()
		t.general = nil
	}
	if t.store != nil {
		t.store.release()
		t.store = nil
	}
}
