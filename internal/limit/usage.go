package limit

import (
	"context"
	"sort"
	"time"
)

// ClientUsage is a client's usage as it sees it: today's calls against its
// plan's daily quota, today's calls by dataset, and the calls of each of
// the last days, newest first.
type ClientUsage struct {
	ClientID string
	Plan     string // "" when no plan applies
	Today    string // yyyy-mm-dd
	Calls    int64  // today's
	// Limit is the daily quota and Remaining what is left of it; both -1
	// when the plan has none.
	Limit, Remaining int64
	Reset            time.Time
	Datasets         []UsageRow // today's, by dataset name
	Days             []UsageRow // Dataset empty
}

// Usage returns the client's usage over the last days (today included):
// what the store holds plus what this replica has not flushed yet. Another
// replica's unflushed calls show once it flushes (within its interval).
func (p *Plans) Usage(ctx context.Context, clientID string, days int) (ClientUsage, error) {
	now := p.cfg.Day().UTC()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	from := today.AddDate(0, 0, 1-days).Format(DayLayout)
	u := ClientUsage{ClientID: clientID, Today: today.Format(DayLayout), Limit: -1, Remaining: -1, Reset: today.AddDate(0, 0, 1)}
	p.flushing.RLock()
	rows, err := p.cfg.Store.Usage(ctx, clientID, from, u.Today)
	if err == nil {
		rows = append(rows, p.Pending(clientID)...)
	}
	p.flushing.RUnlock()
	if err != nil {
		return ClientUsage{}, err
	}
	perDay := map[string]int64{}
	perDataset := map[string]int64{}
	for _, r := range rows {
		if r.Day < from || r.Day > u.Today {
			continue
		}
		perDay[r.Day] += r.Calls
		if r.Day == u.Today {
			perDataset[r.Dataset] += r.Calls
		}
	}
	u.Calls = perDay[u.Today]
	for d := range days {
		day := today.AddDate(0, 0, -d).Format(DayLayout)
		u.Days = append(u.Days, UsageRow{ClientID: clientID, Day: day, Calls: perDay[day]})
	}
	for name, n := range perDataset {
		u.Datasets = append(u.Datasets, UsageRow{ClientID: clientID, Day: u.Today, Dataset: name, Calls: n})
	}
	sort.Slice(u.Datasets, func(i, j int) bool { return u.Datasets[i].Dataset < u.Datasets[j].Dataset })
	if pl, ok := p.PlanOf(clientID); ok {
		u.Plan = pl.Name
		if pl.PerDay > 0 {
			if err := p.remaining(ctx, &u, int64(pl.PerDay)); err != nil {
				return ClientUsage{}, err
			}
		}
	}
	return u, nil
}

// remaining sets u's quota and what is left of it: the quota less the
// calls made or claimed by any replica, whichever is more (the sandbox
// can use up a quota without calls), counting this replica's unused
// claims as left.
func (p *Plans) remaining(ctx context.Context, u *ClientUsage, limit int64) error {
	claimed, err := p.cfg.Store.QuotaClaimed(ctx, u.ClientID, u.Today)
	if err != nil {
		return err
	}
	p.mu.Lock()
	if b := p.blocks[blockKey{u.ClientID, u.Today}]; b != nil {
		claimed -= b.left
	}
	p.mu.Unlock()
	u.Limit = limit
	u.Remaining = max(0, limit-max(claimed, u.Calls))
	return nil
}
