package api_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/metrics"
)

// demoData derives the served data from the demo generators as an import would.
func demoData(tb testing.TB) apitest.Rows {
	tb.Helper()
	from, to := demo.LoadRange()
	pts := demo.TotalLoad(from, to)
	// Points come ordered by instant: cut them per day instead of scanning all for each.
	var days []energy.DayExtremes
	i := 0
	for d := from; d.Compare(to) <= 0; d = d.AddDays(1) {
		end := d.End()
		j := i
		for j < len(pts) && pts[j].At.Before(end) {
			j++
		}
		if ext, ok := energy.DeriveDay(d, pts[i:j]); ok {
			days = append(days, ext)
		}
		i = j
	}
	return apitest.Rows{"thermoelectric": demo.Thermoelectric(), "peak-valley": apitest.PeakValley(days...)}
}

// benchGet measures a request end to end through the handler: bearer check,
// query, encoding; only the network is left out.
func benchGet(b *testing.B, path string) {
	b.Run("cached", func(b *testing.B) { benchGetWith(b, path, nil) })
	// Every request encoded anew: the cost of the first request after an import.
	b.Run("encoded", func(b *testing.B) { benchGetWith(b, path, func(o *api.Options) { o.Cache.AnswerBytes = 0 }) })
	// A revalidation: If-None-Match names the answer's tag, the answer is 304.
	b.Run("revalidated", func(b *testing.B) { benchGetWith(b, path, nil, "If-None-Match") })
	// The same two with the layers serve adds by default (admission, the
	// request deadline, metrics), which the harness leaves out.
	b.Run("cached-served", func(b *testing.B) { benchGetWith(b, path, asServed(b)) })
	b.Run("revalidated-served", func(b *testing.B) { benchGetWith(b, path, asServed(b), "If-None-Match") })
}

// asServed returns an adjustment that sets the limits and metrics serve
// sets by default (cmd/energyapi/serve_harden.go).
func asServed(tb testing.TB) func(*api.Options) {
	m, err := metrics.New(prometheus.NewRegistry(), metrics.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	// Under callgrind (scripts/bench-callgrind) everything runs about 50
	// times slower: the times scale with it, so that admission judges
	// waits as it would at full speed and takes the same path.
	scale := time.Duration(1)
	if os.Getenv("ENERGYAPI_CALLGRIND") != "" {
		scale = 100
	}
	return func(o *api.Options) {
		o.Observability.Metrics = m
		o.Limits.MaxInFlight, o.Limits.MaxQueue = 512, 1024
		o.Limits.QueueTimeout, o.Limits.QueueTarget = 100*time.Millisecond*scale, 5*time.Millisecond*scale
		o.Limits.RequestTimeout = 15 * time.Second * scale
	}
}

// benchGetWith measures GET path; a header named in revalidate is set to
// the first answer's ETag for the measured requests.
func benchGetWith(b *testing.B, path string, adjust func(*api.Options), revalidate ...string) {
	h := newHarnessWith(b, apitest.Options{Data: demoData(b), Adjust: adjust})
	handler := h.srv.Handler()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("Authorization", "Bearer "+h.token)
	req.Header.Set("Accept", "application/json")
	w := httptest.NewRecorder()
	handler.ServeHTTP(w, req)
	if w.Code != http.StatusOK || w.Body.Len() == 0 {
		b.Fatalf("status %d, %d bytes", w.Code, w.Body.Len())
	}
	b.SetBytes(int64(w.Body.Len()))
	for _, name := range revalidate {
		req.Header.Set(name, w.Header().Get("ETag"))
		b.SetBytes(0)
	}
	b.ReportAllocs()
	b.ResetTimer()
	loop(b, func() { handler.ServeHTTP(httptest.NewRecorder(), req) })
}

func BenchmarkThermoelectricAllItalyYear(b *testing.B) {
	benchGet(b, thermoPath+"?year=2023")
}

func BenchmarkThermoelectricOneProvince(b *testing.B) {
	benchGet(b, thermoPath+"?year=2023&province=Brindisi")
}

func BenchmarkPeakValley31Days(b *testing.B) {
	benchGet(b, peakValleyPath+"?dateFrom=01/01/2024&dateTo=31/01/2024")
}

func BenchmarkPeakValley60Days(b *testing.B) {
	benchGet(b, peakValleyPath+"?dateFrom=01/01/2024&dateTo=29/02/2024")
}

// BenchmarkTokenRequest measures the token endpoint through the whole
// handler stack (request log, limits, deadline, mux, client authentication
// against the registry a real SQLite store backs, signing), on all cores:
// tokens per second is 1 / (ns/op) with -cpu at the core count. The log is
// formatted as in production and then discarded, so that a growing buffer
// does not weigh on the figure. scripts/bench-token-ratio measures the same
// endpoint over the network against a minimal net/http server.
func BenchmarkTokenRequest(b *testing.B) {
	srv := apitest.NewServer(b, apitest.Options{Log: io.Discard})
	handler := srv.Handler()
	body := "client_id=" + testClientID + "&client_secret=" + testClientSecret + "&grant_type=client_credentials"
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest(http.MethodPost, "/public-api/access-token", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			w := httptest.NewRecorder()
			handler.ServeHTTP(w, req)
			if w.Code != http.StatusOK {
				b.Fatalf("status %d: %s", w.Code, w.Body)
			}
		}
	})
}
