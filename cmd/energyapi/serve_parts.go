package main

import (
	"context"
	"crypto/rand"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/coding"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/limit"
	"github.com/energyapi/energyapi/internal/poll"
)

// keyReload is how often serve reloads the signing keys; a new key waits
// two of them before it signs, so that every replica knows it first.
const keyReload = time.Minute

// parts are what one serve run builds from its configuration and store
// before it serves: the handler's dependencies (newHandler), and what the
// background polls keep current (startPolling).
type parts struct {
	log         *slog.Logger
	served      servingStore // the store as requests reach it
	cat         *dataset.Catalog
	live        *dataset.Live
	feed        *api.Feed
	reg         *auth.Registry
	keys        *auth.Keyring
	tokens      *auth.Tokens
	hard        *hardening
	sb          *sandboxSetup
	compression *coding.Compressor // nil: compression off
	plans       *limit.Plans
	plansFlush  time.Duration // how often plans flush usage and reload
	// demo holds the demo data on demand on a store serve --demo created;
	// nil on any other.
	demo *dataset.DemoSource
	// mirror is what the store's mirrors have done; nil for a store that
	// cannot hold a mirror.
	mirror *mirrorWatch
}

// newParts builds the parts on st, with --demo marking a new store as
// holding the demo data on demand first.
func newParts(ctx context.Context, cfg serveConfig, log *slog.Logger, st store) (_ *parts, err error) {
	served := servingStore{store: st, class: cfg.hard.storeClass()}
	cat, err := catalog.New()
	if err != nil {
		return nil, err
	}
	sb, err := newSandbox(cfg.sandbox, cat)
	if err != nil {
		return nil, err
	}
	if cfg.demo {
		// A registry of its own: the serving one is built once the plans
		// it loads with the clients are.
		boot, err := auth.NewRegistry(ctx, st, st, time.Now, rand.Reader)
		if err != nil {
			return nil, err
		}
		if err := ensureDemo(ctx, st, boot); err != nil {
			return nil, err
		}
	}
	mem := newMemoryBudget(cfg.memoryBudget, cfg.goMemLimit, log)
	var src dataset.PartSource = served
	ds, err := demoOnDemand(ctx, served, cat, mem)
	if err != nil {
		return nil, err
	}
	if ds != nil {
		src = ds
	}
	live, err := dataset.NewLiveWith(ctx, cat, src, dataset.LiveOptions{Budget: mem})
	if err != nil {
		return nil, err
	}
	// Opening the store and listing the first snapshot leave garbage
	// behind; give it back now rather than keep it as the process's
	// resident size.
	debug.FreeOSMemory()
	hard, err := newHardening(cfg.hard, log, st, live.Snapshot)
	if err != nil {
		return nil, err
	}
	plans, err := newPlans(ctx, cfg.plans, st, served.class, log, sb.now(), cfg.sandbox.rateStyle, hard.metrics)
	if err != nil {
		return nil, err
	}
	if err := cfg.selfService.checkMetered(plans, cfg.plans.defaultPlan); err != nil {
		return nil, err
	}
	p := &parts{
		log: log, served: served, cat: cat, live: live, feed: api.NewFeed(served, live.Snapshot),
		hard: hard, sb: sb, plans: plans, plansFlush: cfg.plans.flush, demo: ds,
		mirror: newMirrorWatch(ctx, st, cat, log),
	}
	if p.mirror != nil {
		if err := hard.metrics.Mirror(p.mirror.metricsView); err != nil {
			return nil, err
		}
	}
	if cfg.compression {
		p.compression = coding.New()
	}
	return p, p.newCredentials(ctx, cfg, st)
}

// newCredentials builds the registry of clients, the signing keys and
// the tokens. The registry loads the plans with the clients, so that a
// request never meets a client without the plan it was given.
func (p *parts) newCredentials(ctx context.Context, cfg serveConfig, st store) (err error) {
	p.reg, err = auth.NewRegistry(ctx, p.served, st, time.Now, rand.Reader, auth.LoadWith(p.plans.Reload))
	if err != nil {
		return err
	}
	// Loaded before the first request, not by the first poll: a request
	// served before would meet no client in memory (each of its checks
	// going to the store, its log naming no client).
	if _, err := p.reg.Load(ctx); err != nil {
		return err
	}
	p.keys, err = auth.NewKeyring(ctx, st, auth.KeyringConfig{Rotation: cfg.keyRotation, Activation: 2 * keyReload, TokenTTL: cfg.tokenTTL}, time.Now, rand.Reader)
	if err != nil {
		return err
	}
	// Token lifetimes follow the sandbox clock, so that a test can move
	// past a token's expiry; signing keys keep the real time.
	p.tokens = auth.NewTokens(p.keys, p.reg, cfg.origin().Issuer(), cfg.tokenTTL, p.sb.now(), rand.Reader)
	p.sb.tokens(p.tokens)
	return nil
}

// startPolling starts the background work that keeps the server in step
// with the store, every loop through poll.Every, and returns a function
// that stops it and waits for it to end.
func (p *parts) startPolling(interval time.Duration) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	report := func(msg string) func(error) { return func(err error) { p.log.Error(msg, "err", err) } }
	var wg sync.WaitGroup
	wg.Go(func() { poll.Every(ctx, interval, nil, p.reloadData) })
	// The feed moves past the imports already served before any stream
	// opens (Run retries if the store is away now).
	if err := p.feed.Start(ctx); err != nil {
		report("updates feed failed")(err)
	}
	wg.Go(func() { p.feed.Run(ctx, interval, report("updates feed failed")) })
	wg.Go(func() { p.reg.Sync(ctx, interval, report("client sync failed")) })
	wg.Go(func() { poll.Every(ctx, keyReload, nil, p.refreshKeys) })
	wg.Go(func() { p.plans.Run(ctx, p.plansFlush) }) // its last flush follows the drain
	if p.mirror != nil {
		wg.Go(func() { poll.Every(ctx, mirrorRead, nil, p.mirror.read) })
	}
	return func() { cancel(); wg.Wait() }
}

// reloadData swaps in a new snapshot when the store's data changed, and
// lets the updates feed push the imports that wrote it.
func (p *parts) reloadData(ctx context.Context) {
	changed, err := p.live.Refresh(ctx)
	switch {
	case err != nil && ctx.Err() == nil:
		p.log.Error("data reload failed", "err", err)
	case changed:
		p.log.Info("data reloaded", "data_version", p.live.Snapshot().Version)
		p.feed.Poke()
	}
}

// refreshKeys reloads the signing keys, taking on those other replicas made.
func (p *parts) refreshKeys(ctx context.Context) {
	if err := p.keys.Refresh(ctx); err != nil {
		p.log.Error("signing key refresh failed", "err", err)
	}
}
