package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/energyapi/energyapi/client"
)

// getConfig is everything get reads from flags and the environment.
type getConfig struct {
	dataset      string
	baseURL      string
	clientID     string
	clientSecret string
	format       string // json, csv or table
	maxRangeDays int
	thermo       client.ThermoQuery
	from, to     client.Date
}

func parseGetFlags(args []string, getenv func(string) string, stdout, stderr io.Writer) (getConfig, error) {
	var c getConfig
	if len(args) == 0 {
		return c, usagef("get needs a dataset: thermoelectric or peak-valley")
	}
	if args[0] != "thermoelectric" && args[0] != "peak-valley" {
		return c, unknownWord("dataset", args[0], "energyapi get -h", []string{"thermoelectric", "peak-valley"})
	}
	c.dataset, args = args[0], args[1:]
	fs := newFlagSet("get "+c.dataset, stderr)
	fs.Var(newBaseURLValue(&c.baseURL, "http://127.0.0.1:8080"), "base-url", "the API server's base URL")
	fs.StringVar(&c.clientID, "client-id", "", "client ID (prefer ENERGYAPI_CLIENT_ID)")
	fs.StringVar(&c.clientSecret, "client-secret", "", "client secret (prefer ENERGYAPI_CLIENT_SECRET: a flag shows in the process list)")
	fs.StringVar(&c.format, "format", "", "output: json, csv or table (default table on a terminal, json otherwise)")
	fs.IntVar(&c.maxRangeDays, "max-range-days", 60, "longest date range per request; longer ranges are split (0: never split)")
	var from, to string
	switch c.dataset {
	case "thermoelectric":
		fs.IntVar(&c.thermo.Year, "year", 0, "the year (required)")
		fs.StringVar(&c.thermo.Region, "region", "", "region to extract")
		fs.Func("province", "a province to extract; repeat for several", func(s string) error {
			c.thermo.Provinces = append(c.thermo.Provinces, s)
			return nil
		})
		fs.StringVar(&c.thermo.Category, "category", "", `"Non cogenerativa" or "Cogenerativa"`)
		fs.StringVar(&c.thermo.Subcategory, "subcategory", "", "a subcategory of the category")
	case "peak-valley":
		fs.StringVar(&from, "from", "", "first day, dd/mm/yyyy (required)")
		fs.StringVar(&to, "to", "", "last day, included, dd/mm/yyyy (required)")
	}
	if err := parseFlags(fs, args, getenv); err != nil {
		return c, err
	}
	if fs.NArg() != 0 {
		return c, usagef("get %s takes no arguments", c.dataset)
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
	switch c.dataset {
	case "thermoelectric":
		if c.thermo.Year == 0 {
			return c, usagef("get thermoelectric needs --year")
		}
	case "peak-valley":
		if from == "" || to == "" {
			return c, usagef("get peak-valley needs --from and --to")
		}
		var err error
		if c.from, err = client.ParseDate(from); err != nil {
			return c, invalidValue("--from", from, "want a day as dd/mm/yyyy, such as 31/01/2024")
		}
		if c.to, err = client.ParseDate(to); err != nil {
			return c, invalidValue("--to", to, "want a day as dd/mm/yyyy, such as 31/01/2024")
		}
		if c.from.Compare(c.to) > 0 {
			return c, usagef("--from %s is after --to %s", c.from, c.to)
		}
	}
	return c, nil
}

func runGet(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	return runGetWith(ctx, args, getenv, stdout, stderr)
}

// runGetWith is runGet with extra client options: tests pass an HTTP client
// that checks the traffic and a sleep that records waits.
func runGetWith(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, extra ...client.Option) error {
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
	c := client.New(cfg.baseURL, append(opts, extra...)...)
	switch cfg.dataset {
	case "thermoelectric":
		recs, err := c.Thermoelectric(ctx, cfg.thermo)
		if err != nil {
			return err
		}
		return writeThermo(stdout, cfg.format, recs)
	default:
		recs, err := c.PeakValley(ctx, cfg.from, cfg.to)
		if err != nil {
			return err
		}
		return writePeakValley(stdout, cfg.format, recs)
	}
}

// Output: one row or object per API record, numbers with a decimal point,
// whatever the API's format, so that spreadsheets and pandas read them.

type thermoRow struct {
	Year          int     `json:"year"`
	CapacityType  string  `json:"capacity_type"`
	Region        string  `json:"region"`
	Province      string  `json:"province"`
	Category      string  `json:"category"`
	Subcategory   string  `json:"subcategory"`
	ProductionGWh float64 `json:"production_GWh"`
}

func writeThermo(w io.Writer, format string, recs []client.ThermoRecord) error {
	rows := make([]thermoRow, len(recs))
	cells := make([][]string, len(recs))
	for i, r := range recs {
		rows[i] = thermoRow{
			Year: r.Year, CapacityType: r.CapacityType, Region: r.Region, Province: r.Province,
			Category: r.Category, Subcategory: r.Subcategory, ProductionGWh: r.ProductionGWh,
		}
		cells[i] = []string{strconv.Itoa(r.Year), r.CapacityType, r.Region, r.Province, r.Category, r.Subcategory, plain(r.ProductionGWh)}
	}
	switch format {
	case "json":
		return writeJSON(w, rows)
	case "csv":
		return writeCSV(w, []string{"year", "capacity_type", "region", "province", "category", "subcategory", "production_GWh"}, cells)
	}
	for i, r := range recs {
		cells[i][6] = strconv.FormatFloat(r.ProductionGWh, 'f', 3, 64)
	}
	return writeTable(w, []string{"YEAR", "CAPACITY", "REGION", "PROVINCE", "CATEGORY", "SUBCATEGORY", "GWH"}, cells)
}

type peakValleyRow struct {
	DateTime string  `json:"datetime"` // RFC 3339 with the Europe/Rome offset
	Kind     string  `json:"kind"`     // peak or valley
	LoadGW   float64 `json:"load_GW"`
}

func writePeakValley(w io.Writer, format string, recs []client.PeakValleyRecord) error {
	rows := make([]peakValleyRow, len(recs))
	cells := make([][]string, len(recs))
	for i, r := range recs {
		rows[i] = peakValleyRow{DateTime: r.At.Format(time.RFC3339), Kind: string(r.Kind), LoadGW: r.LoadGW}
		cells[i] = []string{rows[i].DateTime, rows[i].Kind, plain(r.LoadGW)}
	}
	switch format {
	case "json":
		return writeJSON(w, rows)
	case "csv":
		return writeCSV(w, []string{"datetime", "kind", "load_GW"}, cells)
	}
	for i, r := range recs {
		cells[i][0] = r.At.Format("2006-01-02 15:04 -07:00")
		cells[i][2] = strconv.FormatFloat(r.LoadGW, 'f', 3, 64)
	}
	return writeTable(w, []string{"TIME (EUROPE/ROME)", "KIND", "GW"}, cells)
}

// plain writes v with a decimal point, no exponent and no more digits than
// it takes.
func plain(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func writeCSV(w io.Writer, header []string, rows [][]string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	if err := cw.WriteAll(rows); err != nil { // WriteAll flushes
		return err
	}
	return cw.Error()
}

// writeTable aligns columns for people to read; the last column holds the
// number and is aligned right, so that digits line up.
func writeTable(w io.Writer, header []string, rows [][]string) error {
	last := len(header) - 1
	width := len(header[last])
	for _, r := range rows {
		width = max(width, len(r[last]))
	}
	pad := func(s string) string { return strings.Repeat(" ", width-len(s)) + s }
	header = append(header[:last:last], pad(header[last]))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	writeRow := func(cells []string) {
		for i, c := range cells {
			if i > 0 {
				fmt.Fprint(tw, "\t")
			}
			fmt.Fprint(tw, c)
		}
		fmt.Fprintln(tw)
	}
	writeRow(header)
	for _, r := range rows {
		writeRow(append(r[:last:last], pad(r[last])))
	}
	return tw.Flush()
}
