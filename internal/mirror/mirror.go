package mirror

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net/url"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/poll"
	"github.com/energyapi/energyapi/internal/store"
)

// Upstream is the deployment mirrored: one GET of a path with its query,
// answered with the body or an error (client.Client's Fetch, without
// retries of its own: every call is the mirror's to count).
type Upstream interface {
	Fetch(ctx context.Context, path string, query url.Values) ([]byte, error)
}

// Store is what a mirror keeps its copy and its bookkeeping in: the SQLite
// and PostgreSQL stores.
type Store = store.MirrorBook

// Config is a mirror's setting.
type Config struct {
	Upstream Upstream
	// UpstreamURL names the upstream in the store and the log.
	UpstreamURL string
	Catalog     *dataset.Catalog
	Store       Store
	Plan        PlanOptions
	// LastIsToday moves Plan.Last to the current day as days pass.
	LastIsToday bool
	// PerSecond and PerDay are the upstream's limits on calls (0: none);
	// the day is the UTC day, as the public gateway's.
	PerSecond, PerDay int64
	// Refresh is how often a window whose records may still change
	// (Settling after its last day) is fetched again.
	Refresh time.Duration
	// Settling is how long after a day ends a dataset's records of it may
	// still change upstream.
	Settling func(d *dataset.Dataset) time.Duration
	// FetchTimeout bounds one call; the lease of a window is longer.
	FetchTimeout time.Duration
	// ID names this mirror among those of the store: one process at a time.
	ID   string
	Host string
	PID  int64
	// Once stops the mirror when every window is fetched and none is due,
	// rather than waiting to refresh.
	Once bool
	// Now is the clock of days (the daily quota, refreshes, today);
	// Sleep waits, returning early with ctx's error. Seconds are timed by
	// the real clock, as the upstream times its per-second limit.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// Gone reports whether a process of this host has ended.
	Gone func(pid int64) bool
	Log  *slog.Logger
	// Progress, if set, is called after every fetch.
	Progress func(Progress)
}

// Progress is where a mirror stands.
type Progress struct {
	Windows, Fetched int
	// CallsToday are the calls spent against the day's quota; DaysLeft
	// how many days of the quota the windows never fetched need.
	CallsToday int64
	DaysLeft   int
	// Last is the fetch just made.
	Last Event
}

// Event is one fetch's outcome.
type Event struct {
	Key     string
	Records int64
	Changed bool
	Err     error
}

// Mirror runs a mirror of one upstream into one store.
type Mirror struct {
	cfg  Config
	self store.MirrorInstance
}

// New returns a mirror of cfg; Run starts it.
func New(cfg Config) *Mirror {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleep
	}
	if cfg.FetchTimeout <= 0 {
		cfg.FetchTimeout = time.Minute
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Gone == nil {
		cfg.Gone = func(int64) bool { return false }
	}
	return &Mirror{cfg: cfg, self: store.MirrorInstance{ID: cfg.ID, Host: cfg.Host, PID: cfg.PID, Upstream: cfg.UpstreamURL, PerSecond: cfg.PerSecond, PerDay: cfg.PerDay}}
}

// heartbeat is how often a running mirror says so in the store; a mirror
// silent for staleAfter is taken to have ended.
const (
	heartbeat  = 3 * time.Second
	staleAfter = 15 * time.Second
)

// Run mirrors until ctx ends, or with Once until the fill is complete. It
// returns an error if the store fails, the upstream refuses the
// credentials, or another process runs under the same ID.
func (m *Mirror) Run(ctx context.Context) error {
	m.self.Heartbeat = m.cfg.Now()
	if err := m.cfg.Store.StartMirrorInstance(ctx, m.self, staleAfter, m.cfg.Gone); err != nil {
		return err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go m.beat(ctx, cancel)
	for {
		done, err := m.round(ctx)
		if err != nil {
			if c := context.Cause(ctx); c != nil && !errors.Is(c, context.Canceled) {
				return c
			}
			return err
		}
		if done {
			return nil
		}
	}
}

// beat keeps the instance's heartbeat, and cancels the run if another
// process has taken its ID.
func (m *Mirror) beat(ctx context.Context, cancel context.CancelCauseFunc) {
	poll.Every(ctx, heartbeat, nil, func(ctx context.Context) {
		in := m.self
		in.Heartbeat = m.cfg.Now()
		if err := m.cfg.Store.HeartbeatMirrorInstance(ctx, in); errors.Is(err, store.ErrMirrorRunning) {
			cancel(err)
		}
	})
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// jitter returns d plus up to a quarter of it, at most 30 s, so that
// mirrors that met the same refusal do not come back at the same moment,
// nor one that waits for the day's reset long after it.
func jitter(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return d + rand.N(min(d/4, 30*time.Second)+1)
}
