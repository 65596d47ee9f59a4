package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/energyapi/energyapi/client"
	"github.com/energyapi/energyapi/internal/catalog"
)

// getBulkConfig is what get --bulk reads from flags and the environment.
type getBulkConfig struct {
	dir          string
	datasets     []string
	from, to     string
	formats      []string
	baseURL      string
	clientID     string
	clientSecret string
}

// parseGetBulkFlags reads get --bulk DIR DATASET... and its flags.
func parseGetBulkFlags(args []string, getenv func(string) string) (getBulkConfig, error) {
	var c getBulkConfig
	cat, err := catalog.New()
	if err != nil {
		return c, err
	}
	fs := newFlagSet("get --bulk", io.Discard)
	fs.StringVar(&c.dir, "bulk", "", "the `directory` the files are mirrored into, as DATASET/PERIOD.FORMAT")
	fs.StringVar(&c.from, "from", "", "first period: a month yyyy-mm or a year yyyy (default: the first the server has)")
	fs.StringVar(&c.to, "to", "", "last period, included: a month yyyy-mm or a year yyyy (default: the last)")
	formats := fs.String("bulk-formats", "parquet,csv.gz", "the formats mirrored, comma-separated: parquet, csv.gz")
	fs.Var(newBaseURLValue(&c.baseURL, "http://127.0.0.1:8080"), "base-url", "the API server's base URL")
	fs.StringVar(&c.clientID, "client-id", "", "client ID (prefer ENERGYAPI_CLIENT_ID)")
	fs.StringVar(&c.clientSecret, "client-secret", "", "client secret (prefer ENERGYAPI_CLIENT_SECRET: a flag shows in the process list)")
	envFor := func(name string) string {
		for _, f := range []string{"base-url", "client-id", "client-secret"} {
			if name == envName(f) {
				return getenv(name)
			}
		}
		return ""
	}
	if err := parseFlags(fs, args, envFor); err != nil {
		return c, err
	}
	if c.dir == "" {
		return c, usagef("get --bulk needs a directory")
	}
	if fs.NArg() == 0 {
		return c, usagef("get --bulk %s needs datasets: %s (see energyapi datasets)", c.dir, strings.Join(cat.Names(), ", "))
	}
	for _, name := range fs.Args() {
		d, ok := cat.Lookup(name)
		if !ok {
			return c, unknownWord("dataset", name, "energyapi datasets", cat.Names())
		}
		c.datasets = append(c.datasets, d.Name)
	}
	for _, f := range strings.Split(*formats, ",") {
		switch f = strings.TrimSpace(f); f {
		case "parquet", "csv.gz":
			c.formats = append(c.formats, f)
		default:
			return c, invalidValue("--bulk-formats", *formats, "want parquet, csv.gz or both, comma-separated")
		}
	}
	if c.clientID == "" || c.clientSecret == "" {
		return c, usagef("get needs credentials: --client-id and --client-secret, or ENERGYAPI_CLIENT_ID and ENERGYAPI_CLIENT_SECRET")
	}
	return c, nil
}

// runGetBulk mirrors the chosen datasets' bulk files into a directory
// (client.Mirror), naming each file it fetches on stdout and what it did
// in a last line.
func runGetBulk(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer, extra ...client.Option) error {
	cfg, err := parseGetBulkFlags(args, getenv)
	if err != nil {
		return err
	}
	opts := append([]client.Option{client.WithCredentials(cfg.clientID, cfg.clientSecret), client.WithUserAgent("energyapi-cli")}, extra...)
	c := client.New(cfg.baseURL, opts...)
	rep, err := c.Mirror(ctx, cfg.dir, client.MirrorOptions{
		Datasets: cfg.datasets, From: cfg.from, To: cfg.to, Formats: cfg.formats,
		Progress: func(ev client.MirrorEvent) {
			if ev.Action != "unchanged" {
				fmt.Fprintf(stdout, "%s %s (%d bytes)\n", ev.Action, ev.Path, ev.Bytes)
			}
		},
	})
	fmt.Fprintf(stdout, "%d fetched, %d resumed, %d unchanged, %d bytes\n", rep.Fetched, rep.Resumed, rep.Unchanged, rep.Bytes)
	return err
}
