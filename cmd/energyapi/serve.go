package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"github.com/energyapi/energyapi/internal/web"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/coding"
	"github.com/energyapi/energyapi/internal/dataset"
)

// serveConfig is everything serve reads from flags and the environment.
type serveConfig struct {
	addr            string
	db              string
	demo            bool
	allowPublic     bool
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
	compression     bool
	cacheControl    string
	unmatchedFilter api.UnmatchedFilter
	hard            hardenConfig
	sandbox         sandboxConfig
}

func parseServeFlags(args []string, getenv func(string) string, stderr io.Writer) (serveConfig, error) {
	var c serveConfig
	fs := newFlagSet("serve", stderr)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "address to listen on")
	c.db = defaultDB
	fs.StringVar(&c.db, "db", defaultDB, dbUsage)
	fs.BoolVar(&c.demo, "demo", false, "ensure the demo client (demo / demo-secret) and, on an empty store, the demo data (filled in the background)")
	fs.BoolVar(&c.allowPublic, "allow-public", false, "with --demo, allow listening on a non-loopback address")
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
	fs.IntVar(&c.answerCacheMB, "answer-cache-mb", 64, "memory for encoded answers kept for reuse until the data change, in MiB (0: encode every answer)")
	fs.BoolVar(&c.compression, "compression", true, "compress answers, the catalogue, the OpenAPI document and the site in gzip or zstd when Accept-Encoding asks (answers under 1 KiB stay as they are); --compression=false sends everything uncompressed")
	fs.StringVar(&c.cacheControl, "cache-control", "private, no-cache", "Cache-Control header of data answers (they carry an ETag and answer If-None-Match with 304)")
	unmatched := fs.String("unmatched-filter", string(api.EmptyBody), "answer to a filter value outside its list: empty-body (the specification's 200 with no body) or empty-array (the envelope with an empty array, for clients that cannot parse an empty body)")
	c.hard.register(fs)
	c.sandbox.register(fs)
	if err := parseFlags(fs, args, getenv); err != nil {
		return c, err
	}
	switch c.unmatchedFilter = api.UnmatchedFilter(*unmatched); c.unmatchedFilter {
	case api.EmptyBody, api.EmptyArray:
	default:
		return c, invalidValue("--unmatched-filter", *unmatched, "want empty-body or empty-array")
	}
	if c.answerCacheMB < 0 {
		return c, invalidValue("--answer-cache-mb", strconv.Itoa(c.answerCacheMB), "want 0 or more")
	}
	if fs.NArg() != 0 {
		return c, usagef("serve takes no arguments, got %q", fs.Arg(0))
	}
	c.hard.applyDeprecated(fs)
	if err := c.hard.check(c.write); err != nil {
		return c, err
	}
	switch {
	case c.tokenTTL < time.Second:
		return c, invalidValue("--token-ttl", c.tokenTTL.String(), "want at least 1s")
	case c.keyRotation < time.Hour:
		return c, invalidValue("--key-rotation", c.keyRotation.String(), "want at least 1h")
	case c.maxRangeDays < 0:
		return c, invalidValue("--max-range-days", strconv.Itoa(c.maxRangeDays), "want 0 or more")
	case c.pollInterval < 10*time.Millisecond || c.pollInterval > 5*time.Second:
		// Revocations must reach every replica within 5 s even if a
		// change notification is lost.
		return c, invalidValue("--poll-interval", c.pollInterval.String(), "want between 10ms and 5s")
	}
	if c.demo && !c.allowPublic && !isLoopback(c.addr) {
		return c, usagef("--demo publishes a well-known secret; refusing to listen on %s without --allow-public", c.addr)
	}
	// --demo implies the sandbox unless --sandbox=false says otherwise, as
	// benchmarks of the production path on demo data do.
	fs.Visit(func(f *flag.Flag) { c.sandbox.explicit = c.sandbox.explicit || f.Name == "sandbox" })
	if err := c.sandbox.check(c.demo, c.addr); err != nil {
		return c, err
	}
	return c, nil
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
	log := newLogger(stderr, cfg.logFormat, cfg.logLevel)

	// Only --demo may create the store: a mistyped --db must not come up
	// as an empty server without clients.
	st, err := openStore(ctx, cfg.db, cfg.demo)
	if err != nil {
		return err
	}
	defer st.Close()

	// What requests ask of the store waits in an admission class of its
	// own, apart from the answers served from memory.
	class := cfg.hard.storeClass()
	served := servingStore{store: st, class: class}
	reg, err := auth.NewRegistry(ctx, served, st, time.Now, rand.Reader)
	if err != nil {
		return err
	}
	cat, err := catalog.New()
	if err != nil {
		return err
	}
	sb, err := newSandbox(cfg.sandbox, cat)
	if err != nil {
		return err
	}
	// Keys are reloaded every minute; a new key waits two before it signs.
	const keyReload = time.Minute
	keys, err := auth.NewKeyring(ctx, st, auth.KeyringConfig{Rotation: cfg.keyRotation, Activation: 2 * keyReload, TokenTTL: cfg.tokenTTL}, time.Now, rand.Reader)
	if err != nil {
		return err
	}
	// Token lifetimes follow the sandbox clock, so that a test can move
	// past a token's expiry; signing keys keep the real time.
	tokens := auth.NewTokens(keys, reg, cfg.tokenTTL, sb.now(), rand.Reader)
	sb.tokens(tokens)
	var fill func(context.Context) // the demo data to complete in the background
	if cfg.demo {
		if fill, err = writeDemoData(ctx, cfg.db, log, reg, cat, stderr); err != nil {
			return err
		}
		defer func() { // closes the fill's connection if it never started
			if fill != nil {
				done, cancel := context.WithCancel(context.Background())
				cancel()
				fill(done)
			}
		}()
	}
	live, err := dataset.NewLive(ctx, cat, served)
	if err != nil {
		return err
	}
	// Writing the demo data and decoding the first snapshot leave hundreds
	// of MB of garbage behind (the records as rows, the encoded parts); give
	// it back now rather than keep it as the process's resident size.
	debug.FreeOSMemory()
	hard, err := newHardening(cfg.hard, log, st, live.Snapshot)
	if err != nil {
		return err
	}

	feed := api.NewFeed(served, live.Snapshot)
	var z *coding.Compressor // nil: compression off
	if cfg.compression {
		z = coding.New()
	}
	handler := api.NewServer(sb.options(hard.options(api.Options{
		Log:     log,
		Catalog: cat,
		Data:    live.Snapshot,
		AsOf:    live.AsOf,
		Updates: feed,
		// Answers are encoded, and compressed, once per data version; this
		// bounds the ones kept.
		AnswerCacheBytes: cfg.answerCacheMB << 20,
		Compression:      z,
		CacheControl:     cfg.cacheControl,
		UnmatchedFilter:  cfg.unmatchedFilter,
		Tokens:           tokens,
		TokenEndpoint:    hard.tokenEndpoint(&auth.TokenEndpoint{Registry: reg, Tokens: tokens, Log: log}),
		Keys:             keys,
		Ready:            (&readiness{ping: served.Ping, log: log, store: storeName(cfg.db)}).check,
		StoreClass:       class,
		MaxRangeDays:     cfg.maxRangeDays,
		Web:              web.New(web.Options{Demo: demoCredentials(cfg.demo), Compression: z}),
	}), cfg.sandbox.rateStyle))
	srv := hard.server(&http.Server{
		Handler:           handler,
		ReadHeaderTimeout: cfg.readHeader,
		ReadTimeout:       cfg.read,
		WriteTimeout:      cfg.write,
		IdleTimeout:       cfg.idle,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	})
	stopMetrics, err := hard.startMetrics(stdout)
	if err != nil {
		return err
	}
	// Metrics stop last, so that a drain can be watched to the end.
	defer func() {
		mctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := stopMetrics(mctx); err != nil {
			log.Warn("metrics shutdown", "err", err)
		}
	}()
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "energyapi listening on %s://%s\n", hard.scheme(), ln.Addr())
	sb.announce(stdout)
	if isTerminal(stderr) {
		writeBanner(stderr, banner{
			base:  hard.scheme() + "://" + dialAddr(ln.Addr()),
			store: storeName(cfg.db),
			data:  live.Snapshot(),
			demo:  cfg.demo,
		})
	}
	log.Info("serving", "addr", ln.Addr().String(), "data_version", live.Snapshot().Version)

	bg, stopBG := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		live.Watch(bg, cfg.pollInterval,
			func(s *dataset.Snapshot) {
				log.Info("data reloaded", "data_version", s.Version)
				feed.Poke() // the imports that wrote it can be pushed now
			},
			func(err error) { log.Error("data reload failed", "err", err) })
	})
	wg.Go(func() {
		feed.Run(bg, cfg.pollInterval, func(err error) { log.Error("updates feed failed", "err", err) })
	})
	wg.Go(func() {
		reg.Sync(bg, cfg.pollInterval, func(err error) { log.Error("client sync failed", "err", err) })
	})
	wg.Go(func() {
		tick := time.NewTicker(keyReload)
		defer tick.Stop()
		for {
			select {
			case <-bg.Done():
				return
			case <-tick.C:
				if err := keys.Refresh(bg); err != nil {
					log.Error("signing key refresh failed", "err", err)
				}
			}
		}
	})
	if run := fill; run != nil {
		fill = nil
		wg.Go(func() { run(bg) })
	}
	defer func() { stopBG(); wg.Wait() }()

	serveErr := make(chan error, 1)
	go func() { serveErr <- hard.serve(srv, ln) }()
	select {
	case err := <-serveErr:
		return err
	case <-ctx.Done():
	}
	// Stop accepting at once; let in-flight requests finish.
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), cfg.shutdownTimeout)
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
