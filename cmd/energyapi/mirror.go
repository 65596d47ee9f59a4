package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/energyapi/energyapi/client"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/mirror"
)

// mirrorConfig is everything mirror reads from flags and the environment.
type mirrorConfig struct {
	db, upstream, tokenURL, id string
	clientID, clientSecret     string
	datasets, first            string
	from, to                   string
	perSecond, perDay          int64
	maxRangeDays               int
	refresh, fetchTimeout      time.Duration
	once                       bool
	logLevel                   slog.Level
	logFormat                  logFormat
}

func mirrorFlags(c *mirrorConfig, stderr io.Writer) *flag.FlagSet {
	fs := newFlagSet("mirror", stderr)
	fs.StringVar(&c.db, "db", defaultDB, dbUsage)
	fs.Var(newBaseURLValue(&c.upstream, ""), "upstream", "the upstream deployment's base URL (required), such as https://api.example.org")
	fs.StringVar(&c.tokenURL, "token-url", "", "the upstream's token endpoint (default: the base URL's /public-api/access-token)")
	fs.StringVar(&c.clientID, "upstream-client-id", "", "the upstream client ID (prefer ENERGYAPI_UPSTREAM_CLIENT_ID)")
	fs.StringVar(&c.clientSecret, "upstream-client-secret", "", "the upstream client secret (prefer ENERGYAPI_UPSTREAM_CLIENT_SECRET: a flag shows in the process list)")
	fs.StringVar(&c.datasets, "datasets", "", "the datasets to mirror, comma-separated, fetched in this order of preference (default: every dataset; those the upstream does not serve are left out)")
	fs.StringVar(&c.first, "first", "", "datasets to fetch before the others, comma-separated")
	fs.StringVar(&c.from, "from", "", "first day to mirror, yyyy-mm-dd (default: 1 January six years before this one)")
	fs.StringVar(&c.to, "to", "", "last day to mirror, yyyy-mm-dd (default: today, moving with the days)")
	fs.Int64Var(&c.perSecond, "per-second", 1, "the upstream's calls a second (the public gateway's: 1); 0 for no limit")
	fs.Int64Var(&c.perDay, "per-day", 300, "the upstream's calls a UTC day for these credentials (the public gateway's: about 300); 0 for no limit")
	fs.IntVar(&c.maxRangeDays, "max-range-days", 60, "the upstream's longest date range of a request, for datasets that declare none")
	fs.DurationVar(&c.refresh, "refresh", 24*time.Hour, "how often windows whose values may still change are fetched again (0: never); each refresh of every dataset costs about 140 calls")
	fs.DurationVar(&c.fetchTimeout, "fetch-timeout", time.Minute, "the longest one call may take")
	fs.StringVar(&c.id, "id", "mirror", "this mirror's name in the store: each process mirroring into one store needs its own")
	fs.BoolVar(&c.once, "once", false, "stop when every window is fetched, rather than keep the copy fresh")
	fs.TextVar(&c.logLevel, "log-level", slog.LevelInfo, "log level: debug, info, warn or error")
	c.logFormat = logAuto
	fs.Var(&c.logFormat, "log-format", "log format on stderr: text, json, or auto (text on a terminal, json otherwise)")
	return fs
}

func runMirror(ctx context.Context, args []string, getenv func(string) string, _, stderr io.Writer) error {
	var c mirrorConfig
	fs := mirrorFlags(&c, stderr)
	if err := parseFlags(fs, args, getenv); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("mirror takes no arguments")
	}
	if c.upstream == "" {
		return usagef("mirror needs --upstream, the base URL of the deployment to mirror")
	}
	if c.clientID == "" || c.clientSecret == "" {
		return usagef("mirror needs the upstream's credentials: ENERGYAPI_UPSTREAM_CLIENT_ID and ENERGYAPI_UPSTREAM_CLIENT_SECRET")
	}
	cfg, err := c.mirrorConfig()
	if err != nil {
		return err
	}
	st, err := openStore(ctx, c.db, true)
	if err != nil {
		return err
	}
	defer st.Close()
	ms, ok := st.(mirror.Store)
	if !ok {
		return errors.New("mirror: the store cannot hold a mirror")
	}
	cfg.Store = ms
	cfg.Log = newLogger(stderr, c.logFormat, c.logLevel)
	err = mirror.New(cfg).Run(ctx)
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		cfg.Log.Info("mirror: stopped")
		return nil
	}
	return err
}

// mirrorConfig builds the mirror's setting from the flags, all but the
// store and the log.
func (c *mirrorConfig) mirrorConfig() (mirror.Config, error) {
	cat, err := catalog.New()
	if err != nil {
		return mirror.Config{}, err
	}
	ds, named, err := mirrorDatasets(cat, c.datasets, c.first)
	if err != nil {
		return mirror.Config{}, err
	}
	today := energy.DateOf(time.Now())
	first := energy.Date{Year: today.Year - 6, Month: time.January, Day: 1}
	if c.from != "" {
		if first, err = parseDay("--from", c.from); err != nil {
			return mirror.Config{}, err
		}
	}
	last := today
	if c.to != "" {
		if last, err = parseDay("--to", c.to); err != nil {
			return mirror.Config{}, err
		}
	}
	if last.Compare(first) < 0 {
		return mirror.Config{}, usagef("--from %s is after --to %s", first, last)
	}
	opts := []client.Option{
		client.WithCredentials(c.clientID, c.clientSecret),
		client.WithRetry(client.RetryPolicy{MaxAttempts: 1}), // every call is the mirror's to count
		client.WithMaxRangeDays(0),
		client.WithUserAgent("energyapi-mirror"),
	}
	if c.tokenURL != "" {
		opts = append(opts, client.WithTokenURL(c.tokenURL))
	}
	host, _ := os.Hostname()
	return mirror.Config{
		Upstream: client.New(c.upstream, opts...), UpstreamURL: c.upstream, Catalog: cat,
		Plan:        mirror.PlanOptions{Datasets: ds, Named: named, First: first, Last: last, MaxRangeDays: c.maxRangeDays},
		LastIsToday: c.to == "", PerSecond: c.perSecond, PerDay: c.perDay,
		Refresh: c.refresh, Settling: catalog.Settling, FetchTimeout: c.fetchTimeout,
		ID: c.id, Host: host, PID: int64(os.Getpid()), Once: c.once, Gone: processGone,
	}, nil
}

// mirrorDatasets returns the datasets to mirror in order of preference,
// and how many lead it: those of --first, before the rest of --datasets'
// (or the catalogue's importable ones) in their order.
func mirrorDatasets(cat *dataset.Catalog, chosen, first string) ([]*dataset.Dataset, int, error) {
	lookup := func(list string) ([]*dataset.Dataset, error) {
		var out []*dataset.Dataset
		for _, name := range strings.Split(list, ",") {
			if name = strings.TrimSpace(name); name == "" {
				continue
			}
			d, ok := cat.Lookup(name)
			if !ok || d.Import == nil {
				return nil, unknownWord("dataset", name, "energyapi datasets", cat.Names())
			}
			if !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
		return out, nil
	}
	all, err := lookup(chosen)
	if err != nil {
		return nil, 0, err
	}
	if len(all) == 0 {
		for _, d := range cat.All() {
			if d.Import != nil {
				all = append(all, d)
			}
		}
	}
	lead, err := lookup(first)
	if err != nil {
		return nil, 0, err
	}
	for _, d := range lead {
		if !slices.Contains(all, d) {
			return nil, 0, invalidValue("--first", d.Name, "a dataset that --datasets names")
		}
	}
	rest := slices.DeleteFunc(slices.Clone(all), func(d *dataset.Dataset) bool { return slices.Contains(lead, d) })
	return append(lead, rest...), len(lead), nil
}

// processGone reports whether no process of this host has the PID.
func processGone(pid int64) bool {
	return errors.Is(syscall.Kill(int(pid), 0), syscall.ESRCH)
}
