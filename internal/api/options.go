package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/energyapi/energyapi/internal/budget"
	"github.com/energyapi/energyapi/internal/limit"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/bulk"
	"github.com/energyapi/energyapi/internal/coding"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/sandbox"
)

// Options are the server's dependencies and settings, in groups. The caller
// builds them once and hands them to NewServer, which resolves the defaults
// in a copy of its own (withDefaults): nothing changes them afterwards. A new
// feature adds a field to one group and its route to routes.go.
type Options struct {
	Log *slog.Logger
	Now func() time.Time // times requests; defaults to time.Now
	// Clock is the server's idea of the current date for year windows;
	// defaults to Now. The sandbox sets it apart from Now, which times
	// requests and so must run on.
	Clock func() time.Time

	Data          Data
	Auth          Auth
	Limits        Limits
	Cache         Cache
	Sandbox       Sandbox
	Observability Observability
	// Web, when set, serves the browser site at GET /, /docs, /assets/ and /web/config.json.
	Web http.Handler

	admission *admission // tests set it to control the queue's clock and timers
	// cacheControl is Cache.Control as a header value, made once.
	cacheControl []string
	// clockIsNow is set when Clock is Now: a request's date is then the
	// time it arrived (requestDate).
	clockIsNow bool
}

// Data is what the server serves and how it reads queries.
type Data struct {
	// Catalog lists the datasets served; Snapshot returns the current
	// snapshot of their records.
	Catalog  *dataset.Catalog
	Snapshot func() *dataset.Snapshot
	// AsOf returns the snapshot serving a query's dataset as its data stood
	// at the query's asOf (dataset.Live.AsOf); nil refuses asOf.
	AsOf func(context.Context, *dataset.Snapshot, *dataset.Query) (*dataset.Snapshot, error)
	// Updates, when set, serves GET /updates and GET /updates/stream.
	Updates *Feed
	// Bulk, when set, serves the bulk files and their manifests under
	// /bulk (bulk.go), and the updates feed names the files an import
	// changed; nil: no such route, and the feed as before.
	Bulk *bulk.Producer
	// Mirrored, when set, returns what the store holds of an upstream
	// deployment it mirrors (nil: nothing), for GET /catalog; the value
	// changes only when the mirror's state does.
	Mirrored func() *Mirrored
	// MaxRangeDays bounds a date-range request, both ends counted; 0 for no limit.
	MaxRangeDays int
	// UnmatchedFilter is the answer to a filter value outside its list;
	// the zero value is EmptyBody.
	UnmatchedFilter UnmatchedFilter
	// UnknownParameters is the answer to a query parameter the endpoint
	// does not take; the zero value ignores it (IgnoreUnknown).
	UnknownParameters UnknownParameters
}

// Auth is what the token endpoint and the bearer check need.
type Auth struct {
	Registry *auth.Registry
	Tokens   *auth.Tokens
	// Keys, when set, publish the token signing keys at /.well-known/jwks.json.
	Keys *auth.Keyring
	// FailureGuard limits failed authentications per client and address
	// (Limits.RemoteAddr) at every path that checks a credential: the
	// token endpoint, the SelfService endpoints that take the client's
	// credentials or the operator's tokens, and the sandbox's admin
	// endpoints, all counting in it together (auth.Attempts); data
	// requests are not guarded. Nil for no limit.
	FailureGuard auth.FailureGuard
	// SelfService, when set, serves the standard OAuth endpoints for
	// machines and, as its mode says, self-service registration
	// (addSelfServiceRoutes).
	SelfService *auth.SelfService
}

// Limits keep the server working under overload and abuse.
type Limits struct {
	// RateLimit limits each client's data requests; nil for no limit.
	RateLimit Limiter
	// RateLimitStyle is how RateLimit refuses; the zero value is standard.
	RateLimitStyle RateLimitStyle
	// Plans, when set, limits the data calls of each client with a plan by
	// its plan (RateLimitStyle says how it refuses), counts its usage and
	// serves GET /usage; clients without a plan meet RateLimit.
	Plans *limit.Plans
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
	// RemoteAddr finds the caller's address for the request log, the
	// failed-authentication limit and the limits per address; defaults to
	// RemoteAddr(false), the connection's peer.
	RemoteAddr func(*http.Request) string
	// StreamsPerAddr bounds the update streams one caller (RemoteAddr)
	// holds open at once; 0 means DefaultStreamsPerAddr.
	StreamsPerAddr int
	// StreamWriteTimeout is the longest a write to an update stream may
	// block before the stream is closed: its client stopped reading. 0
	// means DefaultStreamWriteTimeout.
	StreamWriteTimeout time.Duration
}

// Cache is how answers are kept for reuse and sent.
type Cache struct {
	// Control is the Cache-Control header of data answers; the zero value
	// is "private, no-cache": caches may keep an answer but must
	// revalidate it (If-None-Match) before reuse.
	Control string
	// AnswerBytes bounds the encoded answers kept for reuse, and their
	// compressed forms; 0 keeps none.
	AnswerBytes int
	// Memory, when set, is the memory budget the answers share with the
	// decoded parts (and AnswerBytes is not used): answers kept, and those
	// being written, count in it.
	Memory *budget.Budget
	// Compression, when set, compresses data answers, /catalog and the
	// OpenAPI document in the coding a caller's Accept-Encoding asks for
	// (gzip or zstd); nil sends them as they are.
	Compression *coding.Compressor
}

// Sandbox is the sandbox in which client authors test their code.
type Sandbox struct {
	// Box, when set, injects its fault rules into data and token requests,
	// journals them, and serves its admin endpoints under /sandbox/ to
	// callers that send AdminToken. Nil in production: then none of it
	// exists.
	Box        *sandbox.Sandbox
	AdminToken string
}

// Observability is what tells an operator how the server is doing.
type Observability struct {
	// Metrics records every request; optional.
	Metrics Recorder
	// Handler, when set, is served at GET /metrics.
	Handler http.Handler
	// ObserveToken, when set, learns how each token request ended.
	ObserveToken func(auth.TokenOutcome)
	// Ready answers GET /readyz: nil when the server can serve.
	Ready func(context.Context) error
}

// withDefaults returns o with its defaults filled in and its derived
// values made; the caller's Options are left as they were.
func (o Options) withDefaults() Options {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Clock == nil {
		o.Clock, o.clockIsNow = o.Now, true
	}
	if o.Cache.Control == "" {
		o.Cache.Control = "private, no-cache"
	}
	o.cacheControl = []string{o.Cache.Control}
	if o.Limits.RemoteAddr == nil {
		o.Limits.RemoteAddr = RemoteAddr(false)
	}
	if o.Limits.StreamsPerAddr == 0 {
		o.Limits.StreamsPerAddr = DefaultStreamsPerAddr
	}
	if o.Limits.StreamWriteTimeout == 0 {
		o.Limits.StreamWriteTimeout = DefaultStreamWriteTimeout
	}
	return o
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

// Mirrored is a store's copy of an upstream deployment (internal/mirror):
// the upstreams and, by dataset, the windows fetched.
type Mirrored struct {
	Upstreams []string
	Datasets  map[string]MirroredDataset
}

// MirroredDataset is one dataset's windows: planned and fetched, the days
// the fetched ones cover and the last fetch.
type MirroredDataset struct {
	Windows, Fetched int
	First, Last      string // yyyy-mm-dd
	LastFetch        time.Time
}
