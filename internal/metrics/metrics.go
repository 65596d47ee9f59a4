// Package metrics exposes the server's Prometheus metrics: requests by route
// and status, latency, tokens issued and refused, rate limiting, committed
// imports as the store records them, and the age of the served data.
//
// Every collector lives in the registry passed to New, never in the global
// default registry, so that tests and several servers in one process do not
// share counters.
package metrics

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

const namespace = "energyapi"

// Options are the sources that metrics read at scrape time.
type Options struct {
	// History reports committed imports. Imports may run in another process
	// (energyapi import), so totals are read from the store at each scrape
	// rather than counted here. Optional.
	History energy.ImportHistory
	// Data returns the snapshot being served. Optional.
	Data func() *dataset.Snapshot
	// Now defaults to time.Now.
	Now func() time.Time
	// Log receives errors from scrapes. Optional.
	Log *slog.Logger
}

// Metrics holds the collectors that the HTTP edge and the token endpoint
// update. A nil *Metrics records nothing, so tests and tools can pass none.
type Metrics struct {
	reg         *prometheus.Registry
	log         *slog.Logger
	requests    *prometheus.CounterVec
	duration    *prometheus.HistogramVec
	inFlight    prometheus.Gauge
	rateLimited *prometheus.CounterVec
	issued      prometheus.Counter
	refused     *prometheus.CounterVec

	// series keeps the request counter and latency observer of each route
	// and status met: WithLabelValues hashes and validates its labels on
	// every call, which cost more than the rest of recording a request.
	seriesMu sync.RWMutex
	series   map[requestKey]requestSeries
}

type requestKey struct {
	route  string
	status int
}

type requestSeries struct {
	count    prometheus.Counter
	duration prometheus.Observer
}

// New registers the server's collectors, and Go runtime and process
// collectors, in reg. It returns an error if reg already holds any of them.
func New(reg *prometheus.Registry, o Options) (*Metrics, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	m := &Metrics{
		reg:    reg,
		log:    o.Log,
		series: map[requestKey]requestSeries{},
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Subsystem: "http", Name: "requests_total",
			Help: "HTTP requests answered, by route pattern and status code.",
		}, []string{"route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Subsystem: "http", Name: "request_duration_seconds",
			Help: "Time from receiving a request's headers to finishing its response, by route pattern.",
			// Answers come from memory in well under a millisecond; the upper
			// buckets catch store waits and slow clients.
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"route"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: namespace, Subsystem: "http", Name: "requests_in_flight",
			Help: "Requests being served now.",
		}),
		rateLimited: counterVec("rate_limited_requests_total",
			"Requests answered 429: data requests over a client's rate, token requests after too many failed authentications.", "endpoint"),
		issued: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: namespace, Name: "tokens_issued_total",
			Help: "Access tokens issued.",
		}),
		refused: counterVec("tokens_refused_total",
			"Token requests refused, by reason.", "reason"),
	}
	// Every series exists from the start at zero, so that rate() and
	// increase() see the first refusal of each kind.
	for _, r := range []auth.TokenOutcome{
		auth.InvalidRequest, auth.UnsupportedGrant, auth.InvalidClient, auth.RateLimited,
		auth.ServerError, auth.MethodNotAllowed, auth.RequestTooLarge, auth.Unavailable,
	} {
		m.refused.WithLabelValues(string(r))
	}
	for _, e := range []string{"data", "token"} {
		m.rateLimited.WithLabelValues(e)
	}
	cs := []prometheus.Collector{
		m.requests, m.duration, m.inFlight, m.rateLimited, m.issued, m.refused,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	}
	if o.History != nil {
		cs = append(cs, newImportCollector(o.History, o.Log))
	}
	if o.Data != nil {
		cs = append(cs, newDataCollector(o.Data, o.Now))
	}
	for _, c := range cs {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// Handler serves the registry in the Prometheus exposition formats.
func (m *Metrics) Handler() http.Handler {
	opts := promhttp.HandlerOpts{
		// A failing collector (the store, say) must not hide every other metric.
		ErrorHandling: promhttp.ContinueOnError,
		// Scrapes are cheap but read the store; a few at once is plenty.
		MaxRequestsInFlight: 4,
		Timeout:             10 * time.Second,
		Registry:            m.reg,
	}
	if m.log != nil {
		opts.ErrorLog = slog.NewLogLogger(m.log.Handler(), slog.LevelError)
	}
	return promhttp.HandlerFor(m.reg, opts)
}

// ObserveRequest records one answered request. route is the pattern that
// matched (never the raw path, whose values are unbounded).
func (m *Metrics) ObserveRequest(route string, status int, d time.Duration) {
	if m == nil {
		return
	}
	s := m.requestSeries(route, status)
	s.count.Inc()
	s.duration.Observe(d.Seconds())
}

// requestSeries returns the series of route and status, made the first
// time they are met. Routes are the server's patterns and statuses HTTP's,
// so the series stay few.
func (m *Metrics) requestSeries(route string, status int) requestSeries {
	k := requestKey{route, status}
	m.seriesMu.RLock()
	s, ok := m.series[k]
	m.seriesMu.RUnlock()
	if ok {
		return s
	}
	s = requestSeries{m.requests.WithLabelValues(route, strconv.Itoa(status)), m.duration.WithLabelValues(route)}
	m.seriesMu.Lock()
	defer m.seriesMu.Unlock()
	m.series[k] = s
	return s
}

// InFlight adds delta to the count of requests being served.
func (m *Metrics) InFlight(delta int) {
	if m == nil {
		return
	}
	m.inFlight.Add(float64(delta))
}

// RateLimited counts a 429 answered by a data endpoint ("data").
func (m *Metrics) RateLimited(endpoint string) {
	if m == nil {
		return
	}
	m.rateLimited.WithLabelValues(endpoint).Inc()
}

// ObserveToken records how a token request ended; it is the token endpoint's
// Observe hook.
func (m *Metrics) ObserveToken(o auth.TokenOutcome) {
	if m == nil {
		return
	}
	switch o {
	case auth.Issued:
		m.issued.Inc()
		return
	case auth.RateLimited:
		m.rateLimited.WithLabelValues("token").Inc()
	}
	m.refused.WithLabelValues(string(o)).Inc()
}

// importCollector reads import totals from the store at scrape time.
type importCollector struct {
	history              energy.ImportHistory
	log                  *slog.Logger
	runs, rows, last, up *prometheus.Desc
}

func newImportCollector(h energy.ImportHistory, log *slog.Logger) *importCollector {
	return &importCollector{
		history: h,
		log:     log,
		runs: desc("import_runs_total",
			"Imports committed to the store, by dataset, whichever process ran them.", "dataset"),
		rows: desc("import_rows_total",
			"Records read by committed imports, by dataset.", "dataset"),
		last: desc("import_last_success_timestamp_seconds",
			"When the last committed import of a dataset finished (Unix time).", "dataset"),
		up: desc("store_up",
			"1 if the store answered the last scrape's import query, else 0."),
	}
}

func (c *importCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.runs
	ch <- c.rows
	ch <- c.last
	ch <- c.up
}

func (c *importCollector) Collect(ch chan<- prometheus.Metric) {
	// Collect has no context; bound the store query so a stuck store cannot
	// hold scrapes (and their goroutines) forever.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	totals, err := c.history.ImportTotals(ctx)
	if err != nil {
		if c.log != nil {
			c.log.Error("metrics: import totals", "err", err)
		}
		ch <- prometheus.MustNewConstMetric(c.up, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(c.up, prometheus.GaugeValue, 1)
	for _, t := range totals {
		ch <- prometheus.MustNewConstMetric(c.runs, prometheus.CounterValue, float64(t.Runs), t.Dataset)
		ch <- prometheus.MustNewConstMetric(c.rows, prometheus.CounterValue, float64(t.Rows), t.Dataset)
		if !t.Last.IsZero() {
			ch <- prometheus.MustNewConstMetric(c.last, prometheus.GaugeValue, unixSeconds(t.Last), t.Dataset)
		}
	}
}

// dataCollector reports the served snapshot's version and age.
type dataCollector struct {
	data                  func() *dataset.Snapshot
	now                   func() time.Time
	version, updated, age *prometheus.Desc
}

func newDataCollector(data func() *dataset.Snapshot, now func() time.Time) *dataCollector {
	return &dataCollector{
		data: data,
		now:  now,
		version: desc("data_version",
			"Version of the data being served; it changes whenever an import commits a change."),
		updated: desc("data_updated_timestamp_seconds",
			"When the served data version was committed (Unix time)."),
		age: desc("data_age_seconds",
			"Seconds since the served data version was committed."),
	}
}

func (c *dataCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.version
	ch <- c.updated
	ch <- c.age
}

func (c *dataCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.data()
	if s == nil {
		return
	}
	ch <- prometheus.MustNewConstMetric(c.version, prometheus.GaugeValue, float64(s.Version))
	if s.Updated.IsZero() { // nothing was ever imported: there is no age to report
		return
	}
	ch <- prometheus.MustNewConstMetric(c.updated, prometheus.GaugeValue, unixSeconds(s.Updated))
	ch <- prometheus.MustNewConstMetric(c.age, prometheus.GaugeValue, c.now().Sub(s.Updated).Seconds())
}

func unixSeconds(t time.Time) float64 { return float64(t.UnixMicro()) / 1e6 }

// counterVec returns a counter of this program's namespace, by labels.
func counterVec(name, help string, labels ...string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: name, Help: help}, labels)
}

// desc describes a metric of this program's namespace, by labels.
func desc(name, help string, labels ...string) *prometheus.Desc {
	return prometheus.NewDesc(namespace+"_"+name, help, labels, nil)
}
