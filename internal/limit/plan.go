package limit

import (
	"context"
	"regexp"

	"github.com/energyapi/energyapi/internal/energy"
)

// Plan is a named allowance that clients are given: calls per second (and a
// burst above it), calls per UTC day and the longest date range of one call.
// A zero limit is "no limit".
type Plan struct {
	Name         string
	PerSecond    int
	Burst        int
	PerDay       int
	MaxRangeDays int
}

// planName is what a plan may be called: it appears in metrics labels,
// headers and URLs, so it keeps to letters, digits, '-', '_' and '.'.
var planName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// Check returns an error with code Invalid if p cannot be a plan: a bad
// name or a negative limit.
func (p Plan) Check() error {
	switch {
	case !planName.MatchString(p.Name):
		return energy.Errorf(energy.Invalid, "plan name %q: want 1 to 64 letters, digits, '.', '_' or '-'", p.Name)
	case p.PerSecond < 0 || p.Burst < 0 || p.PerDay < 0 || p.MaxRangeDays < 0:
		return energy.Errorf(energy.Invalid, "plan %q: limits are 0 (none) or more", p.Name)
	}
	return nil
}

// burst is the calls a client of p may make at once in the token bucket.
func (p Plan) burst() int { return max(p.Burst, p.PerSecond, 1) }

// UsageRow is the calls one client made to one dataset on one UTC day.
type UsageRow struct {
	ClientID string
	Day      string // yyyy-mm-dd
	Dataset  string
	Calls    int64
}

// PlanStore keeps plans and which client has which. Both stores implement it.
type PlanStore interface {
	// PutPlan creates or replaces the plan of p.Name.
	PutPlan(ctx context.Context, p Plan) error
	// Plans returns every plan, by name.
	Plans(ctx context.Context) ([]Plan, error)
	// DeletePlan deletes a plan; its clients go back to the default plan.
	// It returns an error with code NotFound if there is no such plan.
	DeletePlan(ctx context.Context, name string) error
	// SetClientPlan gives a client a plan, or the default plan for "". It
	// returns an error with code NotFound if the client or plan does not exist.
	SetClientPlan(ctx context.Context, clientID, plan string) error
	// ClientPlans returns the plan of every client that has one.
	ClientPlans(ctx context.Context) (map[string]string, error)
}

// UsageStore keeps usage aggregates and the daily quotas' counters.
type UsageStore interface {
	// AddUsage adds each row's calls to the stored aggregate, in one transaction.
	AddUsage(ctx context.Context, rows []UsageRow) error
	// Usage returns the aggregates of days in [from, to] (yyyy-mm-dd) of
	// one client, or of every client for "", by client, day and dataset.
	Usage(ctx context.Context, clientID, from, to string) ([]UsageRow, error)
	// ClaimQuota atomically takes up to want calls of a client's quota of
	// limit calls on day, and returns how many it took (0 when none are left)
	// and how many are claimed in all now.
	ClaimQuota(ctx context.Context, clientID, day string, want, limit int64) (granted, claimed int64, err error)
	// ReleaseQuota gives back n claimed and unused calls.
	ReleaseQuota(ctx context.Context, clientID, day string, n int64) error
	// QuotaClaimed returns the calls claimed of a client's quota on day.
	QuotaClaimed(ctx context.Context, clientID, day string) (int64, error)
}
