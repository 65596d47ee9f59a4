package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/testwait"
)

// recorder is a fake Recorder.
type recorder struct {
	mu       sync.Mutex
	inFlight int
	requests map[string]int // "route status" -> count
	limited  map[string]int
}

func newRecorder() *recorder { return &recorder{requests: map[string]int{}, limited: map[string]int{}} }

func (r *recorder) ObserveRequest(route string, status int, _ time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests[route+" "+http.StatusText(status)]++
}

func (r *recorder) InFlight(d int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.inFlight += d
}

func (r *recorder) RateLimited(e string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.limited[e]++
}

func (r *recorder) count(key string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.requests[key]
}

// blockingReady is a Ready check that blocks until released, ignoring its
// context, like a store call stuck in a driver that does not honour it. It
// reports each call's context on entered.
type blockingReady struct {
	entered chan context.Context
	release chan struct{}
}

func newBlockingReady() *blockingReady {
	return &blockingReady{entered: make(chan context.Context, 16), release: make(chan struct{})}
}

func (b *blockingReady) ready(ctx context.Context) error {
	b.entered <- ctx
	<-b.release
	return nil
}

// newGuardedServer returns a server whose /readyz blocks on b, with
// whatever changes set makes to its options.
func newGuardedServer(tb testing.TB, b *blockingReady, rec Recorder, maxInFlight int, timeout time.Duration, set ...func(*Options)) *httptest.Server {
	tb.Helper()
	cat, err := catalog.New()
	if err != nil {
		tb.Fatal(err)
	}
	live, err := dataset.NewLive(context.Background(), cat, dataset.NewMemory())
	if err != nil {
		tb.Fatal(err)
	}
	snap := live.Snapshot()
	o := Options{
		Log:           slog.New(slog.NewTextHandler(io.Discard, nil)),
		Data:          Data{Catalog: cat, Snapshot: func() *dataset.Snapshot { return snap }},
		Observability: Observability{Ready: b.ready, Metrics: rec},
		Limits:        Limits{MaxInFlight: maxInFlight, RequestTimeout: timeout},
	}
	for _, f := range set {
		f(&o)
	}
	srv := httptest.NewServer(NewServer(o))
	tb.Cleanup(srv.Close)
	return srv
}

type answer struct {
	status int
	header http.Header
	body   string
	err    error
}

func fetch(url string) answer {
	resp, err := http.Get(url)
	if err != nil {
		return answer{err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return answer{status: resp.StatusCode, header: resp.Header, body: string(b), err: err}
}

// wantUnavailable asserts a 503 in the result envelope with Retry-After.
func wantUnavailable(tb testing.TB, a answer, msgPart string) {
	tb.Helper()
	if a.err != nil {
		tb.Fatal(a.err)
	}
	if a.status != http.StatusServiceUnavailable {
		tb.Fatalf("status: got %d, want 503 (body %s)", a.status, a.body)
	}
	if got := a.header.Get("Retry-After"); got != "1" {
		tb.Errorf("Retry-After: got %q, want 1", got)
	}
	var e errorResponse
	if err := json.Unmarshal([]byte(a.body), &e); err != nil || e.Result.Status != statusError || !strings.Contains(e.Result.Message, msgPart) {
		tb.Errorf("body: got %s (%v), want the result envelope, status ERROR, a message containing %q", a.body, err, msgPart)
	}
	if got := a.header.Get("X-Content-Type-Options"); got != "nosniff" {
		tb.Errorf("X-Content-Type-Options: got %q, want nosniff", got)
	}
}

func TestInFlightLimitAnswers503AtOnce(t *testing.T) {
	b := newBlockingReady()
	rec := newRecorder()
	srv := newGuardedServer(t, b, rec, 2, 0)
	held := make(chan answer, 2)
	for range 2 {
		go func() { held <- fetch(srv.URL + "/readyz") }()
	}
	for range 2 {
		<-b.entered // both requests are being served
	}
	// The third does not wait for a slot: it is refused while the two still block.
	wantUnavailable(t, fetch(srv.URL+"/healthz"), "busy")
	close(b.release)
	for range 2 {
		if a := <-held; a.err != nil || a.status != http.StatusOK {
			t.Errorf("held request: got %d %v, want 200", a.status, a.err)
		}
	}
	if a := fetch(srv.URL + "/healthz"); a.status != http.StatusOK {
		t.Errorf("after the held requests finished: got %d, want 200", a.status)
	}
	if got := rec.count("GET /healthz Service Unavailable"); got != 1 {
		t.Errorf("metrics: got %d refused /healthz requests, want 1", got)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.inFlight != 0 {
		t.Errorf("in-flight gauge after all requests: got %d, want 0", rec.inFlight)
	}
}

func TestRequestDeadline(t *testing.T) {
	b := newBlockingReady()
	srv := newGuardedServer(t, b, nil, 0, 50*time.Millisecond)
	got := make(chan answer, 1)
	go func() { got <- fetch(srv.URL + "/readyz") }()
	ctx := <-b.entered
	// The answer arrives while the handler is still blocked, so it can only
	// come from the deadline.
	wantUnavailable(t, <-got, "took longer than 50ms")
	// The handler's context is a child of the one that timed out; the
	// runtime cancels children after starting the deadline's answer, so the
	// answer can reach us a moment before the child hears of it.
	select {
	case <-ctx.Done():
	case <-time.After(testwait.Scale(10 * time.Second)):
	}
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Errorf("handler's context: got %v, want it past its deadline", ctx.Err())
	}
	close(b.release) // the handler's late answer goes nowhere
	if a := fetch(srv.URL + "/readyz"); a.status != http.StatusOK {
		t.Errorf("next request: got %d %v, want 200", a.status, a.err)
	}
}

// TestDeadlineReachesDerivedContexts: a context derived from the
// request's, as a store call derives one, reports the request's deadline
// and ends at it, past its deadline.
func TestDeadlineReachesDerivedContexts(t *testing.T) {
	const d = 50 * time.Millisecond
	type seen struct {
		deadline time.Time
		err      error
	}
	got, release := make(chan seen, 1), make(chan struct{})
	ready := func(ctx context.Context) error {
		child, cancel := context.WithTimeout(context.WithValue(ctx, entryKey{}, nil), time.Hour)
		defer cancel()
		dl, _ := child.Deadline()
		<-child.Done()
		got <- seen{dl, child.Err()}
		<-release // the deadline answers, not this handler
		return nil
	}
	srv := newGuardedServer(t, newBlockingReady(), nil, 0, d, func(o *Options) { o.Observability.Ready = ready })
	defer close(release)
	before := time.Now()
	wantUnavailable(t, fetch(srv.URL+"/readyz"), "took longer than 50ms")
	var s seen
	select {
	case s = <-got:
	case <-time.After(testwait.Scale(10 * time.Second)):
		t.Fatal("the derived context did not end")
	}
	if s.deadline.Before(before.Add(d)) || s.deadline.After(time.Now()) {
		t.Errorf("derived deadline %v, want the request's: %v after it began", s.deadline.Sub(before), d)
	}
	if !errors.Is(s.err, context.DeadlineExceeded) {
		t.Errorf("derived context: got %v, want it past its deadline", s.err)
	}
}

// TestDeadlineAfterOtherRequestsEnded: requests that end in time leave no
// answer behind, and one that blocks later still gets the deadline's
// answer, again and again.
func TestDeadlineAfterOtherRequestsEnded(t *testing.T) {
	b := newBlockingReady()
	srv := newGuardedServer(t, b, nil, 0, 50*time.Millisecond)
	for range 2 {
		for range 20 {
			if a := fetch(srv.URL + "/healthz"); a.err != nil || a.status != http.StatusOK {
				t.Fatalf("quick request: got %d %v, want 200", a.status, a.err)
			}
		}
		got := make(chan answer, 1)
		go func() { got <- fetch(srv.URL + "/readyz") }()
		<-b.entered
		wantUnavailable(t, <-got, "took longer than 50ms")
		b.release <- struct{}{} // the handler ends; its answer goes nowhere
	}
}

// TestAnsweringBeforeTheDeadline: a handler that has begun its answer
// (answering) keeps it, headers and all, however long it then takes: the
// deadline no longer answers instead.
func TestAnsweringBeforeTheDeadline(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := httptest.NewServer(withDeadline(log, 50*time.Millisecond)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w = answering(w)
		w.Header().Set("X-Test", "kept")
		<-r.Context().Done() // past the deadline
		w.WriteHeader(http.StatusTeapot)
		_, _ = io.WriteString(w, "begun in time")
	})))
	defer srv.Close()
	a := fetch(srv.URL)
	if a.err != nil || a.status != http.StatusTeapot || a.header.Get("X-Test") != "kept" || a.body != "begun in time" {
		t.Errorf("got %d %q %q (%v), want the handler's own answer", a.status, a.header.Get("X-Test"), a.body, a.err)
	}
}

// TestAnsweringAfterTheDeadline: a handler that begins its answer after
// the deadline answered writes nowhere.
func TestAnsweringAfterTheDeadline(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	proceed, wrote := make(chan struct{}), make(chan error, 1)
	srv := httptest.NewServer(withDeadline(log, 50*time.Millisecond)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-proceed
		w = answering(w)
		w.WriteHeader(http.StatusTeapot)
		_, err := io.WriteString(w, "too late")
		wrote <- err
	})))
	defer srv.Close()
	got := make(chan answer, 1)
	go func() { got <- fetch(srv.URL) }()
	if a := <-got; a.err != nil || a.status != http.StatusServiceUnavailable || !strings.Contains(a.body, "took longer than 50ms") {
		t.Errorf("got %d %s (%v), want the deadline's 503", a.status, a.body, a.err)
	}
	close(proceed)
	if err := <-wrote; !errors.Is(err, http.ErrHandlerTimeout) {
		t.Errorf("the handler's late write: got %v, want http.ErrHandlerTimeout", err)
	}
}

func TestDeadlineKeepsPanicsRecoverable(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	h := recoverPanics(log)(withDeadline(log, time.Minute)(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("boom")
	})))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), "Information retrieval error") {
		t.Errorf("panic under a deadline: got %d %s, want 500 in the envelope", rec.Code, rec.Body)
	}
}

func TestDeadlinePassesAnswersThrough(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	h := withDeadline(log, time.Minute)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Test", "kept")
		w.WriteHeader(http.StatusTeapot)
		_, _ = io.WriteString(w, "short and stout")
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != http.StatusTeapot || rec.Header().Get("X-Test") != "kept" || rec.Body.String() != "short and stout" {
		t.Errorf("got %d %q %q, want the handler's own answer", rec.Code, rec.Header().Get("X-Test"), rec.Body)
	}
}

func TestRequestBodiesBounded(t *testing.T) {
	var readErr error
	var n int64
	h := limitBody(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, readErr = io.Copy(io.Discard, r.Body)
	}))
	body := strings.NewReader(strings.Repeat("x", 10*maxRequestBody))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/", body))
	var tooBig *http.MaxBytesError
	if !errors.As(readErr, &tooBig) || n != maxRequestBody {
		t.Errorf("reading a %d-byte body: got %d bytes and %v, want %d bytes and a MaxBytesError", 10*maxRequestBody, n, readErr, maxRequestBody)
	}
}

func TestRemoteAddr(t *testing.T) {
	for _, tt := range []struct {
		name   string
		trust  bool
		remote string
		xff    []string
		want   string
	}{
		{"peer", false, "192.0.2.1:5555", nil, "192.0.2.1"},
		{"peer ignores header", false, "192.0.2.1:5555", []string{"198.51.100.7"}, "192.0.2.1"},
		{"peer IPv6", false, "[2001:db8::1]:443", nil, "2001:db8::1"},
		{"trusted, last entry", true, "10.0.0.1:80", []string{"203.0.113.9, 198.51.100.7"}, "198.51.100.7"},
		{"trusted, last header", true, "10.0.0.1:80", []string{"203.0.113.9", "198.51.100.8"}, "198.51.100.8"},
		{"trusted, no header", true, "10.0.0.1:80", nil, "10.0.0.1"},
		// An entry that does not parse is skipped, never replaced by the
		// proxy's own address, which would pool every user in one bucket.
		{"trusted, garbage last", true, "10.0.0.1:80", []string{"198.51.100.7, garbage"}, "198.51.100.7"},
		{"trusted, garbage header last", true, "10.0.0.1:80", []string{"198.51.100.7", "garbage"}, "198.51.100.7"},
		{"trusted, empty entries", true, "10.0.0.1:80", []string{"198.51.100.7,, ,"}, "198.51.100.7"},
		{"trusted, nothing parses", true, "10.0.0.1:80", []string{"garbage, unknown"}, "10.0.0.1"},
		// An entry with a port is its address.
		{"trusted, IPv4 with port", true, "10.0.0.1:80", []string{"203.0.113.9, 10.6.0.1:1"}, "10.6.0.1"},
		{"trusted, IPv6 with port", true, "10.0.0.1:80", []string{"[2001:db8::1]:443"}, "2001:db8::1"},
		{"trusted, IPv6 in brackets", true, "10.0.0.1:80", []string{"[2001:db8::1]"}, "2001:db8::1"},
		{"trusted, IPv6 written long", true, "10.0.0.1:80", []string{"2001:0db8:0000::0001"}, "2001:db8::1"},
		{"trusted, IPv6 with zone", true, "10.0.0.1:80", []string{"fe80::1%eth0"}, "fe80::1"},
		{"trusted, IPv4-mapped", true, "10.0.0.1:80", []string{"::ffff:198.51.100.7"}, "198.51.100.7"},
		{"trusted, spaces", true, "10.0.0.1:80", []string{" 203.0.113.9 ,  198.51.100.7  "}, "198.51.100.7"},
		{"trusted, bad port", true, "10.0.0.1:80", []string{"203.0.113.9, 198.51.100.7:http"}, "203.0.113.9"},
		{"trusted, bracket unclosed", true, "10.0.0.1:80", []string{"203.0.113.9, [2001:db8::1"}, "203.0.113.9"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/", nil)
			r.RemoteAddr = tt.remote
			for _, v := range tt.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := RemoteAddr(tt.trust)(r); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRetryAfterRoundsUp(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Nanosecond: "1", time.Second: "1", time.Second + time.Millisecond: "2", 0: "1", time.Hour: "3600",
	} {
		if got := retryAfter(d); got != want {
			t.Errorf("retryAfter(%v): got %q, want %q", d, got, want)
		}
	}
}

// TestExcessRequestsQueueThenGet503 runs the real server with one slot and a
// queue of one in front of a handler that blocks: the second request waits,
// the third is refused at once while the first still blocks, and the waiter
// is refused when its budget runs out (on the test's timer, not a clock).
func TestExcessRequestsQueueThenGet503(t *testing.T) {
	b := newBlockingReady()
	rec := newRecorder()
	a, clk, timers := testAdmission(admissionConfig{Slots: 1, MaxQueue: 1, Timeout: 50 * time.Millisecond, Target: 5 * time.Millisecond})
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	live, err := dataset.NewLive(context.Background(), cat, dataset.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(NewServer(Options{
		Log:           slog.New(slog.NewTextHandler(io.Discard, nil)),
		Now:           clk.now,
		Data:          Data{Catalog: cat, Snapshot: live.Snapshot},
		Observability: Observability{Ready: b.ready, Metrics: rec},
		Limits:        Limits{MaxInFlight: 1, MaxQueue: 1, QueueTimeout: 50 * time.Millisecond},
		admission:     a,
	}))
	defer srv.Close()

	first := make(chan answer, 1)
	go func() { first <- fetch(srv.URL + "/readyz") }()
	<-b.entered // the first holds the only slot
	second := make(chan answer, 1)
	go func() { second <- fetch(srv.URL + "/healthz") }()
	budget := <-timers.started // the second waits in the queue
	wantState(t, a, 1, 1)

	// The queue is full: the third is answered while the first still blocks.
	wantUnavailable(t, fetch(srv.URL+"/healthz"), "busy")
	wantState(t, a, 1, 1)

	budget.fire <- time.Time{}
	wantUnavailable(t, <-second, "busy")
	wantState(t, a, 1, 0)

	close(b.release)
	if got := <-first; got.err != nil || got.status != http.StatusOK {
		t.Errorf("the blocked request: got %d %v, want 200", got.status, got.err)
	}
	if got := fetch(srv.URL + "/healthz"); got.status != http.StatusOK {
		t.Errorf("after the slot was freed: got %d, want 200", got.status)
	}
	if got := rec.count("GET /healthz Service Unavailable"); got != 2 {
		t.Errorf("metrics: got %d refused /healthz requests, want 2", got)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.inFlight != 0 {
		t.Errorf("in-flight gauge after all requests: got %d, want 0", rec.inFlight)
	}
}
