package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/energyapi/energyapi/client"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
)

// getConfig is everything get reads from flags and the environment.
type getConfig struct {
	dataset      *dataset.Dataset
	baseURL      string
	clientID     string
	clientSecret string
	format       string // json, csv or table
	maxRangeDays int
	cacheDir     string // "" for no conditional requests
	params       url.Values
}

// getEnvFlags are the flags of get that the environment may set; the
// dataset's own parameters come from the command line only.
var getEnvFlags = []string{"base-url", "client-id", "client-secret", "format", "max-range-days", "cache-dir"}

func parseGetFlags(args []string, getenv func(string) string, stdout, stderr io.Writer) (getConfig, error) {
	var c getConfig
	cat, err := catalog.New()
	if err != nil {
		return c, err
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return c, usagef("get needs a dataset: %s (see energyapi datasets)", strings.Join(cat.Names(), ", "))
	}
	d, ok := cat.Lookup(args[0])
	if !ok {
		return c, unknownWord("dataset", args[0], "energyapi datasets", cat.Names())
	}
	c.dataset, args = d, args[1:]
	c.params = url.Values{}
	fs := newFlagSet("get "+d.Name, stderr)
	fs.Var(newBaseURLValue(&c.baseURL, "http://127.0.0.1:8080"), "base-url", "the API server's base URL")
	fs.StringVar(&c.clientID, "client-id", "", "client ID (prefer ENERGYAPI_CLIENT_ID)")
	fs.StringVar(&c.clientSecret, "client-secret", "", "client secret (prefer ENERGYAPI_CLIENT_SECRET: a flag shows in the process list)")
	fs.StringVar(&c.format, "format", "", "output: json, csv or table (default table on a terminal, json otherwise)")
	fs.IntVar(&c.maxRangeDays, "max-range-days", 60, "longest date range per request; longer ranges are split (0: never split)")
	fs.StringVar(&c.cacheDir, "cache-dir", "", "keep answers with their ETags in this directory and revalidate them (If-None-Match): an unchanged answer costs a 304 with no body")
	pf := addParamFlags(fs, d, c.params)
	// The dataset's own parameters come from the command line only.
	envFor := func(name string) string {
		for _, f := range getEnvFlags {
			if name == envName(f) {
				return getenv(name)
			}
		}
		return ""
	}
	if err := parseFlags(fs, args, envFor); err != nil {
		return c, err
	}
	if fs.NArg() != 0 {
		return c, usagef("get %s takes no arguments", d.Name)
	}
	switch c.format {
	case "json", "csv", "table":
	case "":
		c.format = "json"
		if isTerminal(stdout) {
			c.format = "table"
		}
	default:
		return c, invalidValue("--format", c.format, "want json, csv or table")
	}
	if c.clientID == "" || c.clientSecret == "" {
		return c, usagef("get needs credentials: --client-id and --client-secret, or ENERGYAPI_CLIENT_ID and ENERGYAPI_CLIENT_SECRET")
	}
	return c, pf.check(d)
}

// paramFlags are the flags get makes of a dataset's query parameters, one
// per parameter, named as the API names it, and what they set.
type paramFlags struct {
	params   url.Values
	given    map[string]string // parameter -> the flag that set it, for messages
	required []string
	instants []string
}

// addParamFlags adds the flags of d's query parameters to fs; they set params.
func addParamFlags(fs *flag.FlagSet, d *dataset.Dataset, params url.Values) *paramFlags {
	pf := &paramFlags{params: params, given: map[string]string{}}
	for _, p := range d.Parameters() {
		switch p.Kind {
		case dataset.DateRange:
			fs.Func(p.Name, "first day, dd/mm/yyyy (required; --from for short)", pf.setAs(p.Name, p.Name, false))
			fs.Func("from", "first day, dd/mm/yyyy (same as --"+p.Name+")", pf.setAs("from", p.Name, false))
			fs.Func(p.To, "last day, included, dd/mm/yyyy (required; --to for short)", pf.setAs(p.To, p.To, false))
			fs.Func("to", "last day, included, dd/mm/yyyy (same as --"+p.To+")", pf.setAs("to", p.To, false))
			pf.required = append(pf.required, p.Name, p.To)
		case dataset.AsOfParam, dataset.ChangedSinceParam:
			alias := map[dataset.ParamKind]string{dataset.AsOfParam: "as-of", dataset.ChangedSinceParam: "changed-since"}[p.Kind]
			usage := p.Doc + " (--" + alias + " for short)"
			fs.Func(p.Name, usage, pf.setAs(p.Name, p.Name, false))
			fs.Func(alias, "same as --"+p.Name, pf.setAs(alias, p.Name, false))
			pf.instants = append(pf.instants, p.Name)
		default:
			usage := p.Doc
			if p.Kind == dataset.Enum {
				usage += " One of: " + strings.Join(d.EnumValues(p), ", ") + "."
			}
			if p.Many {
				usage += " Repeat for several."
			}
			if p.Required {
				usage += " (required)"
				pf.required = append(pf.required, p.Name)
			}
			fs.Func(p.Name, usage, pf.setAs(p.Name, p.Name, p.Many))
		}
	}
	return pf
}

// setAs returns the Set of flag flagName, which gives parameter name a value,
// or adds one if repeat.
func (pf *paramFlags) setAs(flagName, name string, repeat bool) func(string) error {
	return func(s string) error {
		pf.given[name] = "--" + flagName
		if repeat {
			pf.params.Add(name, s)
		} else {
			pf.params.Set(name, s)
		}
		return nil
	}
}

// check returns a usage error for a required parameter of d missing, an
// instant that is not RFC 3339, or a date range that is malformed or ends
// before it starts.
func (pf *paramFlags) check(d *dataset.Dataset) error {
	for _, name := range pf.required {
		if pf.params.Get(name) == "" {
			return usagef("get %s needs --%s", d.Name, name)
		}
	}
	for _, name := range pf.instants {
		if v := pf.params.Get(name); v != "" {
			if _, err := time.Parse(time.RFC3339Nano, v); err != nil {
				return invalidValue(pf.given[name], v, "want an RFC 3339 instant, such as 2024-03-01T12:00:00Z")
			}
		}
	}
	for _, p := range d.Params {
		if p.Kind != dataset.DateRange {
			continue
		}
		from, err := client.ParseDate(pf.params.Get(p.Name))
		if err != nil {
			return invalidValue(pf.given[p.Name], pf.params.Get(p.Name), "want a day as dd/mm/yyyy, such as 31/01/2024")
		}
		to, err := client.ParseDate(pf.params.Get(p.To))
		if err != nil {
			return invalidValue(pf.given[p.To], pf.params.Get(p.To), "want a day as dd/mm/yyyy, such as 31/01/2024")
		}
		if from.Compare(to) > 0 {
			return usagef("%s %s is after %s %s", pf.given[p.Name], from, pf.given[p.To], to)
		}
	}
	return nil
}

func runGet(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	return runGetWith(ctx, args, getenv, stdout, stderr)
}

// runGetWith is runGet with extra client options: tests pass an HTTP client
// that checks the traffic and a sleep that records waits.
func runGetWith(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, extra ...client.Option) error {
	if len(args) > 0 && (args[0] == "--bulk" || args[0] == "-bulk" || strings.HasPrefix(args[0], "--bulk=") || strings.HasPrefix(args[0], "-bulk=")) {
		return runGetBulk(ctx, args, getenv, stdout, extra...)
	}
	cfg, err := parseGetFlags(args, getenv, stdout, stderr)
	if err != nil {
		return err
	}
	opts := []client.Option{
		client.WithCredentials(cfg.clientID, cfg.clientSecret),
		client.WithUserAgent("energyapi-cli"),
		client.WithMaxRangeDays(cfg.maxRangeDays),
		client.WithProgress(func(p client.Progress) {
			if p.Requests > 1 {
				fmt.Fprintf(stderr, "energyapi: request %d of %d: %s to %s\n", p.Request, p.Requests, p.From, p.To)
			}
		}),
	}
	if cfg.cacheDir != "" {
		opts = append(opts, client.WithCache(client.DirCache(cfg.cacheDir)))
	}
	c := client.New(cfg.baseURL, append(opts, extra...)...)
	recs, err := c.Get(ctx, cfg.dataset.Path(), cfg.params)
	if err != nil {
		return err
	}
	cols := outputColumns(cfg.dataset)
	for _, v := range cfg.params["include"] {
		if strings.EqualFold(strings.TrimSpace(v), dataset.IncludeMeta) {
			cols = append(cols, column{dataset.PublishedAt, dataset.Field{Name: dataset.PublishedAt, Kind: dataset.Text}},
				column{dataset.RevisedAt, dataset.Field{Name: dataset.RevisedAt, Kind: dataset.Text}})
			break
		}
	}
	return writeRecords(stdout, cfg.format, cols, recs)
}

// column is one column of get's output.
type column struct {
	name  string
	field dataset.Field
}

// outputColumns are the dataset's shown fields, an instant and its zone and
// offset fields becoming one column.
func outputColumns(d *dataset.Dataset) []column {
	var out []column
	for _, f := range d.Fields {
		if !f.Hidden && f.Kind != dataset.Zone {
			out = append(out, column{f.Name, f})
		}
	}
	return out
}

// cell is one value of get's output: the API's string made plain: numbers
// with a decimal point, instants in RFC 3339 with their offset.
type cell struct {
	text   string // for CSV
	table  string // for people
	json   any
	number bool
}

func cellOf(r client.Record, col column) (cell, error) {
	v := r[col.name]
	switch col.field.Kind {
	case dataset.Instant:
		t, err := r.TimeOf(col.name)
		if err != nil {
			return cell{}, fmt.Errorf("field %s %q: %w", col.name, v, err)
		}
		s := t.Format(time.RFC3339)
		return cell{text: s, table: t.Format("2006-01-02 15:04 -07:00"), json: s}, nil
	case dataset.YearOf:
		y, err := strconv.Atoi(v)
		if err != nil {
			return cell{}, fmt.Errorf("field %s %q: %w", col.name, v, err)
		}
		return cell{text: v, table: v, json: y}, nil
	case dataset.Number:
		f, ok, err := r.Float(col.name)
		if err != nil {
			return cell{}, err
		}
		if !ok {
			return cell{json: nil, number: true}, nil
		}
		decimals := col.field.Format.Decimals
		if decimals < 0 {
			decimals = -1
		}
		return cell{text: strconv.FormatFloat(f, 'f', -1, 64), table: strconv.FormatFloat(f, 'f', decimals, 64), json: f, number: true}, nil
	}
	return cell{text: v, table: v, json: v}, nil
}

// writeRecords writes one row or object per API record.
func writeRecords(w io.Writer, format string, cols []column, recs []client.Record) error {
	rows := make([][]cell, len(recs))
	for i, r := range recs {
		rows[i] = make([]cell, len(cols))
		for j, col := range cols {
			c, err := cellOf(r, col)
			if err != nil {
				return fmt.Errorf("record %d: %w", i, err)
			}
			rows[i][j] = c
		}
	}
	switch format {
	case "json":
		return writeJSONRows(w, cols, rows)
	case "csv":
		cw := csv.NewWriter(w)
		header := make([]string, len(cols))
		for j, c := range cols {
			header[j] = c.name
		}
		if err := cw.Write(header); err != nil {
			return err
		}
		for _, r := range rows {
			line := make([]string, len(r))
			for j, c := range r {
				line[j] = c.text
			}
			if err := cw.Write(line); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	}
	return writeTable(w, cols, rows)
}

// writeJSONRows writes an indented array of objects whose keys keep the
// dataset's field order.
func writeJSONRows(w io.Writer, cols []column, rows [][]cell) error {
	var b strings.Builder
	if len(rows) == 0 {
		b.WriteString("[]\n")
	} else {
		b.WriteString("[\n")
		for i, r := range rows {
			b.WriteString("  {\n")
			for j, c := range r {
				k, _ := json.Marshal(cols[j].name)
				v, err := json.Marshal(c.json)
				if err != nil {
					return err
				}
				fmt.Fprintf(&b, "    %s: %s", k, v)
				if j < len(r)-1 {
					b.WriteByte(',')
				}
				b.WriteByte('\n')
			}
			b.WriteString("  }")
			if i < len(rows)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString("]\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeTable aligns columns for people to read; numbers are aligned right,
// so that digits line up.
func writeTable(w io.Writer, cols []column, rows [][]cell) error {
	width := make([]int, len(cols))
	for j, c := range cols {
		width[j] = len(c.name)
		for _, r := range rows {
			width[j] = max(width[j], len(r[j].table))
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	line := func(cells []string, right []bool) {
		for j, s := range cells {
			if j > 0 {
				fmt.Fprint(tw, "\t")
			}
			if right[j] {
				s = strings.Repeat(" ", width[j]-len(s)) + s
			}
			fmt.Fprint(tw, s)
		}
		fmt.Fprintln(tw)
	}
	right := make([]bool, len(cols))
	header := make([]string, len(cols))
	for j, c := range cols {
		header[j] = strings.ToUpper(c.name)
		right[j] = c.field.Kind == dataset.Number
	}
	line(header, right)
	for _, r := range rows {
		cells := make([]string, len(r))
		for j, c := range r {
			cells[j] = c.table
		}
		line(cells, right)
	}
	return tw.Flush()
}
