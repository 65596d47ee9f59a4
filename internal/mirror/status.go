package mirror

import (
	"context"
	"slices"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
)

// StatusStore is what Status reads: any store, mirrored into or not.
type StatusStore interface {
	MirrorWindows(ctx context.Context) ([]store.MirrorWindow, error)
	MirrorCalls(ctx context.Context, day string) (int64, error)
	MirrorInstances(ctx context.Context) ([]store.MirrorInstance, error)
}

// Status is what the mirrors of a store have done, as a serving process
// shows it (banner, /metrics, GET /catalog).
type Status struct {
	// Upstreams are the upstreams of the mirror processes recorded.
	Upstreams []string
	// Datasets is each mirrored dataset's state, by name.
	Datasets map[string]DatasetStatus
	// CallsToday are the calls spent against the UTC day's quota;
	// PerDay and PerSecond the limits the mirrors keep to (the smallest
	// any of them names; 0: none).
	CallsToday        int64
	PerDay, PerSecond int64
	// Behind is how long ago the oldest fetch of a window whose records
	// may still change upstream was made: how stale the copy may be.
	// Windows never fetched are counted in Datasets, not here.
	Behind time.Duration
}

// DatasetStatus is one dataset's windows: how many are planned and
// fetched, the days the fetched ones cover, and the last fetch.
type DatasetStatus struct {
	Windows, Fetched int
	First, Last      string // yyyy-mm-dd; empty before the first fetch
	LastFetch        time.Time
}

// ReadStatus returns the store's mirror status at now, or nil if nothing
// was ever mirrored into it. settling says how long after a day a
// dataset's records may still change (catalog.Settling).
func ReadStatus(ctx context.Context, st StatusStore, c *dataset.Catalog, settling func(*dataset.Dataset) time.Duration, now time.Time) (*Status, error) {
	ws, err := st.MirrorWindows(ctx)
	if err != nil || len(ws) == 0 {
		return nil, err
	}
	s := &Status{Datasets: map[string]DatasetStatus{}}
	var oldest time.Time
	for _, w := range ws {
		ds := s.Datasets[w.Dataset]
		ds.Windows++
		if w.Fetches > 0 {
			ds.Fetched++
			ds.First = minDay(ds.First, w.FirstDay)
			ds.Last = max(ds.Last, w.LastDay)
			if w.FetchedAt.After(ds.LastFetch) {
				ds.LastFetch = w.FetchedAt
			}
			if d, ok := c.Lookup(w.Dataset); ok && open(d, w, settling) && (oldest.IsZero() || w.FetchedAt.Before(oldest)) {
				oldest = w.FetchedAt
			}
		}
		s.Datasets[w.Dataset] = ds
	}
	if !oldest.IsZero() {
		s.Behind = max(now.Sub(oldest), 0)
	}
	if s.CallsToday, err = st.MirrorCalls(ctx, now.UTC().Format(time.DateOnly)); err != nil {
		return nil, err
	}
	ins, err := st.MirrorInstances(ctx)
	if err != nil {
		return nil, err
	}
	for _, in := range ins {
		if !slices.Contains(s.Upstreams, in.Upstream) {
			s.Upstreams = append(s.Upstreams, in.Upstream)
		}
		s.PerDay, s.PerSecond = smallestLimit(s.PerDay, in.PerDay), smallestLimit(s.PerSecond, in.PerSecond)
	}
	return s, nil
}

// open reports whether the stored window's records could still change
// upstream after its last fetch (mayChange).
func open(d *dataset.Dataset, w store.MirrorWindow, settling func(*dataset.Dataset) time.Duration) bool {
	last, err := time.Parse(time.DateOnly, w.LastDay)
	if err != nil {
		return false
	}
	return mayChange(energy.DateOf(time.Date(last.Year(), last.Month(), last.Day(), 12, 0, 0, 0, energy.Rome())), settling(d), w.FetchedAt)
}

// mayChange reports whether records of days up to last could still change
// upstream after fetched: settle after the end of last.
func mayChange(last energy.Date, settle time.Duration, fetched time.Time) bool {
	return fetched.Before(last.End().Add(settle))
}

func minDay(a, b string) string {
	if a == "" || b < a {
		return b
	}
	return a
}

// smallestLimit is the smaller of two limits, where 0 is none.
func smallestLimit(a, b int64) int64 {
	if a == 0 || (b != 0 && b < a) {
		return b
	}
	return a
}
