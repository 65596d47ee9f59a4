package api_test

import (
	"bytes"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/budget"
)

// bigAnswer is two days of submitted offers with their publication
// times: about a megabyte, far more than streamBudget holds.
const bigAnswer = "/market/v1.0/input/submitted-offers?dateFrom=30/12/2025&dateTo=31/12/2025&include=meta"

// streamBudget is the memory budget of the server that streams bigAnswer.
const streamBudget = 256 << 10

// streamingHarnesses returns a server whose memory budget is far smaller
// than bigAnswer, with that budget, and one of the default budget, which
// builds bigAnswer whole, on the same data.
func streamingHarnesses(t *testing.T) (small *harness, b *budget.Budget, whole *harness) {
	cat, src := familyDemo(t)
	b = budget.New(streamBudget)
	small, _ = compressionHarness(t, apitest.Options{Catalog: cat, Source: src}, func(o *api.Options) { o.Cache.Memory = b })
	whole, _ = compressionHarness(t, apitest.Options{Catalog: cat, Source: src}, nil)
	return small, b, whole
}

// TestAnswersLargerThanTheBudgetAreStreamed: with a budget far smaller than
// an answer, concurrent requests for it all get 200 and the bytes a server
// with room for it sends (decoded, for a compressed answer), in JSON and
// CSV, identity and gzip; meanwhile the budget never counts more than its
// limit and a stream's small hold.
func TestAnswersLargerThanTheBudgetAreStreamed(t *testing.T) {
	t.Parallel()
	small, b, whole := streamingHarnesses(t)
	var peak atomic.Int64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if u := b.Used(); u > peak.Load() {
				peak.Store(u)
			}
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Microsecond):
			}
		}
	}()
	for _, format := range []string{"json", "csv"} {
		u := bigAnswer + "&format=" + format
		want := whole.raw(t, http.MethodGet, u)
		if want.status != http.StatusOK || len(want.body) < 2*streamBudget {
			t.Fatalf("%s on the default budget: %d with %d bytes; want 200 with more than %d", format, want.status, len(want.body), 2*streamBudget)
		}
		for _, accept := range []string{"", "gzip"} {
			var wg sync.WaitGroup
			for range 4 {
				wg.Go(func() {
					r := small.raw(t, http.MethodGet, u, "Accept-Encoding", accept)
					if r.status != http.StatusOK {
						t.Errorf("%s, Accept-Encoding %q: got %d (%s)", format, accept, r.status, r.body[:min(len(r.body), 200)])
						return
					}
					if cl := r.header.Get("Content-Length"); cl != "" {
						t.Errorf("%s, Accept-Encoding %q: Content-Length %s; want none, the answer streamed", format, accept, cl)
					}
					if got := decoded(t, r); !bytes.Equal(got, want.body) {
						t.Errorf("%s, Accept-Encoding %q: %d bytes that differ from the %d built whole", format, accept, len(got), len(want.body))
					}
					for _, k := range []string{"ETag", "Last-Modified", "Content-Type", "Vary", "Cache-Control"} {
						if got := r.header.Get(k); got != want.header.Get(k) && accept == "" {
							t.Errorf("%s: %s %q, want %q", format, k, got, want.header.Get(k))
						}
					}
				})
			}
			wg.Wait()
		}
	}
	close(stop)
	<-sampled
	// A stream holds at most a sixteenth of a budget this small.
	if p := peak.Load(); p > streamBudget+streamBudget/16 {
		t.Errorf("while answers several times its size were written, the %d-byte budget counted %d bytes", streamBudget, p)
	}
}

// TestStreamedAnswersRevalidate: a streamed answer's validators answer
// conditional requests with 304, and HEAD gets a GET's headers.
func TestStreamedAnswersRevalidate(t *testing.T) {
	t.Parallel()
	small, _, whole := streamingHarnesses(t)
	want := whole.raw(t, http.MethodGet, bigAnswer, "Accept-Encoding", "gzip")
	tag := want.header.Get("ETag")
	nm := small.raw(t, http.MethodGet, bigAnswer, "Accept-Encoding", "gzip", "If-None-Match", tag)
	if nm.status != http.StatusNotModified || nm.header.Get("ETag") != tag {
		t.Errorf("If-None-Match %s: got %d, ETag %q; want 304", tag, nm.status, nm.header.Get("ETag"))
	}
	ims := small.raw(t, http.MethodGet, bigAnswer, "If-Modified-Since", want.header.Get("Last-Modified"))
	if ims.status != http.StatusNotModified {
		t.Errorf("If-Modified-Since: got %d; want 304", ims.status)
	}
	head := small.raw(t, http.MethodHead, bigAnswer, "Accept-Encoding", "gzip")
	for _, k := range []string{"Content-Encoding", "Content-Type", "ETag", "Vary", "Last-Modified", "Cache-Control"} {
		wantHeader(t, "HEAD", head, k, want.header.Get(k))
	}
}

// TestEmptyAnswersUnchangedOnASmallBudget: an unknown filter value gets
// the empty body, and a period without records the envelope with an empty
// array, exactly as on a server with room for every answer.
func TestEmptyAnswersUnchangedOnASmallBudget(t *testing.T) {
	t.Parallel()
	small, _, whole := streamingHarnesses(t)
	for _, u := range []string{
		bigAnswer + "&sessionType=NoSuchSession",
		"/market/v1.0/input/submitted-offers?dateFrom=1/1/2020&dateTo=2/1/2020&include=meta",
		"/market/v1.0/input/submitted-offers?dateFrom=1/1/2020&dateTo=2/1/2020&include=meta&format=csv",
	} {
		want, got := whole.raw(t, http.MethodGet, u), small.raw(t, http.MethodGet, u)
		if got.status != want.status || !bytes.Equal(got.body, want.body) || got.header.Get("Content-Length") != want.header.Get("Content-Length") {
			t.Errorf("%s: got %d with %q (Content-Length %q); want %d with %q (%q)", u, got.status, got.body, got.header.Get("Content-Length"),
				want.status, want.body, want.header.Get("Content-Length"))
		}
	}
}
