package mirror

import (
	"context"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
)

// round plans the windows of the current day, then fetches the due ones,
// first in the plan's order first, until none is due or the day changes.
// With nothing due it waits until something is (or returns done, with
// Once, when every window is fetched).
func (m *Mirror) round(ctx context.Context) (done bool, err error) {
	now := m.cfg.Now()
	today := energy.DateOf(now)
	o := m.cfg.Plan
	o.Today = today
	if m.cfg.LastIsToday {
		o.Last = today
	}
	ws := Plan(o)
	if err := m.cfg.Store.PlanMirrorWindows(ctx, StoreWindows(ws)); err != nil {
		return false, err
	}
	r := &runState{plan: map[string]Window{}, skip: map[string]bool{}, failures: map[string]int{}}
	for _, w := range ws {
		r.plan[w.Key] = w
	}
	m.announce(ctx, ws)
	for energy.DateOf(m.cfg.Now()) == today {
		states, err := m.cfg.Store.MirrorWindows(ctx)
		if err != nil {
			return false, err
		}
		st, w, next, fetched := m.pick(states, r)
		if w == nil {
			if m.cfg.Once && fetched == len(ws) {
				return true, nil
			}
			return false, m.cfg.Sleep(ctx, m.waitUntil(next))
		}
		wait, err := m.fetch(ctx, r, *w, st)
		if err != nil {
			return false, err
		}
		m.report(ctx, states, r, fetched)
		if wait > 0 {
			if err := m.cfg.Sleep(ctx, jitter(wait)); err != nil {
				return false, err
			}
		}
	}
	return false, nil
}

// runState is what one round knows beyond the store: its plan, and the
// windows it gave up on until the next round.
type runState struct {
	plan     map[string]Window
	skip     map[string]bool // windows and datasets ("dataset:" + name) not fetched again this round
	failures map[string]int  // failed fetches in a row, by window
	last     Event
	reports  int
}

// pick returns the first window of the plan that is due: never fetched,
// or fetched while its records could still change, longer than Refresh
// ago, and leased by no other mirror. With none due, next is when the
// first one will be (zero: never), and fetched counts the plan's windows
// fetched at least once.
func (m *Mirror) pick(states []store.MirrorWindow, r *runState) (st store.MirrorWindow, w *Window, next time.Time, fetched int) {
	now := m.cfg.Now()
	for _, s := range states {
		pw, ok := r.plan[s.Key]
		if !ok {
			continue
		}
		if s.Fetches > 0 {
			fetched++
		}
		if w != nil || r.skip[s.Key] || r.skip["dataset:"+s.Dataset] {
			continue
		}
		if s.LeaseOwner != "" && s.LeaseOwner != m.cfg.ID && s.LeaseUntil.After(now) {
			// Another mirror fetches it: look again soon, as it may fail
			// and leave it to this one.
			next = earliest(next, now.Add(time.Second))
			continue
		}
		due := m.dueAt(pw, s)
		if due.IsZero() {
			continue
		}
		if !due.After(now) {
			st, w = s, &pw
			continue
		}
		next = earliest(next, due)
	}
	return st, w, next, fetched
}

// dueAt returns when a window is next to be fetched: at once if it never
// was, Refresh after its last fetch if its records could still change
// then, or never (zero).
func (m *Mirror) dueAt(w Window, s store.MirrorWindow) time.Time {
	if s.Fetches == 0 {
		return time.Time{}.Add(1) // due since ever
	}
	if m.cfg.Refresh <= 0 || !mayChange(w.Last, m.cfg.Settling(w.Dataset), s.FetchedAt) {
		return time.Time{}
	}
	return s.FetchedAt.Add(m.cfg.Refresh)
}

func earliest(a, b time.Time) time.Time {
	if a.IsZero() || b.Before(a) {
		return b
	}
	return a
}

// waitUntil returns how long to wait for next, at most until the next
// day (when the plan grows) and at least a little.
func (m *Mirror) waitUntil(next time.Time) time.Duration {
	now := m.cfg.Now()
	d := untilNextDay(now)
	if !next.IsZero() && next.Sub(now) < d {
		d = next.Sub(now)
	}
	return max(d, 100*time.Millisecond)
}

// untilNextDay returns the time from now to the next 00:00 UTC, when the
// public gateway's daily quota starts again.
func untilNextDay(now time.Time) time.Duration {
	u := now.UTC()
	return time.Date(u.Year(), u.Month(), u.Day()+1, 0, 0, 0, 0, time.UTC).Sub(u)
}
