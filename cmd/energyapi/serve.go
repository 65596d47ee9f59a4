package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/energyapi/energyapi/internal/web"

	"github.com/energyapi/energyapi/internal/api"
)

// serveConfig is everything serve reads from flags and the environment.
type serveConfig struct {
	addr            string
	db              string
	demo            bool
	allowPublic     bool
	publicURL       string // "" or an absolute URL with no trailing slash (checkPublicURL)
	tokenTTL        time.Duration
	keyRotation     time.Duration
	maxRangeDays    int
	pollInterval    time.Duration
	logLevel        slog.Level
	logFormat       logFormat
	readHeader      time.Duration
	read            time.Duration
	write           time.Duration
	idle            time.Duration
	shutdownTimeout time.Duration
	answerCacheMB   int
	memoryBudget    memorySize
	goMemLimit      bool // GOMEMLIMIT is set: the runtime's limit is the operator's
	compression     bool
	bulk            bool // serve the bulk files under /bulk
	cacheControl    string
	unmatchedFilter api.UnmatchedFilter
	unknownParams   api.UnknownParameters
	hard            hardenConfig
	sandbox         sandboxConfig
	selfService     registerConfig
	plans           plansConfig
}

func parseServeFlags(args []string, getenv func(string) string, stderr io.Writer) (serveConfig, error) {
	var c serveConfig
	fs := newFlagSet("serve", stderr)
	unmatched, unknown := c.register(fs)
	c.goMemLimit = getenv("GOMEMLIMIT") != ""
	if err := parseFlags(fs, args, getenv); err != nil {
		return c, err
	}
	if fs.NArg() != 0 {
		return c, usagef("serve takes no arguments, got %q", fs.Arg(0))
	}
	return c, c.check(fs, *unmatched, *unknown)
}

// register adds serve's flags to fs, with their defaults. The two it
// returns are checked and converted by check.
func (c *serveConfig) register(fs *flag.FlagSet) (unmatched, unknown *string) {
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "address to listen on")
	c.db = defaultDB
	fs.StringVar(&c.db, "db", defaultDB, dbUsage)
	fs.BoolVar(&c.demo, "demo", false, "ensure the demo client (demo / demo-secret) and, on an empty store, the demo data 2019-2025: every part listed at once, generated when first asked")
	fs.BoolVar(&c.allowPublic, "allow-public", false, "with --demo, allow listening on a non-loopback address")
	fs.StringVar(&c.publicURL, "public-url", "", "the one `URL` clients reach the server at, such as https://api.example.org: the issuer of the OAuth metadata and the tokens' iss, where the metadata's links start whatever Host a request names (none: the links follow each request, tokens name the issuer energyapi)")
	fs.DurationVar(&c.tokenTTL, "token-ttl", 300*time.Second, "lifetime of access tokens")
	fs.DurationVar(&c.keyRotation, "key-rotation", 24*time.Hour, "how long a token signing key signs before the next takes over")
	fs.IntVar(&c.maxRangeDays, "max-range-days", 60, "longest date range per request in calendar days, both ends counted (0: no limit)")
	fs.DurationVar(&c.pollInterval, "poll-interval", time.Second, "how often to look for new data in the store, and for changed clients should a change notification be missed")
	fs.TextVar(&c.logLevel, "log-level", slog.LevelInfo, "log level: debug, info, warn or error")
	c.logFormat = logAuto
	fs.Var(&c.logFormat, "log-format", "log format on stderr: text, json, or auto (text on a terminal, json otherwise)")
	fs.DurationVar(&c.readHeader, "read-header-timeout", 5*time.Second, "time allowed to read request headers")
	fs.DurationVar(&c.read, "read-timeout", 10*time.Second, "time allowed to read a whole request")
	fs.DurationVar(&c.write, "write-timeout", 30*time.Second, "time allowed to write a response")
	fs.DurationVar(&c.idle, "idle-timeout", 120*time.Second, "how long an idle keep-alive connection stays open")
	fs.DurationVar(&c.shutdownTimeout, "shutdown-timeout", 20*time.Second, "how long in-flight requests may take to finish on SIGTERM")
	fs.IntVar(&c.answerCacheMB, "answer-cache-mb", 64, "0: keep no encoded answer, encode every answer afresh; any other value keeps answers for reuse until the data change, in the --memory-budget they share with the decoded parts (deprecated: the size itself is no longer used)")
	fs.BoolVar(&c.compression, "compression", true, "compress answers, the catalogue, the OpenAPI document and the site in gzip or zstd when Accept-Encoding asks (answers under 1 KiB stay as they are); --compression=false sends everything uncompressed")
	fs.BoolVar(&c.bulk, "bulk", false, "serve whole periods as files under /bulk (a month of a series, a year of yearly statistics; Parquet and CSV.gz) with a manifest of their sizes and SHA-256, produced on first ask and kept in --memory-budget; the updates feed then names the files an import changed")
	fs.StringVar(&c.cacheControl, "cache-control", "private, no-cache", "Cache-Control header of data answers (they carry an ETag and answer If-None-Match with 304)")
	unmatched = fs.String("unmatched-filter", string(api.EmptyBody), "answer to a filter value outside its list: empty-body (the specification's 200 with no body) or empty-array (the envelope with an empty array, for clients that cannot parse an empty body)")
	unknown = fs.String("unknown-parameters", string(api.IgnoreUnknown), "answer to a data request with a query parameter its endpoint does not take: ignore (as the live family does) or reject (400 naming the parameter, so that a misspelt filter is told, not dropped)")
	c.memoryBudget.register(fs)
	c.hard.register(fs)
	c.sandbox.register(fs)
	c.selfService.register(fs)
	c.plans.register(fs)
	return unmatched, unknown
}

// check validates the parsed flags of fs, unmatched and unknown among them,
// and returns a usage error for the first that cannot work: first a flag
// given without the setting it needs (flagNeeds), then values.
func (c *serveConfig) check(fs *flag.FlagSet, unmatched, unknown string) error {
	set := setFlags(fs)
	c.hard.applyDeprecated(set)
	// --demo implies the sandbox unless --sandbox=false says otherwise, as
	// benchmarks of the production path on demo data do.
	c.sandbox.enabled = c.sandbox.enabled || c.demo && !set["sandbox"]
	if err := checkFlagNeeds(set, c); err != nil {
		return err
	}
	switch c.unmatchedFilter = api.UnmatchedFilter(unmatched); c.unmatchedFilter {
	case api.EmptyBody, api.EmptyArray:
	default:
		return invalidValue("--unmatched-filter", unmatched, "want empty-body or empty-array")
	}
	switch c.unknownParams = api.UnknownParameters(unknown); c.unknownParams {
	case api.IgnoreUnknown, api.RejectUnknown:
	default:
		return invalidValue("--unknown-parameters", unknown, "want ignore or reject")
	}
	var err error
	if c.publicURL, err = checkPublicURL(c.publicURL); err != nil {
		return err
	}
	switch {
	case c.answerCacheMB < 0:
		return invalidValue("--answer-cache-mb", strconv.Itoa(c.answerCacheMB), "want 0 or more")
	case c.tokenTTL < time.Second:
		return invalidValue("--token-ttl", c.tokenTTL.String(), "want at least 1s")
	case c.keyRotation < time.Hour:
		return invalidValue("--key-rotation", c.keyRotation.String(), "want at least 1h")
	case c.maxRangeDays < 0:
		return invalidValue("--max-range-days", strconv.Itoa(c.maxRangeDays), "want 0 or more")
	case c.pollInterval < 10*time.Millisecond || c.pollInterval > 5*time.Second:
		// Revocations must reach every replica within 5 s even if a
		// change notification is lost.
		return invalidValue("--poll-interval", c.pollInterval.String(), "want between 10ms and 5s")
	case c.demo && !c.allowPublic && !isLoopback(c.addr):
		return usagef("--demo publishes a well-known secret; refusing to listen on %s without --allow-public", c.addr)
	}
	if err := c.hard.check(c.write); err != nil {
		return err
	}
	if err := c.selfService.check(); err != nil {
		return err
	}
	if err := c.sandbox.check(c.addr); err != nil {
		return err
	}
	return c.plans.check()
}

// isLoopback reports whether addr listens only on the loopback interface.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func runServe(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := parseServeFlags(args, getenv, stderr)
	if err != nil {
		return err
	}
	// Only --demo may create the store: a mistyped --db must not come up
	// as an empty server without clients.
	st, err := openStore(ctx, cfg.db, cfg.demo)
	if err != nil {
		return err
	}
	defer st.Close()
	return serveOn(ctx, cfg, st, stdout, stderr)
}

// serveOn serves st as cfg says until ctx ends. Tests call it with a
// store wrapped to observe what serving asks of it.
func serveOn(ctx context.Context, cfg serveConfig, st store, stdout, stderr io.Writer) error {
	logOut, flushLog := bufferLog(stderr)
	defer flushLog()
	log := newLogger(logOut, cfg.logFormat, cfg.logLevel)
	p, err := newParts(ctx, cfg, log, st)
	if err != nil {
		return err
	}
	return p.serve(ctx, cfg, newHandler(cfg, p), stdout, stderr)
}

// newHandler is the whole HTTP server: every dependency api.NewServer gets,
// by group, built here once and never changed afterwards. A new feature adds
// a field to one group here and its route to internal/api/routes.go.
func newHandler(cfg serveConfig, p *parts) http.Handler {
	return api.NewServer(api.Options{
		Log:   p.log,
		Clock: p.sb.clock(), // nil, the real time, without the sandbox
		Data: api.Data{
			Catalog:           p.cat,
			Snapshot:          p.live.Snapshot,
			AsOf:              p.live.AsOf,
			Updates:           p.feed,
			Bulk:              bulkFiles(cfg, p),
			Mirrored:          p.mirror.mirrored,
			MaxRangeDays:      cfg.maxRangeDays,
			UnmatchedFilter:   cfg.unmatchedFilter,
			UnknownParameters: cfg.unknownParams,
		},
		Auth: api.Auth{Registry: p.reg, Tokens: p.tokens, Keys: p.keys, FailureGuard: p.hard.guard,
			SelfService: cfg.selfService.selfService(p.log, p.reg, p.tokens, cfg.origin(), cfg.demo)},
		// What requests ask of the store waits in an admission class of its
		// own, apart from the answers served from memory.
		Limits: p.hard.limits(p.served.class, cfg.sandbox.rateStyle, p.plans),
		Cache: api.Cache{
			Control: cfg.cacheControl,
			// Answers are encoded, and compressed, once per data version,
			// and kept in the memory budget the decoded parts share.
			Memory:      answersMemory(cfg, p.live),
			Compression: p.compression,
		},
		Sandbox:       api.Sandbox{Box: p.sb.sb, AdminToken: p.sb.adminToken},
		Observability: p.hard.observability((&readiness{ping: p.served.Ping, log: p.log, store: storeName(cfg.db)}).check),
		Web:           web.New(web.Options{Demo: demoCredentials(cfg.demo), Compression: p.compression}),
	})
}

// serve listens on --addr and serves handler, with the background polls
// running, until ctx ends; then it shuts down gracefully.
func (p *parts) serve(ctx context.Context, cfg serveConfig, handler http.Handler, stdout, stderr io.Writer) error {
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: cfg.readHeader,
		ReadTimeout:       cfg.read,
		WriteTimeout:      cfg.write,
		IdleTimeout:       cfg.idle,
		MaxHeaderBytes:    cfg.hard.maxHeaderBytes,
		TLSConfig:         p.hard.tls,
		ErrorLog:          slog.NewLogLogger(p.log.Handler(), slog.LevelWarn),
	}
	stopMetrics, err := p.hard.startMetrics(stdout)
	if err != nil {
		return err
	}
	// Metrics stop last, so that a drain can be watched to the end.
	defer func() {
		mctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := stopMetrics(mctx); err != nil {
			p.log.Warn("metrics shutdown", "err", err)
		}
	}()
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	p.announce(cfg, ln.Addr(), stdout, stderr)
	defer p.startPolling(cfg.pollInterval)()
	return serveUntil(ctx, srv, ln, p.hard, cfg.shutdownTimeout, p.log)
}

// announce tells where the server listens: a line on stdout (the bound
// address, so that port 0 works), a banner on a terminal, a log line.
func (p *parts) announce(cfg serveConfig, addr net.Addr, stdout, stderr io.Writer) {
	fmt.Fprintf(stdout, "energyapi listening on %s://%s\n", p.hard.scheme(), addr)
	p.sb.announce(stdout)
	if isTerminal(stderr) {
		writeBanner(stderr, banner{
			base:  p.hard.scheme() + "://" + dialAddr(addr),
			store: storeName(cfg.db),
			data:  p.live.Snapshot(),
			demo:  cfg.demo,
			mem:   cfg.memoryBudget,
			gen:   p.demo,
			mir:   p.mirror,
		})
	}
	p.log.Info("serving", "addr", addr.String(), "data_version", p.live.Snapshot().Version)
}

// serveUntil serves srv on ln until ctx ends, then stops accepting at once
// and lets in-flight requests finish within timeout.
func serveUntil(ctx context.Context, srv *http.Server, ln net.Listener, hard *hardening, timeout time.Duration, log *slog.Logger) error {
	serveErr := make(chan error, 1)
	go func() { serveErr <- hard.serve(srv, ln) }()
	select {
	case err := <-serveErr:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-serveErr; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("stopped")
	return nil
}
