package api

import (
	"context"
	"math"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

// testClock is a settable clock (apitest's would be an import cycle here).
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// fakeTimers hands the test every timer a waiter starts, to fire at will;
// a timer is started right after its waiter joins the queue, so receiving
// one also tells the test that the request is waiting.
type fakeTimers struct{ started chan fakeTimer }

type fakeTimer struct {
	d    time.Duration
	fire chan time.Time
}

func newFakeTimers() *fakeTimers { return &fakeTimers{started: make(chan fakeTimer, 16)} }

func (f *fakeTimers) newTimer(d time.Duration) (<-chan time.Time, func() bool) {
	t := fakeTimer{d: d, fire: make(chan time.Time, 1)}
	f.started <- t
	return t.fire, func() bool { return true }
}

func testAdmission(cfg admissionConfig) (*admission, *testClock, *fakeTimers) {
	clk := &testClock{t: time.Date(2024, 10, 27, 1, 0, 0, 0, time.UTC)}
	timers := newFakeTimers()
	a := newAdmission(cfg, clk.now)
	a.newTimer = timers.newTimer
	return a, clk, timers
}

// waitFor runs acquire on its own goroutine, as a request's would.
func waitFor(a *admission, ctx context.Context, arrived time.Time) <-chan admit {
	got := make(chan admit, 1)
	go func() { got <- a.acquire(ctx, arrived) }()
	return got
}

func wantState(tb testing.TB, a *admission, running, queued int) {
	tb.Helper()
	r, q, _ := a.state()
	if r != running || q != queued {
		tb.Errorf("state: got %d running and %d queued, want %d and %d", r, q, running, queued)
	}
}

func TestAdmissionBoundsRunningAndWaiting(t *testing.T) {
	ctx := context.Background()
	a, clk, timers := testAdmission(admissionConfig{Slots: 1, MaxQueue: 2, Timeout: 100 * time.Millisecond})
	if got := a.acquire(ctx, clk.now()); got != admitted {
		t.Fatalf("first request: got %v, want admitted", got)
	}
	// Two wait: the queue's bound.
	second := waitFor(a, ctx, clk.now())
	if tm := <-timers.started; tm.d != 100*time.Millisecond {
		t.Errorf("queue budget: got %s, want the whole 100ms", tm.d)
	}
	clk.advance(30 * time.Millisecond)
	third := waitFor(a, ctx, clk.now().Add(-10*time.Millisecond)) // headers read 10 ms before the handler
	thirdTimer := <-timers.started
	if thirdTimer.d != 90*time.Millisecond {
		t.Errorf("queue budget of a request that arrived 10 ms ago: got %s, want 90ms", thirdTimer.d)
	}
	wantState(t, a, 1, 2)
	// The fourth finds the queue full and is refused at once, on this goroutine.
	if got := a.acquire(ctx, clk.now()); got != queueFull {
		t.Errorf("request over the queue bound: got %v, want queueFull", got)
	}
	// A finished request hands its slot to the oldest waiter.
	a.release()
	if got := <-second; got != admitted {
		t.Errorf("oldest waiter after a release: got %v, want admitted", got)
	}
	wantState(t, a, 1, 1)
	// The other waits out its budget.
	thirdTimer.fire <- clk.now()
	if got := <-third; got != timedOut {
		t.Errorf("waiter past its budget: got %v, want timedOut", got)
	}
	// A waiter whose caller goes away leaves the queue.
	cctx, cancel := context.WithCancel(ctx)
	left := waitFor(a, cctx, clk.now())
	<-timers.started
	cancel()
	if got := <-left; got != gone {
		t.Errorf("waiter whose caller went away: got %v, want gone", got)
	}
	wantState(t, a, 1, 0)
	a.release()
	wantState(t, a, 0, 0)
	if got := a.acquire(ctx, clk.now()); got != admitted {
		t.Errorf("after everything drained: got %v, want admitted", got)
	}
}

func TestAdmissionWithoutQueueRefusesAtOnce(t *testing.T) {
	a, clk, _ := testAdmission(admissionConfig{Slots: 1, MaxQueue: 100, Timeout: 0})
	ctx := context.Background()
	if got := a.acquire(ctx, clk.now()); got != admitted {
		t.Fatalf("first: got %v, want admitted", got)
	}
	if got := a.acquire(ctx, clk.now()); got != queueFull {
		t.Errorf("second, with --queue-timeout 0: got %v, want queueFull at once", got)
	}
}

// TestAdmissionOverloadServesNewestAndSheds walks the queue through CoDel's
// rule on the test's clock: a standing queue (every wait over the target
// for a whole interval) turns the queue LIFO, sheds waiters older than twice
// the target and refuses a share of arrivals at once; calm intervals undo it.
func TestAdmissionOverloadServesNewestAndSheds(t *testing.T) {
	ctx := context.Background()
	const target = 5 * time.Millisecond
	a, clk, timers := testAdmission(admissionConfig{Slots: 1, MaxQueue: 100, Timeout: time.Second, Target: target})
	if got := a.acquire(ctx, clk.now()); got != admitted {
		t.Fatal(got)
	}
	// For 2 intervals every request waits 20 ms for the one slot.
	for range 25 {
		w := waitFor(a, ctx, clk.now())
		<-timers.started
		clk.advance(20 * time.Millisecond)
		a.release()
		if got := <-w; got != admitted {
			t.Fatalf("waiter: got %v, want admitted", got)
		}
		if _, _, over := a.state(); over {
			break
		}
	}
	if _, _, over := a.state(); !over {
		t.Fatal("after intervals of 20 ms waits against a 5 ms target: not overloaded")
	}
	// Arrivals are now partly refused at once; of those admitted to the
	// queue, the newest is served first and the old ones are shed.
	var queued []<-chan admit
	shedAtOnce := 0
	for range 10 {
		got := make(chan admit, 1)
		go func() { got <- a.acquire(ctx, clk.now()) }()
		select {
		case <-timers.started:
			queued = append(queued, got)
		case o := <-got:
			if o != shed {
				t.Fatalf("arrival refused at once: got %v, want shed", o)
			}
			shedAtOnce++
		}
		clk.advance(time.Millisecond)
	}
	if shedAtOnce == 0 || len(queued) < 2 {
		t.Fatalf("of 10 arrivals while overloaded: %d shed at once and %d queued; want some of each", shedAtOnce, len(queued))
	}
	if got := []string{a.retryAfter(shed), a.retryAfter(shed), a.retryAfter(queueFull), a.retryAfter(timedOut)}; got[0] == got[1] || got[0] < "1" || got[0] > "2" || got[1] < "1" || got[1] > "2" || got[2] != "1" || got[3] != "1" {
		t.Errorf("Retry-After of two shed requests, then a queue-full and a timed-out one: got %q, want 1 and 2 in turn, then 1 and 1", got)
	}
	a.release()
	newest := queued[len(queued)-1]
	if got := <-newest; got != admitted {
		t.Errorf("newest waiter: got %v, want admitted first (LIFO while overloaded)", got)
	}
	// The oldest waiters have waited over 2 x target: the next release or
	// arrival sheds them rather than letting them wait out their second.
	clk.advance(2 * target)
	a.release() // all the others have now waited over 2 x target
	for i, w := range queued[:len(queued)-1] {
		if got := <-w; got != shed {
			t.Errorf("waiter %d, older than twice the target: got %v, want shed", i, got)
		}
	}
	wantState(t, a, 0, 0)
	// Calm intervals (admissions without waiting) end the overload and,
	// step by step, the refusals at once.
	for range 100 {
		clk.advance(codelInterval)
		if a.acquire(ctx, clk.now()) == admitted {
			a.release()
		}
		if _, _, over := a.state(); !over && shedShare(a) == 0 {
			return
		}
	}
	t.Errorf("after 100 calm intervals: still shedding (share %.2f)", shedShare(a))
}

func shedShare(a *admission) float64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.shedShare
}

// TestAdmissionCountsWaitBeforeTheHandler shows the overload that a
// timestamp inside the handler cannot see: every request gets a slot at
// once, but each waited 30 ms for a CPU before reaching the handler.
func TestAdmissionCountsWaitBeforeTheHandler(t *testing.T) {
	ctx := context.Background()
	a, clk, _ := testAdmission(admissionConfig{Slots: 100, MaxQueue: 100, Timeout: time.Second, Target: 5 * time.Millisecond})
	a.schedDelay = func(time.Time) time.Duration { return 30 * time.Millisecond }
	shedCount := 0
	for range 100 {
		switch got := a.acquire(ctx, clk.now()); got {
		case admitted:
			a.release()
		case shed:
			shedCount++
		default:
			t.Fatalf("got %v, want admitted or shed", got)
		}
		clk.advance(10 * time.Millisecond)
	}
	if _, _, over := a.state(); !over || shedCount == 0 {
		t.Errorf("with a 30 ms wait for a CPU: got overloaded=%v and %d shed, want overloaded and some shed", over, shedCount)
	}
	// The same requests without that wait are all admitted.
	b, clk2, _ := testAdmission(admissionConfig{Slots: 100, MaxQueue: 100, Timeout: time.Second, Target: 5 * time.Millisecond})
	b.schedDelay = func(time.Time) time.Duration { return 100 * time.Microsecond }
	for range 100 {
		if got := b.acquire(ctx, clk2.now()); got != admitted {
			t.Fatalf("with a 0.1 ms wait for a CPU: got %v, want admitted", got)
		}
		b.release()
		clk2.advance(10 * time.Millisecond)
	}
}

func TestQuantileSince(t *testing.T) {
	h := &metrics.Float64Histogram{
		Counts:  []uint64{10, 50, 30, 10},
		Buckets: []float64{math.Inf(-1), 0.001, 0.010, 0.100, math.Inf(1)},
	}
	for _, tc := range []struct {
		name string
		prev []uint64
		q    float64
		want time.Duration
	}{
		{"median of all", nil, 0.5, 10 * time.Millisecond},
		{"p90 of all", nil, 0.9, 100 * time.Millisecond},
		{"p99 falls in the open bucket", nil, 0.99, 100 * time.Millisecond},
		{"since a previous read", []uint64{10, 50, 0, 0}, 0.5, 100 * time.Millisecond},
		{"nothing new", []uint64{10, 50, 30, 10}, 0.9, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := quantileSince(h, tc.prev, tc.q); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestSchedLatencyReadsTheRuntimeOncePerPeriod(t *testing.T) {
	s := newSchedLatency(0.9, time.Hour)
	now := time.Now()
	s.estimate(now)
	if s.prev == nil {
		t.Fatalf("the runtime has no %s histogram", schedLatencyMetric)
	}
	next := s.next.Load()
	s.estimate(now.Add(time.Minute))
	if s.next.Load() != next {
		t.Error("the histogram was read again within the period")
	}
	s.estimate(now.Add(2 * time.Hour))
	if s.next.Load() == next {
		t.Error("the histogram was not read again after the period")
	}
}
