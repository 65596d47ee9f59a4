package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"sync/atomic"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/metrics"
	"github.com/energyapi/energyapi/internal/mirror"
)

// mirrorRead is how often serve reads what the store's mirrors have done.
const mirrorRead = 5 * time.Second

// mirrorWatch keeps what the mirrors of the store (energyapi mirror) have
// done, read every mirrorRead, for the banner, /metrics and GET /catalog:
// each request reads memory, never the store.
type mirrorWatch struct {
	st      mirror.StatusStore
	cat     *dataset.Catalog
	log     *slog.Logger
	status  atomic.Pointer[mirror.Status]
	catalog atomic.Pointer[api.Mirrored] // changes only when the windows do
}

// newMirrorWatch returns the watch of st's mirrors, read once.
func newMirrorWatch(ctx context.Context, st store, cat *dataset.Catalog, log *slog.Logger) *mirrorWatch {
	ms, ok := st.(mirror.StatusStore)
	if !ok {
		return nil
	}
	m := &mirrorWatch{st: ms, cat: cat, log: log}
	m.read(ctx)
	return m
}

// read reads the status again.
func (m *mirrorWatch) read(ctx context.Context) {
	s, err := mirror.ReadStatus(ctx, m.st, m.cat, catalog.Settling, time.Now())
	if err != nil {
		if ctx.Err() == nil {
			m.log.Warn("mirror status", "err", err)
		}
		return
	}
	m.status.Store(s)
	if s == nil {
		return
	}
	view := &api.Mirrored{Upstreams: s.Upstreams, Datasets: map[string]api.MirroredDataset{}}
	for name, d := range s.Datasets {
		view.Datasets[name] = api.MirroredDataset{Windows: d.Windows, Fetched: d.Fetched, First: d.First, Last: d.Last, LastFetch: d.LastFetch}
	}
	if old := m.catalog.Load(); old == nil || !reflect.DeepEqual(old, view) {
		m.catalog.Store(view)
	}
}

// mirrored is api.Data.Mirrored.
func (m *mirrorWatch) mirrored() *api.Mirrored {
	if m == nil {
		return nil
	}
	return m.catalog.Load()
}

// metricsView is what /metrics shows of the mirrors.
func (m *mirrorWatch) metricsView() *metrics.MirrorView {
	s := m.status.Load()
	if s == nil {
		return nil
	}
	v := &metrics.MirrorView{Windows: map[string]int{}, Fetched: map[string]int{}, CallsToday: s.CallsToday, PerDay: s.PerDay, PerSecond: s.PerSecond, BehindSeconds: s.Behind.Seconds()}
	for name, d := range s.Datasets {
		v.Windows[name], v.Fetched[name] = d.Windows, d.Fetched
	}
	return v
}

// writeBanner writes the banner's line of the mirror, if the store holds one.
func (m *mirrorWatch) writeBanner(w io.Writer) {
	if m == nil {
		return
	}
	s := m.status.Load()
	if s == nil {
		return
	}
	windows, fetched := 0, 0
	for _, d := range s.Datasets {
		windows += d.Windows
		fetched += d.Fetched
	}
	limits := "no daily limit"
	if s.PerDay > 0 {
		limits = fmt.Sprintf("of %d", s.PerDay)
	}
	fmt.Fprintf(w, "  mirror of\t%v: %s of %s request windows of %d datasets fetched, %d calls today (%s), the oldest open window fetched %s ago\n",
		s.Upstreams, count(fetched), count(windows), len(s.Datasets), s.CallsToday, limits, s.Behind.Round(time.Second))
}
