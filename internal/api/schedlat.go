package api

import (
	"math"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// The runtime's histogram of how long goroutines were runnable before they
// ran, and its count of goroutines runnable now.
const (
	schedLatencyMetric = "/sched/latencies:seconds"
	runnableMetric     = "/sched/goroutines/runnable:goroutines"
)

// runnablePerCPU is how many runnable goroutines per CPU make a queue: below
// it, waits for a CPU come from elsewhere (other processes on the machine,
// a slow test run) and are not this server's backlog, so they are ignored.
const runnablePerCPU = 4

// schedLatency estimates how long a runnable goroutine waits for a CPU now:
// a quantile of the waits the runtime recorded since the previous estimate,
// which is refreshed at most once per period. When the CPU is saturated this
// is where requests queue before any handler runs (every connection's
// goroutine is runnable and the scheduler is the queue), a wait that no
// timestamp taken inside the handler can see. The estimate is 0 unless the
// goroutines runnable at the refresh number runnablePerCPU per CPU or more.
type schedLatency struct {
	q      float64
	period time.Duration

	next atomic.Int64 // UnixNano of the next refresh
	est  atomic.Int64 // the estimate, in nanoseconds

	mu     sync.Mutex // one refresh at a time
	sample []metrics.Sample
	prev   []uint64
}

func newSchedLatency(q float64, period time.Duration) *schedLatency {
	return &schedLatency{q: q, period: period, sample: []metrics.Sample{{Name: schedLatencyMetric}, {Name: runnableMetric}}}
}

// estimate returns the current estimate, refreshing it first if it is due.
func (s *schedLatency) estimate(now time.Time) time.Duration {
	if now.UnixNano() < s.next.Load() || !s.mu.TryLock() {
		return time.Duration(s.est.Load())
	}
	defer s.mu.Unlock()
	s.next.Store(now.Add(s.period).UnixNano())
	metrics.Read(s.sample)
	if s.sample[0].Value.Kind() != metrics.KindFloat64Histogram {
		return 0 // a runtime without the metric: no estimate
	}
	h := s.sample[0].Value.Float64Histogram()
	est := quantileSince(h, s.prev, s.q)
	s.prev = append(s.prev[:0], h.Counts...)
	if s.sample[1].Value.Kind() == metrics.KindUint64 && s.sample[1].Value.Uint64() < uint64(runnablePerCPU*runtime.GOMAXPROCS(0)) {
		est = 0
	}
	s.est.Store(int64(est))
	return est
}

// quantileSince returns the q-quantile of the observations h gained since
// prev (nil: all of them), as the upper bound of the bucket it falls in; 0
// when there are none.
func quantileSince(h *metrics.Float64Histogram, prev []uint64, q float64) time.Duration {
	var total uint64
	delta := make([]uint64, len(h.Counts))
	for i, c := range h.Counts {
		if i < len(prev) {
			c -= prev[i]
		}
		delta[i] = c
		total += c
	}
	if total == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(total)))
	var seen uint64
	for i, c := range delta {
		seen += c
		if seen >= rank {
			upper := h.Buckets[i+1]
			if math.IsInf(upper, 1) {
				upper = h.Buckets[i]
			}
			return time.Duration(upper * float64(time.Second))
		}
	}
	return 0
}
