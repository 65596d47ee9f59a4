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

// UsageDays is how many days of usage, today included, Plans keeps in
// memory from the store and Usage reports at most.
const UsageDays = 30

// pastReread is how often the stored usage of the days before today is
// read again: only a flush late across midnight changes it.
const pastReread = time.Hour

// storedUsage is the usage the store held when last read, in memory so that
// Usage never reads the store on the request path: every client's rows of
// the last UsageDays days, by client.
type storedUsage struct {
	today    string
	pastRead time.Time // when the days before today were read
	byClient map[string][]UsageRow
}

// ReadUsage reads the stored usage into memory, as every Flush does: a
// server calls it once at start, before it answers.
func (p *Plans) ReadUsage(ctx context.Context) error {
	p.flushing.Lock()
	defer p.flushing.Unlock()
	return p.readUsage(ctx)
}

// readUsage reads the stored usage into memory: today's rows every time
// (a flush calls it), the days before today when the day has changed or
// pastReread has passed. p.flushing is held for writing, so that a
// reader of the book and the unflushed calls sees each call once.
func (p *Plans) readUsage(ctx context.Context) error {
	now := p.cfg.Day().UTC()
	today := now.Format(DayLayout)
	old := p.stored.Load()
	from := today
	if old == nil || old.today != today || p.cfg.Now().Sub(old.pastRead) >= pastReread {
		from = now.AddDate(0, 0, 1-UsageDays).Format(DayLayout)
	}
	rows, err := p.cfg.Store.Usage(ctx, "", from, today)
	if err != nil {
		return err
	}
	next := &storedUsage{today: today, pastRead: p.cfg.Now(), byClient: map[string][]UsageRow{}}
	if from == today { // keep the days before today as read before
		next.pastRead = old.pastRead
		for id, rs := range old.byClient {
			for _, r := range rs {
				if r.Day < today {
					next.byClient[id] = append(next.byClient[id], r)
				}
			}
		}
	}
	for _, r := range rows {
		next.byClient[r.ClientID] = append(next.byClient[r.ClientID], r)
	}
	p.stored.Store(next)
	return nil
}

// Usage returns the client's usage over the last days (at most UsageDays,
// today included), from memory: the stored usage as this replica last read
// it (at its last flush) plus what it has not flushed yet. Another
// replica's calls show once it has flushed them and this one has read
// them, within two flush intervals.
func (p *Plans) Usage(ctx context.Context, clientID string, days int) (ClientUsage, error) {
	days = min(days, UsageDays)
	now := p.cfg.Day().UTC()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	from := today.AddDate(0, 0, 1-days).Format(DayLayout)
	u := ClientUsage{ClientID: clientID, Today: today.Format(DayLayout), Limit: -1, Remaining: -1, Reset: today.AddDate(0, 0, 1)}
	p.flushing.RLock()
	var rows []UsageRow
	if st := p.stored.Load(); st != nil {
		rows = append(rows, st.byClient[clientID]...)
	}
	rows = append(rows, p.Pending(clientID)...)
	p.flushing.RUnlock()
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
			p.remaining(&u, int64(pl.PerDay))
		}
	}
	return u, nil
}

// remaining sets u's quota and what is left of it: the quota less the
// calls made, or less the calls claimed by any replica as this replica's
// last claim saw them, whichever is more (the sandbox can use up a quota
// without calls), counting this replica's unused claims as left.
func (p *Plans) remaining(u *ClientUsage, limit int64) {
	var claimed int64
	p.mu.Lock()
	if b := p.blocks[blockKey{u.ClientID, u.Today}]; b != nil {
		claimed = b.claimed - b.left
	}
	p.mu.Unlock()
	u.Limit = limit
	u.Remaining = max(0, limit-max(claimed, u.Calls))
}
