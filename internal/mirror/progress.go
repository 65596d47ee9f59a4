package mirror

import (
	"context"
	"time"

	"github.com/energyapi/energyapi/internal/store"
)

// announce states the round's plan before it starts: how many windows,
// how many of them are fetched already, and how many days of the quota the
// rest take, with the first few to fetch.
func (m *Mirror) announce(ctx context.Context, ws []Window) {
	states, err := m.cfg.Store.MirrorWindows(ctx)
	if err != nil {
		return
	}
	fetched := map[string]bool{}
	for _, s := range states {
		if s.Fetches > 0 {
			fetched[s.Key] = true
		}
	}
	var todo []string
	for _, w := range ws {
		if !fetched[w.Key] {
			todo = append(todo, w.Key)
		}
	}
	datasets := map[string]bool{}
	for _, w := range ws {
		datasets[w.Dataset.Name] = true
	}
	m.cfg.Log.Info("mirror: plan", "upstream", m.cfg.UpstreamURL, "datasets", len(datasets), "windows", len(ws),
		"fetched", len(ws)-len(todo), "to_fetch", len(todo), "days_at_quota", daysAt(len(todo), m.cfg.PerDay),
		"first", todo[:min(len(todo), 3)])
}

// daysAt returns the days n calls take at perDay a day (0: no daily limit).
func daysAt(n int, perDay int64) int {
	if perDay <= 0 || n == 0 {
		return 0
	}
	return int((int64(n) + perDay - 1) / perDay)
}

// report tells Progress, and the log every tenth fetch, where the mirror
// stands after a fetch.
func (m *Mirror) report(ctx context.Context, states []store.MirrorWindow, r *runState, fetched int) {
	p := Progress{Windows: len(r.plan), Fetched: fetched, Last: r.last}
	if r.last.Err == nil && !containsFetched(states, r.last.Key) {
		p.Fetched++ // the states were read before this fetch
	}
	p.CallsToday, _ = m.cfg.Store.MirrorCalls(ctx, m.cfg.Now().UTC().Format(time.DateOnly))
	p.DaysLeft = daysAt(p.Windows-p.Fetched, m.cfg.PerDay)
	if m.cfg.Progress != nil {
		m.cfg.Progress(p)
	}
	r.reports++
	if r.reports%10 == 1 || p.Fetched == p.Windows {
		m.cfg.Log.Info("mirror: progress", "fetched", p.Fetched, "windows", p.Windows, "remaining", p.Windows-p.Fetched,
			"calls_today", p.CallsToday, "per_day", m.cfg.PerDay, "days_left", p.DaysLeft, "last", p.Last.Key)
	}
}

func containsFetched(states []store.MirrorWindow, key string) bool {
	for _, s := range states {
		if s.Key == key {
			return s.Fetches > 0
		}
	}
	return false
}
