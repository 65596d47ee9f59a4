package metrics_test

import (
	"bufio"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/metrics"
	"github.com/prometheus/client_golang/prometheus"
)

// history is a fake energy.ImportHistory.
type history struct {
	totals func() ([]energy.ImportTotal, error)
}

func (h history) ImportTotals(context.Context) ([]energy.ImportTotal, error) { return h.totals() }

// scrape fetches the text exposition and returns each sample line's value
// keyed by its name and labels as written ("name{a=\"b\"}").
func scrape(tb testing.TB, h http.Handler) map[string]float64 {
	tb.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		tb.Fatalf("scrape: got %d, want 200: %s", rec.Code, rec.Body)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(rec.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			tb.Fatalf("scrape: line %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

func wantSample(tb testing.TB, got map[string]float64, key string, want float64) {
	tb.Helper()
	v, ok := got[key]
	if !ok {
		tb.Errorf("%s: missing", key)
		return
	}
	if v != want {
		tb.Errorf("%s: got %v, want %v", key, v, want)
	}
}

func TestMetricsRecordAndExpose(t *testing.T) {
	now := time.Date(2024, 11, 1, 12, 0, 0, 0, time.UTC)
	last := now.Add(-time.Hour)
	snap := &dataset.Snapshot{Version: 7, Updated: now.Add(-90 * time.Second)}
	m, err := metrics.New(prometheus.NewRegistry(), metrics.Options{
		History: history{func() ([]energy.ImportTotal, error) {
			return []energy.ImportTotal{{Dataset: "total-load", Runs: 3, Rows: 35040, Last: last}}, nil
		}},
		Data: func() *dataset.Snapshot { return snap },
		Now:  func() time.Time { return now },
	})
	if err != nil {
		t.Fatal(err)
	}
	m.ObserveRequest("GET /load/v2.0/peak-valley-load", 200, 2*time.Millisecond)
	m.ObserveRequest("GET /load/v2.0/peak-valley-load", 200, 3*time.Millisecond)
	m.ObserveRequest("unmatched", 404, time.Millisecond)
	m.InFlight(1)
	m.InFlight(1)
	m.InFlight(-1)
	m.RateLimited("data")
	m.ObserveToken(auth.Issued)
	m.ObserveToken(auth.Issued)
	m.ObserveToken(auth.InvalidClient)
	m.ObserveToken(auth.RateLimited)

	got := scrape(t, m.Handler())
	wantSample(t, got, `energyapi_http_requests_total{route="GET /load/v2.0/peak-valley-load",status="200"}`, 2)
	wantSample(t, got, `energyapi_http_requests_total{route="unmatched",status="404"}`, 1)
	wantSample(t, got, `energyapi_http_request_duration_seconds_count{route="GET /load/v2.0/peak-valley-load"}`, 2)
	wantSample(t, got, `energyapi_http_request_duration_seconds_bucket{route="GET /load/v2.0/peak-valley-load",le="0.0025"}`, 1)
	wantSample(t, got, `energyapi_http_request_duration_seconds_bucket{route="GET /load/v2.0/peak-valley-load",le="0.005"}`, 2)
	wantSample(t, got, `energyapi_http_requests_in_flight`, 1)
	wantSample(t, got, `energyapi_rate_limited_requests_total{endpoint="data"}`, 1)
	wantSample(t, got, `energyapi_rate_limited_requests_total{endpoint="token"}`, 1)
	wantSample(t, got, `energyapi_tokens_issued_total`, 2)
	wantSample(t, got, `energyapi_tokens_refused_total{reason="invalid_client"}`, 1)
	wantSample(t, got, `energyapi_tokens_refused_total{reason="rate_limited"}`, 1)
	wantSample(t, got, `energyapi_tokens_refused_total{reason="invalid_request"}`, 0)
	wantSample(t, got, `energyapi_import_runs_total{dataset="total-load"}`, 3)
	wantSample(t, got, `energyapi_import_rows_total{dataset="total-load"}`, 35040)
	wantSample(t, got, `energyapi_import_last_success_timestamp_seconds{dataset="total-load"}`, float64(last.Unix()))
	wantSample(t, got, `energyapi_store_up`, 1)
	wantSample(t, got, `energyapi_data_version`, 7)
	wantSample(t, got, `energyapi_data_age_seconds`, 90)
	wantSample(t, got, `energyapi_data_updated_timestamp_seconds`, float64(snap.Updated.Unix()))
	if _, ok := got["go_goroutines"]; !ok {
		t.Error("go_goroutines: missing, want the Go runtime collector")
	}
}

func TestMetricsStoreDown(t *testing.T) {
	fail := true
	m, err := metrics.New(prometheus.NewRegistry(), metrics.Options{
		History: history{func() ([]energy.ImportTotal, error) {
			if fail {
				return nil, errors.New("database is locked")
			}
			return nil, nil
		}},
		Data: func() *dataset.Snapshot { return &dataset.Snapshot{} },
	})
	if err != nil {
		t.Fatal(err)
	}
	m.ObserveToken(auth.Issued)
	got := scrape(t, m.Handler())
	wantSample(t, got, `energyapi_store_up`, 0)
	// The rest is still served.
	wantSample(t, got, `energyapi_tokens_issued_total`, 1)
	wantSample(t, got, `energyapi_data_version`, 0)
	if _, ok := got[`energyapi_data_age_seconds`]; ok {
		t.Error("energyapi_data_age_seconds: present for data never imported, want absent")
	}
	fail = false
	wantSample(t, scrape(t, m.Handler()), `energyapi_store_up`, 1)
}

func TestMetricsOwnRegistry(t *testing.T) {
	reg := prometheus.NewRegistry()
	if _, err := metrics.New(reg, metrics.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := metrics.New(reg, metrics.Options{}); err == nil {
		t.Error("second New on one registry: got nil error, want a duplicate registration error")
	}
	// A fresh registry each time: two servers in one process do not collide.
	if _, err := metrics.New(prometheus.NewRegistry(), metrics.Options{}); err != nil {
		t.Errorf("New on a fresh registry: %v", err)
	}
}

func TestNilMetricsRecordNothing(t *testing.T) {
	var m *metrics.Metrics
	m.ObserveRequest("r", 200, time.Millisecond)
	m.InFlight(1)
	m.RateLimited("data")
	m.ObserveToken(auth.Issued) // must not panic
}

// TestObserveRequestConcurrently: requests recorded at once, also the
// first of their route and status, are all counted.
func TestObserveRequestConcurrently(t *testing.T) {
	m, err := metrics.New(prometheus.NewRegistry(), metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := range 100 {
				m.ObserveRequest("GET /a", 200+i%2*204, time.Millisecond)
			}
		})
	}
	wg.Wait()
	got := scrape(t, m.Handler())
	wantSample(t, got, `energyapi_http_requests_total{route="GET /a",status="200"}`, 400)
	wantSample(t, got, `energyapi_http_requests_total{route="GET /a",status="404"}`, 400)
	wantSample(t, got, `energyapi_http_request_duration_seconds_count{route="GET /a"}`, 800)
}
