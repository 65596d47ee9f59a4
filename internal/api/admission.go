package api

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// codelInterval is how long the shortest queueing delay must stay above the
// target before the queue counts as standing (CoDel's interval).
const codelInterval = 100 * time.Millisecond

// While the queue stands, the share of arriving requests refused at once
// closes shedGrow of its distance to maxShed per interval (fast: a burst is
// met within a few intervals), and shrinks by shedStep per interval after
// (slowly: clients told to come back do not all find the door open at once).
const (
	shedGrow = 0.4
	shedStep = 0.1
	maxShed  = 0.5
)

// admissionConfig bounds the requests served at once and those waiting.
type admissionConfig struct {
	// Slots is how many requests are served at once; 0 for no bound.
	Slots int
	// MaxQueue is how many requests may wait for a slot; more are refused at once.
	MaxQueue int
	// Timeout is the longest a request waits for a slot; 0: no waiting at all.
	Timeout time.Duration
	// Target is the queueing delay tolerated as a standing minimum: when the
	// shortest wait over codelInterval exceeds it, the server is overloaded,
	// serves the newest waiters first and refuses those that have waited
	// more than twice the target. 0 turns that adaptation off.
	Target time.Duration
}

// admission is a counting semaphore with a bounded wait queue, which is
// FIFO while the server keeps up and turns LIFO, shedding its oldest
// waiters, when CoDel's rule says a queue is standing (the adaptive LIFO +
// CoDel combination of Facebook's "Fail at Scale"). Waiting requests are
// parked goroutines, not runnable ones, and a request that cannot be served
// soon enough is refused while refusing is still cheap.
//
// A wait for a slot is not the only queue: when the CPU is saturated, a
// request waits for a CPU before it reaches any handler, and with
// connections enough that wait dwarfs the one for a slot. schedDelay
// estimates it (see schedLatency); it counts in every wait CoDel judges, and
// while the server is overloaded a share of arriving requests is refused at
// once, so that their clients back off and the CPU goes to the rest.
type admission struct {
	cfg      admissionConfig
	now      func() time.Time
	newTimer func(time.Duration) (<-chan time.Time, func() bool)
	// schedDelay estimates the wait for a CPU that a request met before it
	// reached the outermost handler; nil for none.
	schedDelay func(now time.Time) time.Duration

	mu      sync.Mutex
	running int
	waiting fifo[waiter, *waiter] // oldest at head
	queued  int
	// CoDel state.
	intervalEnd time.Time
	minDelay    time.Duration // shortest wait granted since the interval began
	overloaded  bool
	// While the queue stands, a growing share of arriving requests is
	// refused at once, without waiting; credit spreads the refusals evenly.
	shedShare, credit float64

	shedCount atomic.Uint64 // requests shed so far, to spread their Retry-After
}

// waiter is a request waiting for a slot.
type waiter struct {
	arrived time.Time
	links[waiter]
	ready   chan struct{} // closed when the outcome is set
	outcome admit         // set under admission.mu before ready closes
}

// admit is the outcome of asking for a slot.
type admit int

const (
	waiting   admit = iota
	admitted        // the request holds a slot and must release it
	queueFull       // refused at once: the queue was full
	timedOut        // refused: no slot within the queue timeout
	shed            // refused: overloaded and waited longer than the slough time
	gone            // the caller went away while waiting
)

func realTimer(d time.Duration) (<-chan time.Time, func() bool) {
	t := time.NewTimer(d)
	return t.C, t.Stop
}

func newAdmission(cfg admissionConfig, now func() time.Time) *admission {
	if cfg.Timeout <= 0 {
		cfg.MaxQueue = 0
	}
	return &admission{cfg: cfg, now: now, newTimer: realTimer}
}

// acquire asks for a slot for a request that arrived (reached the outermost
// handler) at arrived. It returns admitted, after which release must be
// called, or why the request was refused.
func (a *admission) acquire(ctx context.Context, arrived time.Time) admit {
	if a.cfg.Slots <= 0 {
		return admitted
	}
	now := a.now()
	var sched time.Duration
	if a.schedDelay != nil {
		sched = a.schedDelay(now)
	}
	a.mu.Lock()
	a.sweepLocked(now)
	if a.shedShare > 0 {
		if a.credit += a.shedShare; a.credit >= 1 {
			a.credit--
			a.mu.Unlock()
			return shed
		}
	}
	if a.running < a.cfg.Slots && a.waiting.head == nil {
		a.running++
		a.observeLocked(now, now.Sub(arrived)+sched)
		a.mu.Unlock()
		return admitted
	}
	if a.queued >= a.cfg.MaxQueue {
		a.mu.Unlock()
		return queueFull
	}
	w := &waiter{arrived: arrived.Add(-sched), ready: make(chan struct{})}
	a.pushLocked(w)
	a.mu.Unlock()

	expired, stop := a.newTimer(a.cfg.Timeout - now.Sub(w.arrived))
	defer stop()
	select {
	case <-w.ready:
		return w.outcome
	case <-expired:
		return a.leave(w, timedOut)
	case <-ctx.Done():
		return a.leave(w, gone)
	}
}

// leave takes w out of the queue with outcome o, unless it was granted a
// slot or refused meanwhile, in which case that outcome stands.
func (a *admission) leave(w *waiter, o admit) admit {
	a.mu.Lock()
	defer a.mu.Unlock()
	if w.outcome != waiting {
		return w.outcome
	}
	a.removeLocked(w)
	w.outcome = o
	close(w.ready)
	return o
}

// release gives the slot to a waiter, the oldest while the server keeps up
// and the newest while it is overloaded, or frees it.
func (a *admission) release() {
	if a.cfg.Slots <= 0 {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.overloaded && a.waiting.head == nil {
		// Nothing to sweep and no one to pass the slot to: no need to read
		// the clock, which costs more than the rest of a release.
		a.running--
		return
	}
	now := a.now()
	a.sweepLocked(now)
	w := a.waiting.head
	if a.overloaded {
		w = a.waiting.tail
	}
	if w == nil {
		a.running--
		return
	}
	a.removeLocked(w)
	a.observeLocked(now, now.Sub(w.arrived))
	w.outcome = admitted // the slot passes to w: running stays the same
	close(w.ready)
}

// sweepLocked refuses, while overloaded, the waiters that have waited longer
// than twice the target: under LIFO they would wait out their whole timeout.
func (a *admission) sweepLocked(now time.Time) {
	if !a.overloaded {
		return
	}
	slough := 2 * a.cfg.Target
	for w := a.waiting.head; w != nil && now.Sub(w.arrived) > slough; w = a.waiting.head {
		a.removeLocked(w)
		w.outcome = shed
		close(w.ready)
	}
}

// observeLocked is CoDel's rule, as folly's Codel applies it: at the end of
// each interval the server is overloaded if the shortest queueing delay of
// the requests admitted during it exceeded the target. Each overloaded
// interval raises the share of arrivals refused at once (see shedGrow);
// each other interval lowers it.
func (a *admission) observeLocked(now time.Time, delay time.Duration) {
	if a.cfg.Target <= 0 {
		return
	}
	if !now.Before(a.intervalEnd) {
		// Intervals without any admission since the last one ended had no
		// standing queue: they count as calm.
		ended := 1 + int(now.Sub(a.intervalEnd)/codelInterval)
		a.overloaded = !a.intervalEnd.IsZero() && ended == 1 && a.minDelay > a.cfg.Target
		if a.overloaded {
			a.shedShare += (maxShed - a.shedShare) * shedGrow
		} else {
			a.shedShare = max(a.shedShare-shedStep*float64(ended), 0)
		}
		a.intervalEnd = now.Add(codelInterval)
		a.minDelay = delay
		return
	}
	a.minDelay = min(a.minDelay, delay)
}

func (a *admission) pushLocked(w *waiter) {
	a.waiting.push(w)
	a.queued++
}

func (a *admission) removeLocked(w *waiter) {
	a.waiting.remove(w)
	a.queued--
}

// retryAfter is the Retry-After of a refusal: 1 s, except for requests shed
// while overloaded, which are told 1 or 2 s in turn. Clients that all honour
// the same wait return together, and a server that shed a wave would meet it
// again one second later; spread over two seconds, the returning clients
// find room.
func (a *admission) retryAfter(o admit) string {
	if o != shed {
		return "1"
	}
	return strconv.Itoa(1 + int(a.shedCount.Add(1)%2))
}

// state reports, for tests and metrics, the requests being served and
// waiting, and whether the server counts as overloaded.
func (a *admission) state() (running, queued int, overloaded bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.running, a.queued, a.overloaded
}
