package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
)

// MirrorView is what a serving process knows of the mirrors of its store
// (internal/mirror's Status, read every few seconds): nil when nothing was
// ever mirrored into it.
type MirrorView struct {
	// Windows and Fetched are, by dataset, the windows planned and those
	// fetched at least once.
	Windows, Fetched map[string]int
	// CallsToday are the calls spent against the upstream's daily quota;
	// PerDay and PerSecond the upstream's limits (0: none).
	CallsToday        int64
	PerDay, PerSecond int64
	// BehindSeconds is the age of the oldest fetch of a window whose
	// records may still change upstream.
	BehindSeconds float64
}

// Mirror registers the mirror's gauges in m's registry, read from what
// view returns at each scrape: memory, never the store.
func (m *Metrics) Mirror(view func() *MirrorView) error {
	if m == nil {
		return nil
	}
	return m.reg.Register(&mirrorCollector{
		view:    view,
		windows: desc("mirror_windows", "Request windows a mirror of an upstream deployment plans, by dataset.", "dataset"),
		fetched: desc("mirror_windows_fetched", "Request windows the mirror has fetched at least once, by dataset.", "dataset"),
		calls:   desc("mirror_calls_today", "Calls the store's mirrors spent against the upstream's daily quota this UTC day."),
		behind:  desc("mirror_behind_seconds", "Age of the oldest fetch of a window whose records may still change upstream: how stale the copy may be."),
		limit:   desc("mirror_call_limit", "The upstream's limits on calls the mirrors keep to (0: none), by limit: per_day, per_second.", "limit"),
	})
}

type mirrorCollector struct {
	view                                   func() *MirrorView
	windows, fetched, calls, behind, limit *prometheus.Desc
}

func (c *mirrorCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.windows, c.fetched, c.calls, c.behind, c.limit} {
		ch <- d
	}
}

func (c *mirrorCollector) Collect(ch chan<- prometheus.Metric) {
	v := c.view()
	if v == nil {
		return
	}
	for name, n := range v.Windows {
		ch <- prometheus.MustNewConstMetric(c.windows, prometheus.GaugeValue, float64(n), name)
		ch <- prometheus.MustNewConstMetric(c.fetched, prometheus.GaugeValue, float64(v.Fetched[name]), name)
	}
	ch <- prometheus.MustNewConstMetric(c.calls, prometheus.GaugeValue, float64(v.CallsToday))
	ch <- prometheus.MustNewConstMetric(c.behind, prometheus.GaugeValue, v.BehindSeconds)
	ch <- prometheus.MustNewConstMetric(c.limit, prometheus.GaugeValue, float64(v.PerDay), "per_day")
	ch <- prometheus.MustNewConstMetric(c.limit, prometheus.GaugeValue, float64(v.PerSecond), "per_second")
}
