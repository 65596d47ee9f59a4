// Package api is the HTTP edge of the Energy Data API: routes, the result
// envelope, the one mapping from error codes to statuses, and the middleware
// every request passes through.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/coding"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/limit"
	"github.com/energyapi/energyapi/internal/sandbox"
)

// Options are the server's dependencies and settings.
type Options struct {
	Log *slog.Logger
	Now func() time.Time // defaults to time.Now
	// Clock is the server's idea of the current date for year windows;
	// defaults to Now. The sandbox sets it apart from Now, which times
	// requests and so must run on.
	Clock func() time.Time
	// Catalog lists the datasets served; Data returns the current snapshot of their records.
	Catalog *dataset.Catalog
	Data    func() *dataset.Snapshot
	// AsOf returns the snapshot serving a query's dataset as its data stood
	// at the query's asOf (dataset.Live.AsOf); nil refuses asOf.
	AsOf func(context.Context, *dataset.Snapshot, *dataset.Query) (*dataset.Snapshot, error)
	// Updates, when set, serves GET /updates and GET /updates/stream.
	Updates       *Feed
	Tokens        *auth.Tokens
	TokenEndpoint *auth.TokenEndpoint
	Keys          *auth.Keyring
	Ready         func(context.Context) error
	// MaxRangeDays bounds a date-range request, both ends counted; 0 for no limit.
	MaxRangeDays int
	// UnmatchedFilter is the answer to a filter value outside its list;
	// the zero value is EmptyBody.
	UnmatchedFilter UnmatchedFilter
	// CacheControl is the Cache-Control header of data answers; the zero
	// value is "private, no-cache": caches may keep an answer but must
	// revalidate it (If-None-Match) before reuse.
	CacheControl string
	// AnswerCacheBytes bounds the encoded answers kept for reuse, and their
	// compressed forms; 0 keeps none.
	AnswerCacheBytes int
	// Compression, when set, compresses data answers, /catalog and the
	// OpenAPI document in the coding a caller's Accept-Encoding asks for
	// (gzip or zstd); nil sends them as they are.
	Compression *coding.Compressor

	// Metrics records every request; optional.
	Metrics Recorder
	// MetricsHandler, when set, is served at GET /metrics.
	MetricsHandler http.Handler
	// RateLimit limits each client's data requests; nil for no limit.
	RateLimit Limiter
	// RateLimitStyle is how RateLimit refuses; the zero value is standard.
	RateLimitStyle RateLimitStyle
	// Plans, when set, limits the data calls of each client with a plan by
	// its plan (RateLimitStyle says how it refuses), counts its usage and
	// serves GET /usage; clients without a plan meet RateLimit.
	Plans *limit.Plans
	// Sandbox, when set, injects its fault rules into data and token
	// requests, journals them, and serves its admin endpoints under
	// /sandbox/ to callers that send SandboxAdminToken. Nil in production:
	// then none of it exists.
	Sandbox           *sandbox.Sandbox
	SandboxAdminToken string
	// MaxInFlight bounds the requests served at once; 0 for no bound. More
	// wait for a slot (MaxQueue, QueueTimeout) or get 503 with Retry-After.
	MaxInFlight int
	// MaxQueue bounds the requests waiting for a slot; more get 503 at once.
	MaxQueue int
	// QueueTimeout is the longest a request waits for a slot, counted from
	// when it reached the server's outermost handler; then 503. 0: no queue,
	// a request that finds every slot taken gets 503 at once.
	QueueTimeout time.Duration
	// QueueTarget is CoDel's target: when the shortest wait of the requests
	// admitted over 100 ms (the wait for a slot plus the estimated wait for a
	// CPU before the handler) stays above it, the server is overloaded: the
	// queue serves the newest requests first, refuses those that have waited
	// more than twice the target, and a share of arrivals is refused at once.
	// 0: off.
	QueueTarget time.Duration
	// RequestTimeout is each request's deadline; 0 for none.
	RequestTimeout time.Duration
	// StoreClass, when set, is where requests that wait on the store are
	// admitted, apart from those answered from memory; the store that
	// serves requests (the Registry's, AsOf's, the feed's, Ready's) must
	// make its calls through its Do. Nil: such requests keep their slot.
	StoreClass *StoreClass
	// RemoteAddr finds the caller's address for the request log; defaults
	// to RemoteAddr(false), the connection's peer.
	RemoteAddr func(*http.Request) string
	// StreamsPerAddr bounds the update streams one caller (RemoteAddr)
	// holds open at once; 0 means DefaultStreamsPerAddr.
	StreamsPerAddr int
	// StreamWriteTimeout is the longest a write to an update stream may
	// block before the stream is closed: its client stopped reading. 0
	// means DefaultStreamWriteTimeout.
	StreamWriteTimeout time.Duration
	// Web, when set, serves the browser site at GET /, /docs, /assets/ and /web/config.json.
	Web http.Handler

	admission *admission // tests set it to control the queue's clock and timers
	// cacheControl is CacheControl as a header value, made once.
	cacheControl []string
	// clockIsNow is set when Clock is Now: a request's date is then the
	// time it arrived (requestDate).
	clockIsNow bool
}

// requestDate returns the server's current date for r: the time r
// arrived, already read, when the server's clock is the request clock.
func requestDate(o Options, r *http.Request) time.Time {
	if o.clockIsNow {
		if e := entryFrom(r.Context()); e != nil {
			return e.start
		}
	}
	return o.Clock()
}

// NewServer returns the HTTP handler for the public API.
func NewServer(o Options) http.Handler {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Clock == nil {
		o.Clock, o.clockIsNow = o.Now, true
	}
	if o.CacheControl == "" {
		o.CacheControl = "private, no-cache"
	}
	o.cacheControl = []string{o.CacheControl}
	if o.RemoteAddr == nil {
		o.RemoteAddr = RemoteAddr(false)
	}
	if o.StreamsPerAddr == 0 {
		o.StreamsPerAddr = DefaultStreamsPerAddr
	}
	if o.StreamWriteTimeout == 0 {
		o.StreamWriteTimeout = DefaultStreamWriteTimeout
	}
	rt := newRouter()
	addRoutes(rt, o)
	var h http.Handler = guardRequests(o)(rt)
	if o.Updates != nil {
		h = streamApart(handleUpdatesStream(o), h)
		rt.mux.Handle("GET /updates/stream", http.NotFoundHandler()) // for routeOf; never reached
	}
	h = recoverPanics(o.Log)(h)
	routeOf := func(r *http.Request) string { _, pattern := rt.mux.Handler(r); return pattern }
	h = logRequests(o.Log, o.Now, newRequestIDs(), o.Metrics, routeOf, o.RemoteAddr)(h)
	return h
}

// streamApart serves GET /updates/stream with stream, outside the request
// limits: the stream stays open as long as its client, so it must not hold
// a request slot or meet the request deadline. Every other request, and a
// path the mux would clean or unescape first, goes to next.
func streamApart(stream, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/updates/stream" && r.URL.RawPath == "" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			stream.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// dataEndpoint wraps a data handler in what every data endpoint shares:
// content negotiation, bearer authentication, then the client's rate limit.
// The authenticated client is kept in the request's entry (recordClient).
func dataEndpoint(o Options, dataset string, h http.Handler) http.Handler {
	fail := func(w http.ResponseWriter, r *http.Request, err error) { writeError(w, r, o.Log, err) }
	limited := injectFaults(o, dataset, clientOf, limitClient(o, dataset, h))
	// An Accept header that admits no representation is refused before the
	// token is checked, as a content-negotiation failure.
	acceptable := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if _, ok := requestFormat(r); !ok {
				writeError(w, r, o.Log, errNotAcceptable)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	return journaled(o, dataset, acceptable(auth.RequireBearerRecorded(o.Tokens, fail, recordClient)(limited)))
}
