package limit

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// DayLayout is how a UTC day is written in usage and quotas.
const DayLayout = "2006-01-02"

// Refusal says which limit refused a call.
type Refusal int

// The answers of Plans.Admit.
const (
	Admitted Refusal = iota
	OverQps          // the per-second limit
	OverRate         // the daily quota
)

// String names r for metrics labels.
func (r Refusal) String() string {
	switch r {
	case OverQps:
		return "over_qps"
	case OverRate:
		return "over_rate"
	}
	return "admitted"
}

// PlansConfig configures Plans.
type PlansConfig struct {
	Store interface {
		PlanStore
		UsageStore
	}
	// Default is the plan of clients that have none. When it names no
	// plan, such clients have no plan (Decision.HasPlan is false).
	Default string
	// Aligned counts the per-second limit in windows aligned to clock
	// seconds, as the public gateway does; otherwise it is a token bucket
	// of Plan.PerSecond a second and Plan.Burst at once.
	Aligned bool
	// Block is how many calls of a daily quota a replica claims from the
	// store at a time; 0 means DefaultBlock.
	Block int64
	// IdleRelease is how long a replica keeps claimed calls of a client
	// that makes none before it gives them back; 0 means DefaultIdleRelease.
	IdleRelease time.Duration
	// Now times the per-second limit; Day dates the daily quota and usage
	// (the sandbox clock, when one is set). Both default to time.Now.
	Now, Day func() time.Time
	Log      *slog.Logger
	// Record, when set, counts each decision by plan (metrics).
	Record func(plan string, r Refusal)
}

// Defaults of PlansConfig.
const (
	DefaultBlock       = 10
	DefaultIdleRelease = 10 * time.Second
)

// Decision is what Plans.Admit decided about one call.
type Decision struct {
	// HasPlan is false when no plan applies to the client: the server's
	// plain rate limit (if any) decides instead.
	HasPlan bool
	Plan    Plan
	Refused Refusal
	// RetryAfter is when a refused call may be tried again.
	RetryAfter time.Duration
	// SecondLeft is the calls left of the per-second limit (-1: none), and
	// SecondReset the time until it has one again (0 while it has one).
	SecondLeft  int
	SecondReset time.Duration
	// DayLeft is the calls left of the daily quota (-1: none, or not known
	// here: a call refused by the per-second limit before this replica
	// claimed any of the day's quota); Reset is when the quota starts
	// again (the next 00:00 UTC on the Day clock).
	DayLeft int64
	Reset   time.Time
}

// Plans decides, in memory, whether a client's call is within its plan,
// counts the calls made, and writes them to the store in aggregates
// (Flush). A daily quota is shared by every replica through the store:
// each replica claims Block calls at a time and admits only calls it has
// claimed, so all replicas together never admit more than the quota. Its
// methods are safe for concurrent use.
type Plans struct {
	cfg  PlansConfig
	book atomic.Pointer[book]
	// flushing is held for writing while a flush moves calls from memory
	// to the store, so that a reader of both (Usage) sees each call once.
	flushing sync.RWMutex
	mu       sync.Mutex
	usage    map[UsageRow]int64 // unflushed calls, by row without Calls
	stored   atomic.Pointer[storedUsage]
	blocks   map[blockKey]*block
	buckets  map[string]*Limiter // per plan, standard style
	seconds  map[string]second   // per client, aligned style
}

// book is the plans and assignments read from the store, replaced whole.
type book struct {
	plans   map[string]Plan
	clients map[string]string
}

type blockKey struct{ client, day string }

// block is a replica's share of one client's quota for one day.
type block struct {
	claiming  sync.Mutex // one claim from the store at a time
	left      int64      // claimed here and unused
	claimed   int64      // claimed in all, as the store said at the last claim
	perDay    int64      // the quota left was claimed under
	exhausted time.Time  // when the store last had none left; zero: not seen
	lastUse   time.Time
}

// second is a client's calls in one aligned clock second.
type second struct {
	unix int64
	n    int
}

// NewPlans returns Plans reading plans from cfg.Store; call Reload before use.
func NewPlans(cfg PlansConfig) *Plans {
	if cfg.Block <= 0 {
		cfg.Block = DefaultBlock
	}
	if cfg.IdleRelease <= 0 {
		cfg.IdleRelease = DefaultIdleRelease
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Day == nil {
		cfg.Day = cfg.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	p := &Plans{cfg: cfg, usage: map[UsageRow]int64{}, blocks: map[blockKey]*block{}, buckets: map[string]*Limiter{}, seconds: map[string]second{}}
	p.book.Store(&book{})
	return p
}

// Reload reads the plans and their clients from the store.
func (p *Plans) Reload(ctx context.Context) error {
	plans, err := p.cfg.Store.Plans(ctx)
	if err != nil {
		return err
	}
	clients, err := p.cfg.Store.ClientPlans(ctx)
	if err != nil {
		return err
	}
	b := &book{plans: map[string]Plan{}, clients: clients}
	for _, pl := range plans {
		b.plans[pl.Name] = pl
	}
	old := p.book.Swap(b)
	p.mu.Lock()
	defer p.mu.Unlock()
	for name, pl := range b.plans {
		if was, ok := old.plans[name]; !ok || was != pl {
			delete(p.buckets, name) // rebuilt with the new limits at the next call
		}
	}
	return nil
}

// Empty reports whether no plan is defined.
func (p *Plans) Empty() bool { return len(p.book.Load().plans) == 0 }

// Default returns the plan of clients given none, and false while no plan
// of that name exists (they meet no plan).
func (p *Plans) Default() (Plan, bool) {
	pl, ok := p.book.Load().plans[p.cfg.Default]
	return pl, ok
}

// PlanOf returns the plan of a client, and false if none applies.
func (p *Plans) PlanOf(clientID string) (Plan, bool) {
	b := p.book.Load()
	name, ok := b.clients[clientID]
	if !ok {
		name = p.cfg.Default
	}
	pl, ok := b.plans[name]
	return pl, ok
}

// Pace applies only the per-second limit of the client's plan to a call
// that is not a data call (its own usage): nothing is counted, and the
// daily quota is neither used nor needed. A client without a plan, or
// whose plan has no per-second limit, is left to the caller.
func (p *Plans) Pace(clientID string) Decision {
	pl, ok := p.PlanOf(clientID)
	if !ok || pl.PerSecond == 0 {
		return Decision{HasPlan: ok, Plan: pl, SecondLeft: -1, DayLeft: -1}
	}
	d := Decision{HasPlan: true, Plan: Plan{Name: pl.Name, PerSecond: pl.PerSecond, Burst: pl.Burst}, DayLeft: -1}
	d.SecondLeft, d.SecondReset, ok = p.perSecond(pl, clientID)
	if !ok {
		d.Refused, d.RetryAfter = OverQps, d.SecondReset
	}
	return d
}

// Admit decides whether the client may make a call to dataset now, and
// counts it in usage if so. A client without a plan is left to the
// caller's other limits, which Count its calls. It turns to the store only when the client's share of
// a daily quota on this replica is used up (once every Block calls).
func (p *Plans) Admit(ctx context.Context, clientID, dataset string) Decision {
	day := p.cfg.Day().UTC()
	dayKey := day.Format(DayLayout)
	pl, ok := p.PlanOf(clientID)
	if !ok {
		return Decision{}
	}
	d := Decision{HasPlan: true, Plan: pl, SecondLeft: -1, DayLeft: -1}
	d.Reset = time.Date(day.Year(), day.Month(), day.Day()+1, 0, 0, 0, 0, time.UTC)
	if pl.PerSecond > 0 {
		d.SecondLeft, d.SecondReset, ok = p.perSecond(pl, clientID)
		if !ok {
			// The day's quota is as it was: say what is left of it,
			// not that it is used up.
			d.Refused, d.RetryAfter = OverQps, d.SecondReset
			if pl.PerDay > 0 {
				d.DayLeft = p.dayLeft(pl, blockKey{clientID, dayKey})
			}
			p.record(pl.Name, d.Refused)
			return d
		}
	}
	if pl.PerDay > 0 {
		if d.DayLeft, ok = p.takeDaily(ctx, pl, blockKey{clientID, dayKey}); !ok {
			d.Refused, d.RetryAfter = OverRate, d.Reset.Sub(day)
			p.record(pl.Name, d.Refused)
			return d
		}
	}
	p.Count(clientID, dataset)
	p.record(pl.Name, Admitted)
	return d
}

// Count counts a call the client made to dataset in usage, to be flushed.
func (p *Plans) Count(clientID, dataset string) {
	day := p.cfg.Day().UTC().Format(DayLayout)
	p.mu.Lock()
	p.usage[UsageRow{ClientID: clientID, Day: day, Dataset: dataset}]++
	p.mu.Unlock()
}

func (p *Plans) record(plan string, r Refusal) {
	if p.cfg.Record != nil {
		p.cfg.Record(plan, r)
	}
}

// perSecond applies pl's per-second limit to a client's call.
func (p *Plans) perSecond(pl Plan, clientID string) (left int, retry time.Duration, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.cfg.Aligned {
		l := p.buckets[pl.Name]
		if l == nil {
			l = NewLimiter(Rate{N: pl.PerSecond, Per: time.Second}, pl.burst(), 1<<20, p.cfg.Now)
			p.buckets[pl.Name] = l
		}
		return l.Take(clientID)
	}
	now := p.cfg.Now()
	s := p.seconds[clientID]
	if s.unix != now.Unix() {
		if len(p.seconds) > 1<<16 {
			clear(p.seconds) // every entry but this second's is stale anyway
		}
		s = second{unix: now.Unix()}
	}
	next := time.Unix(s.unix+1, 0).Sub(now)
	if s.n >= pl.PerSecond {
		return 0, next, false
	}
	s.n++
	p.seconds[clientID] = s
	if s.n < pl.PerSecond {
		next = 0
	}
	return pl.PerSecond - s.n, next, true
}
