package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/limit"
	"github.com/energyapi/energyapi/internal/metrics"
)

// planStore is what plans and usage need of the store; both stores have it.
type planStore interface {
	limit.PlanStore
	limit.UsageStore
}

// plansConfig is what serve reads for plans, quotas and usage.
type plansConfig struct {
	file        string
	defaultPlan string
	flush       time.Duration
	block       int
}

func (c *plansConfig) register(fs *flag.FlagSet) {
	fs.StringVar(&c.file, "plans", "", "a JSON file of plans ([{\"name\":…,\"per_second\":…,\"burst\":…,\"per_day\":…,\"max_range_days\":…}]), written to the store at start; plans can also be set with \"energyapi plans set\"")
	fs.StringVar(&c.defaultPlan, "default-plan", "default", "the plan of clients given none; while no such plan exists they meet --rate-limit only")
	fs.DurationVar(&c.flush, "usage-flush", 5*time.Second, "how often usage is written to the store (plan changes reach a running server as soon as they are committed)")
	fs.IntVar(&c.block, "quota-block", limit.DefaultBlock, "calls of a daily quota a replica claims from the store at a time: at most this many per replica and client can go unused for the day if the replica dies")
}

func (c *plansConfig) check() error {
	switch {
	case c.flush < 100*time.Millisecond || c.flush > time.Minute:
		return invalidValue("--usage-flush", c.flush.String(), "want between 100ms and 1m")
	case c.block < 1 || c.block > 1000:
		return invalidValue("--quota-block", strconv.Itoa(c.block), "want between 1 and 1000")
	}
	return nil
}

// newPlans writes the plans file's plans to the store and returns the
// plans the server enforces, which it re-reads while it runs. With no plan
// defined, every answer is as without plans; only usage is counted.
func newPlans(ctx context.Context, c plansConfig, st store, class *api.StoreClass, log *slog.Logger, day func() time.Time, style string, m *metrics.Metrics) (*limit.Plans, error) {
	raw, ok := st.(planStore)
	if !ok {
		return nil, errors.New("the store keeps no plans")
	}
	ps := servingPlanStore{raw, class}
	if c.file != "" {
		f, err := os.Open(c.file)
		if err != nil {
			return nil, fmt.Errorf("--plans: %w", err)
		}
		plans, err := readPlans(f)
		f.Close()
		if err != nil {
			return nil, usagef("--plans %s: %s", c.file, err.Error())
		}
		for _, p := range plans {
			if err := raw.PutPlan(ctx, p); err != nil {
				return nil, err
			}
		}
	}
	pm, err := m.Plans()
	if err != nil {
		return nil, err
	}
	p := limit.NewPlans(limit.PlansConfig{
		Store: ps, Default: c.defaultPlan, Aligned: api.RateLimitStyle(style) == api.PublicRateLimit,
		Block: int64(c.block), IdleRelease: 2 * c.flush, Day: day, Log: log, Record: pm.Record,
	})
	if err := p.Reload(ctx); err != nil {
		return nil, err
	}
	return p, p.ReadUsage(ctx)
}

// servingPlanStore is the plans' store as requests reach it: the one call
// a data request can come to make, a claim of quota when the replica's
// block is used up, goes through the store admission class, as the calls
// of servingStore do. Flushes and reloads run in the background.
type servingPlanStore struct {
	planStore
	class *api.StoreClass
}

func (s servingPlanStore) ClaimQuota(ctx context.Context, clientID, day string, want, limit int64) (granted, claimed int64, err error) {
	err = s.class.Do(ctx, func(ctx context.Context) error {
		granted, claimed, err = s.planStore.ClaimQuota(ctx, clientID, day, want, limit)
		return err
	})
	return granted, claimed, err
}

// planJSON is a plan in a plans file and in "plans" output.
type planJSON struct {
	Name         string `json:"name"`
	PerSecond    int    `json:"per_second"`
	Burst        int    `json:"burst"`
	PerDay       int    `json:"per_day"`
	MaxRangeDays int    `json:"max_range_days"`
}

func (p planJSON) plan() limit.Plan { return limit.Plan(p) }

// readPlans reads a plans file: a JSON array of plans, or {"plans": [...]}.
// It returns an error naming the first bad or repeated plan.
func readPlans(r io.Reader) ([]limit.Plan, error) {
	b, err := io.ReadAll(io.LimitReader(r, 1<<20))
	if err != nil {
		return nil, err
	}
	var ps []planJSON
	if err := json.Unmarshal(b, &ps); err != nil {
		var doc struct {
			Plans []planJSON `json:"plans"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			return nil, fmt.Errorf("want a JSON array of plans or {\"plans\": [...]}: %w", err)
		}
		ps = doc.Plans
	}
	var out []limit.Plan
	for _, p := range ps {
		if err := p.plan().Check(); err != nil {
			return nil, err
		}
		if slices.ContainsFunc(out, func(q limit.Plan) bool { return q.Name == p.Name }) {
			return nil, fmt.Errorf("plan %q is declared twice", p.Name)
		}
		out = append(out, p.plan())
	}
	return out, nil
}
