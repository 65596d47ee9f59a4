package api

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// TestStoreBoundRequestsGiveUpTheirSlot holds the only request slot with a
// request that waits on the store: requests answered from memory are still
// served, a second store-bound request finds the store class full and is
// refused at once, and every slot is given back at the end.
func TestStoreBoundRequestsGiveUpTheirSlot(t *testing.T) {
	class := NewStoreClass(StoreClassConfig{Slots: 1, Timeout: time.Minute}, nil)
	b := newBlockingReady()
	store := func(ctx context.Context) error { return b.ready(ctx) } // a store call that hangs until released
	rec := newRecorder()
	srv := newGuardedServer(t, &blockingReady{}, rec, 1, 0, func(o *Options) {
		o.Limits.StoreClass = class
		o.Observability.Ready = func(ctx context.Context) error { return class.Do(ctx, store) }
	})

	held := make(chan answer, 1)
	go func() { held <- fetch(srv.URL + "/readyz") }()
	<-b.entered
	if a := fetch(srv.URL + "/healthz"); a.status != http.StatusOK {
		t.Errorf("/healthz while a request waits on the store: got %d (%s), want 200", a.status, a.body)
	}
	wantUnavailable(t, fetch(srv.URL+"/readyz"), "store unreachable")
	close(b.release)
	if a := <-held; a.status != http.StatusOK {
		t.Errorf("the request that waited on the store: got %d (%s), want 200", a.status, a.body)
	}
	if running, queued, _ := class.adm.state(); running != 0 || queued != 0 {
		t.Errorf("store class after the requests: %d running, %d queued; want none", running, queued)
	}
	if a := fetch(srv.URL + "/healthz"); a.status != http.StatusOK {
		t.Errorf("/healthz after: got %d, want 200: the general slot was not given back", a.status)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.inFlight != 0 {
		t.Errorf("in-flight gauge after all requests: got %d, want 0", rec.inFlight)
	}
}

// TestStoreClassDo checks what a store call made for a request returns: a
// domain error as it is, any other failure as Unavailable (still wrapping
// the cause), and a call that outlasts the class's deadline is cut short.
// Outside a request the call runs untouched.
func TestStoreClassDo(t *testing.T) {
	class := NewStoreClass(StoreClassConfig{Slots: 4, Timeout: 20 * time.Millisecond}, nil)
	refused := errors.New("dial tcp 127.0.0.1:5432: connect: connection refused")
	notFound := energy.Errorf(energy.NotFound, "client %q not found", "x")
	hang := func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }
	cases := []struct {
		name    string
		request bool
		op      func(context.Context) error
		code    energy.Code
		cause   error
	}{
		{"refused, for a request", true, func(context.Context) error { return refused }, energy.Unavailable, refused},
		{"not found, for a request", true, func(context.Context) error { return notFound }, energy.NotFound, notFound},
		{"hung, for a request", true, hang, energy.Unavailable, context.DeadlineExceeded},
		{"success, for a request", true, func(context.Context) error { return nil }, "", nil},
		{"refused, at startup", false, func(context.Context) error { return refused }, energy.Internal, refused},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			e := &entry{}
			if tc.request {
				ctx = context.WithValue(ctx, entryKey{}, e)
			}
			err := class.Do(ctx, tc.op)
			if got := energy.ErrorCode(err); got != tc.code || (tc.cause != nil && !errors.Is(err, tc.cause)) {
				t.Errorf("got %v (code %q), want code %q wrapping %v", err, got, tc.code, tc.cause)
			}
			e.slots.release()
		})
	}
	if running, _, _ := class.adm.state(); running != 0 {
		t.Errorf("store class after the calls: %d running, want none", running)
	}
}
