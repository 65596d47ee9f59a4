package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/limit"
	"github.com/energyapi/energyapi/internal/metrics"
	"github.com/prometheus/client_golang/prometheus"
)

// maxLimiterKeys bounds each rate-limit table: about 100 bytes per key, so
// at most some tens of MiB however many client IDs and addresses callers invent.
const maxLimiterKeys = 100_000

// hardenConfig is what serve reads to keep working under abuse and overload:
// rate limits, resource limits, metrics and TLS.
type hardenConfig struct {
	rateLimit       limit.Rate
	rateBurst       int
	authFailPerPair limit.Rate // per client_id from one address
	authFailPerAddr limit.Rate
	// authFailPerClient is the deprecated --auth-fail-per-client, which
	// sets authFailPerPair unless --auth-fail-per-client-addr is given.
	authFailPerClient limit.Rate
	trustProxy        bool
	streamsPerAddr    int
	streamWrite       time.Duration
	maxInFlight       int
	maxQueue          int
	queueTimeout      time.Duration
	queueTarget       time.Duration
	requestTimeout    time.Duration
	storeSlots        int
	storeTimeout      time.Duration
	maxHeaderBytes    int
	metricsAddr       string
	tlsCert, tlsKey   string
}

// register adds the flags to fs, with their defaults.
func (c *hardenConfig) register(fs *flag.FlagSet) {
	c.authFailPerPair = limit.Rate{N: 10, Per: time.Minute}
	c.authFailPerAddr = limit.Rate{N: 100, Per: time.Minute}
	fs.Var(&c.rateLimit, "rate-limit", `data requests allowed per client, as N/s, N/m or N/h ("" or 0: no limit)`)
	fs.IntVar(&c.rateBurst, "rate-burst", 20, "data requests a client may make at once before --rate-limit applies")
	fs.Var(&c.authFailPerPair, "auth-fail-per-client-addr", "failed authentications allowed per client_id from one remote address, as N/m (0: no limit); a client_id's failures from other addresses never count, so strangers cannot lock a client out; a wrong operator, initial access or sandbox admin token counts as no client_id from its address")
	fs.Var(&c.authFailPerClient, "auth-fail-per-client", "deprecated: the former name of --auth-fail-per-client-addr, which wins if both are given")
	fs.Var(&c.authFailPerAddr, "auth-fail-per-addr", "failed authentications allowed per remote address (an IPv6 /64 counts as one), as N/m (0: no limit), counted together at every path that checks a credential: the token endpoint, /revoke, the developer's rotate-secret and delete, /introspect, the operator's, /register and the sandbox's admin endpoints; more are answered 429")
	fs.BoolVar(&c.trustProxy, "trust-proxy-headers", false, "take the remote address from the last X-Forwarded-For entry that parses, with or without a port, and the scheme of the OAuth metadata's links from X-Forwarded-Proto or Forwarded (only behind a reverse proxy that sets them)")
	fs.IntVar(&c.streamsPerAddr, "streams-per-addr", api.DefaultStreamsPerAddr, "update streams (GET /updates/stream) one remote address may hold open at once; more are answered 429")
	fs.DurationVar(&c.streamWrite, "stream-write-timeout", api.DefaultStreamWriteTimeout, "close an update stream whose write has waited this long for its client to read")
	fs.IntVar(&c.maxInFlight, "max-in-flight", 512, "requests served at once; more wait for a slot, see --max-queue and --queue-timeout (0: no bound)")
	fs.IntVar(&c.maxQueue, "max-queue", 1024, "requests waiting for a slot; more are answered 503 at once")
	fs.DurationVar(&c.queueTimeout, "queue-timeout", 100*time.Millisecond, "longest wait for a slot, from when the request's headers were read (with the wait for a CPU before); then 503 (0: no waiting, 503 at once)")
	fs.DurationVar(&c.queueTarget, "queue-target", 5*time.Millisecond, "when the shortest wait for a slot stays above this for 100ms, serve the newest waiters first and refuse those that waited twice as long (0: off)")
	fs.DurationVar(&c.requestTimeout, "request-timeout", 15*time.Second, "deadline of each request; later, 503 (0: none)")
	fs.IntVar(&c.storeSlots, "store-slots", 32, "requests waiting on the store served at once, apart from --max-in-flight (token requests the in-memory clients cannot decide, asOf reads of replaced data, /updates, /readyz); more wait for a slot as --max-queue and --queue-timeout say, then 503")
	fs.DurationVar(&c.storeTimeout, "store-timeout", 2*time.Second, "deadline of each store call made for a request; later, 503 with Retry-After (below --request-timeout)")
	fs.IntVar(&c.maxHeaderBytes, "max-header-bytes", 16<<10, "largest request line and headers accepted, in bytes")
	fs.StringVar(&c.metricsAddr, "metrics-addr", "", "serve /metrics on this address instead of the API's")
	fs.StringVar(&c.tlsCert, "tls-cert", "", "PEM certificate chain file: serve HTTPS (TLS 1.2 or later) with --tls-key")
	fs.StringVar(&c.tlsKey, "tls-key", "", "PEM private key file for --tls-cert")
}

// applyDeprecated lets the deprecated --auth-fail-per-client (the limit was
// once per client_id from anywhere) set the limit per client_id from one
// address, unless --auth-fail-per-client-addr is given too, on the command
// line or in the environment. set holds the flags given (setFlags).
func (c *hardenConfig) applyDeprecated(set map[string]bool) {
	if set["auth-fail-per-client"] && !set["auth-fail-per-client-addr"] {
		c.authFailPerPair = c.authFailPerClient
	}
}

// check returns a usage error for settings that cannot work together.
func (c *hardenConfig) check(writeTimeout time.Duration) error {
	switch {
	case !c.rateLimit.IsZero() && c.rateBurst < 1:
		return invalidValue("--rate-burst", strconv.Itoa(c.rateBurst), "want at least 1 with --rate-limit")
	case c.streamsPerAddr < 1:
		return invalidValue("--streams-per-addr", strconv.Itoa(c.streamsPerAddr), "want at least 1")
	case c.streamWrite <= 0:
		return invalidValue("--stream-write-timeout", c.streamWrite.String(), "want more than 0")
	case c.maxInFlight < 0:
		return invalidValue("--max-in-flight", strconv.Itoa(c.maxInFlight), "want 0 or more")
	case c.maxQueue < 0:
		return invalidValue("--max-queue", strconv.Itoa(c.maxQueue), "want 0 or more")
	case c.queueTimeout < 0:
		return invalidValue("--queue-timeout", c.queueTimeout.String(), "want 0 or more")
	case c.queueTarget < 0:
		return invalidValue("--queue-target", c.queueTarget.String(), "want 0 or more")
	case c.requestTimeout > 0 && c.queueTimeout >= c.requestTimeout:
		return invalidValue("--queue-timeout", c.queueTimeout.String(), fmt.Sprintf("want less than --request-timeout (%s)", c.requestTimeout))
	case c.requestTimeout < 0:
		return invalidValue("--request-timeout", c.requestTimeout.String(), "want 0 or more")
	case c.storeSlots < 1:
		return invalidValue("--store-slots", strconv.Itoa(c.storeSlots), "want at least 1")
	case c.storeTimeout <= 0:
		return invalidValue("--store-timeout", c.storeTimeout.String(), "want more than 0")
	case c.requestTimeout > 0 && c.storeTimeout >= c.requestTimeout:
		// The store's 503 must come before the request deadline's.
		return invalidValue("--store-timeout", c.storeTimeout.String(), fmt.Sprintf("want less than --request-timeout (%s)", c.requestTimeout))
	case c.requestTimeout > 0 && writeTimeout > 0 && c.requestTimeout >= writeTimeout:
		// The 503 for a request past its deadline must still be writable.
		return invalidValue("--request-timeout", c.requestTimeout.String(), fmt.Sprintf("want less than --write-timeout (%s)", writeTimeout))
	case c.maxHeaderBytes < 1<<10:
		return invalidValue("--max-header-bytes", strconv.Itoa(c.maxHeaderBytes), "want at least 1024")
	}
	return nil
}

// storeClass returns the admission class of the requests that wait on the
// store: its own slots, the queue bounds of the general ones, and a deadline
// on each store call.
func (c *hardenConfig) storeClass() *api.StoreClass {
	return api.NewStoreClass(api.StoreClassConfig{
		Slots: c.storeSlots, MaxQueue: c.maxQueue, Wait: c.queueTimeout, Timeout: c.storeTimeout,
	}, time.Now)
}

// hardening is what the hardenConfig builds for one serve run.
type hardening struct {
	cfg     hardenConfig
	log     *slog.Logger
	metrics *metrics.Metrics
	limiter api.Limiter       // nil: no data rate limit
	guard   auth.FailureGuard // nil: no failed-authentication limit
	tls     *tls.Config       // nil: plain HTTP
}

func newHardening(cfg hardenConfig, log *slog.Logger, history energy.ImportHistory, data func() *dataset.Snapshot) (*hardening, error) {
	h := &hardening{cfg: cfg, log: log}
	var err error
	h.metrics, err = metrics.New(prometheus.NewRegistry(), metrics.Options{History: history, Data: data, Log: log})
	if err != nil {
		return nil, err
	}
	if !cfg.rateLimit.IsZero() {
		h.limiter = limit.NewLimiter(cfg.rateLimit, cfg.rateBurst, maxLimiterKeys, time.Now)
	}
	if !cfg.authFailPerPair.IsZero() || !cfg.authFailPerAddr.IsZero() {
		h.guard = limit.NewFailureGuard(cfg.authFailPerPair, cfg.authFailPerAddr, maxLimiterKeys, time.Now)
	}
	if cfg.tlsCert != "" {
		// Loaded now, so that a wrong path or a key that does not match the
		// certificate stops serve at startup rather than at the first handshake.
		cert, err := tls.LoadX509KeyPair(cfg.tlsCert, cfg.tlsKey)
		if err != nil {
			return nil, fmt.Errorf("tls: %w", err)
		}
		h.tls = &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}}
	}
	return h, nil
}

// limits are the request limits; class is where requests that wait on
// the store are admitted, and style how the rate limit refuses.
func (h *hardening) limits(class *api.StoreClass, style string, plans *limit.Plans) api.Limits {
	return api.Limits{
		Plans:              plans,
		RateLimit:          h.limiter,
		RateLimitStyle:     api.RateLimitStyle(style),
		MaxInFlight:        h.cfg.maxInFlight,
		MaxQueue:           h.cfg.maxQueue,
		QueueTimeout:       h.cfg.queueTimeout,
		QueueTarget:        h.cfg.queueTarget,
		RequestTimeout:     h.cfg.requestTimeout,
		StoreClass:         class,
		RemoteAddr:         api.RemoteAddr(h.cfg.trustProxy),
		StreamsPerAddr:     h.cfg.streamsPerAddr,
		StreamWriteTimeout: h.cfg.streamWrite,
	}
}

// observability is the metrics, served on the API's address unless
// --metrics-addr moves them (startMetrics), and the readiness check ready.
func (h *hardening) observability(ready func(context.Context) error) api.Observability {
	var handler http.Handler
	if h.cfg.metricsAddr == "" {
		handler = h.metrics.Handler()
	}
	return api.Observability{Metrics: h.metrics, Handler: handler, ObserveToken: h.metrics.ObserveToken, Ready: ready}
}

// scheme is the URL scheme the API answers on.
func (h *hardening) scheme() string {
	if h.tls != nil {
		return "https"
	}
	return "http"
}

// serve serves srv on ln, over TLS when configured.
func (h *hardening) serve(srv *http.Server, ln net.Listener) error {
	if h.tls != nil {
		return srv.ServeTLS(ln, "", "") // the certificate is in srv.TLSConfig
	}
	return srv.Serve(ln)
}

// startMetrics serves /metrics on --metrics-addr, if set, and returns a
// function that stops it. It reports the bound address on stdout, as serve
// does for the API, so that port 0 works.
func (h *hardening) startMetrics(stdout io.Writer) (stop func(context.Context) error, err error) {
	if h.cfg.metricsAddr == "" {
		return func(context.Context) error { return nil }, nil
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", h.metrics.Handler())
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    h.cfg.maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(h.log.Handler(), slog.LevelWarn),
	}
	ln, err := net.Listen("tcp", h.cfg.metricsAddr)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	fmt.Fprintf(stdout, "energyapi metrics on http://%s/metrics\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	return func(ctx context.Context) error {
		err := srv.Shutdown(ctx)
		if serr := <-done; !errors.Is(serr, http.ErrServerClosed) {
			err = errors.Join(err, serr)
		}
		return err
	}, nil
}
