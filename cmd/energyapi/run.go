package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/energyapi/energyapi/internal/catalog"
)

const usage = `energyapi serves the Energy Data Public API.

Usage:
  energyapi serve   [flags]                 run the HTTP server
  energyapi init    [--db D]                create an empty store
  energyapi clients create --name NAME      register a client (prints its secret once)
  energyapi clients list                    list clients, one JSON object per line
  energyapi clients revoke ID               revoke a client and its tokens
  energyapi clients rotate-secret ID        give a client a new secret
  energyapi clients set-plan ID PLAN        give a client a plan
  energyapi clients usage [--days N] [ID]   print clients' calls by day and dataset
  energyapi plans set|list|delete           define the plans clients are given (plans -h)
  energyapi import --dataset D FILE...      import files into dataset D (see energyapi datasets)
  energyapi demo [--from --to --seed]       write the demo dataset into the store
  energyapi datasets                        list the datasets: path, parameters, fields
  energyapi get DATASET [--PARAM VALUE...]  fetch a dataset from a server (get DATASET -h for its parameters)
  energyapi mirror --upstream URL           keep a copy of another deployment's data in the store (mirror -h)
  energyapi version                         print the version

Only "init", "import", "demo" and "serve --demo" create a SQLite store; the
other commands refuse a file that does not exist.

Every flag can also be set by an environment variable: ENERGYAPI_ and the flag
name in capitals with - as _ (for example --db is ENERGYAPI_DB). Flags win.
Run "energyapi COMMAND -h" for a command's flags.

Exit status: 0 success, 1 failure, 2 usage error.
`

// commands are the names run dispatches on, for suggestions.
func commands() []string {
	var names []string
	for _, c := range commandTable() {
		names = append(names, c.name)
	}
	return names
}

// command is a command's name and what runs it, given the arguments after
// the name.
type command struct {
	name string
	run  func(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error
}

// commandTable is every command, in the order help lists them, with what
// runs it; the commands that need less than run gives are wrapped.
func commandTable() []command {
	return []command{
		{"serve", runServe},
		{"init", runInit},
		{"clients", runClients},
		{"plans", runPlans},
		{"import", runImport},
		{"demo", runDemo},
		{"mirror", runMirror},
		{"datasets", func(_ context.Context, rest []string, getenv func(string) string, stdout, _ io.Writer) error {
			return runDatasets(rest, getenv, stdout, isTerminal(stdout))
		}},
		{"get", func(ctx context.Context, rest []string, getenv func(string) string, stdout, stderr io.Writer) error {
			if len(rest) > 0 && isHelpArg(rest[0]) {
				return &helpError{text: getHelp(getenv)}
			}
			return runGet(ctx, rest, getenv, stdout, stderr)
		}},
		{"version", func(_ context.Context, rest []string, getenv func(string) string, stdout, _ io.Writer) error {
			return runVersion(rest, getenv, stdout)
		}},
		{"help", func(ctx context.Context, rest []string, getenv func(string) string, stdout, stderr io.Writer) error {
			if len(rest) > 0 {
				// "help serve" is "serve -h".
				return dispatch(ctx, []string{rest[0], "-h"}, getenv, stdout, stderr)
			}
			return &helpError{text: usage}
		}},
	}
}

// run dispatches to a subcommand. It never exits the process; main does.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := dispatch(ctx, args, getenv, stdout, stderr)
	var h *helpError
	if errors.As(err, &h) {
		_, err = io.WriteString(stdout, h.text)
	}
	return err
}

func dispatch(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usagef("no command given")
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "--version", "-version":
		cmd = "version"
	case "-h", "-help", "--help":
		return &helpError{text: usage}
	}
	for _, c := range commandTable() {
		if c.name == cmd {
			return c.run(ctx, rest, getenv, stdout, stderr)
		}
	}
	return unknownWord("command", cmd, "energyapi help", commands())
}

// getHelp is "get -h": the synopsis and, for each dataset, its flags, taken
// from get's own flag sets.
func getHelp(getenv func(string) string) string {
	text := commandHelp("get")
	cat, err := catalog.New()
	if err != nil {
		return text
	}
	for _, ds := range cat.Names() {
		_, err := parseGetFlags([]string{ds, "-h"}, getenv, io.Discard, io.Discard)
		var h *helpError
		if errors.As(err, &h) {
			text += "\n" + h.text
		}
	}
	return text
}

// The help text of each command and subcommand.
const (
	helpServe = `Usage: energyapi serve [flags]

Run the HTTP server on the store named by --db. With --demo, create the store
if needed, register the demo client (demo / demo-secret) and, on an empty
store, serve the demo data 2019-2025: every period answers from the first
second, each part generated when first asked and then kept in the store;
--demo listens only on loopback addresses unless --allow-public is given.
Without --demo the store must exist.
On a terminal it prints a start-up banner and human-readable logs; elsewhere
it logs JSON (see --log-format).
`

	helpInit = `Usage: energyapi init [--db D]

Create the store named by --db, empty, with mode 0600 for a SQLite file, and
bring its schema up to date. Running it on an existing store only brings the
schema up to date.
`

	helpClients = `Usage:
  energyapi clients create --name NAME      register a client; prints {"client_id","client_secret","name"} once
  energyapi clients list                    one JSON object per client, never a secret
  energyapi clients revoke ID               refuse the client's token requests and tokens on every server within 100 ms
  energyapi clients rotate-secret ID        print a new secret; the old one and its tokens stop within 100 ms
  energyapi clients set-plan ID PLAN        give the client a plan ("" for the default plan)
  energyapi clients usage [--days N] [ID]   print calls by client, day and dataset

The store must exist (see "energyapi init").
`

	helpClientsCreate = `Usage: energyapi clients create --name NAME [--plan PLAN] [--db D]

Register a client and print {"client_id","client_secret","name"}; the secret
is shown this once.
`

	helpClientsList = `Usage: energyapi clients list [--db D]

Print one JSON object per client, never a secret.
`

	helpClientsRevoke = `Usage: energyapi clients revoke [--db D] ID

Refuse the client's token requests and its tokens on every serve process
sharing the store within 100 ms (PostgreSQL notifies them; SQLite servers
read the clients version every 20 ms).
`

	helpClientsRotateSecret = `Usage: energyapi clients rotate-secret [--db D] ID

Give the client a new secret and print it; the old secret, and every token
issued with it, stop working on every serve process sharing the store within
100 ms.
`

	helpImport = `Usage: energyapi import --dataset D [--db D] FILE...

Parse and check every row of every FILE (CSV, XLSX, or JSON for peak-valley),
then write them all in one transaction; a bad row anywhere stores nothing.
Prints a one-line JSON summary, and on a terminal its progress on stderr.
Creates the store if it does not exist.
`

	helpDemo = `Usage: energyapi demo [--db D] [--from DAY] [--to DAY] [--seed N] [--periods P,...]

Write the deterministic demo dataset into the store (creating it if needed):
every part the store does not hold, the same parts serve --demo generates
when first asked; writing it again changes nothing, and parts an import
wrote stay. Every dataset comes from one synthetic Italian power system
(see docs/data.md).

  --from DAY  first day of the time series, yyyy-mm-dd (default 2019-01-01)
  --to DAY    last day of the time series, yyyy-mm-dd (default 2025-12-31);
              at most 20 years after --from. The yearly statistics keep
              their years (2015-2024) whatever the range.
  --seed N    seed of the system's weather and noise (default the seed
              serve --demo uses); the yearly calibration holds for any seed.
  --periods P only these periods, comma-separated: months (2025-12) and
              years (2025: the datasets kept in yearly parts).
`

	helpGet = `Usage: energyapi get DATASET [--PARAM VALUE ...] [flags]

Fetch a dataset's records from a server and print them as json, csv or a
table: one object or row per record with the API's field names, numbers with
a decimal point, an instant with its offset in RFC 3339. Each query parameter
of the dataset is a flag of the same name; --from and --to stand for
--dateFrom and --dateTo. Long date ranges are fetched in windows.

       energyapi get --bulk DIR DATASET... [--from PERIOD] [--to PERIOD] [--bulk-formats parquet,csv.gz]

Mirror a server's bulk files (serve --bulk) into DIR/DATASET/PERIOD.FORMAT:
every file of the chosen datasets from --from to --to (a month yyyy-mm or a
year yyyy, both included), checked against the manifest's SHA-256. A run
fetches only the files that changed since the last one, and resumes a file
an interrupted run left half-written.
`

	helpDatasets = `Usage: energyapi datasets [--format json|table]

List the datasets this version serves and imports: name, path, granularity,
query parameters and fields.
`

	helpVersion = `Usage: energyapi version

Print the module version, the VCS revision it was built from and the Go version.
`
)

// commandHelp is the synopsis and description that -h prints above a
// command's flags.
func commandHelp(name string) string {
	if text, ok := plansHelp(name); ok {
		return text
	}
	switch name {
	case "serve":
		return helpServe
	case "init":
		return helpInit
	case "clients":
		return helpClients
	case "clients create":
		return helpClientsCreate
	case "clients list":
		return helpClientsList
	case "clients revoke":
		return helpClientsRevoke
	case "clients rotate-secret":
		return helpClientsRotateSecret
	case "import":
		return helpImport
	case "demo":
		return helpDemo
	case "get":
		return helpGet
	case "datasets":
		return helpDatasets
	case "version":
		return helpVersion
	}
	if ds, ok := strings.CutPrefix(name, "get "); ok {
		if cat, err := catalog.New(); err == nil {
			if d, ok := cat.Lookup(ds); ok {
				return "Usage: energyapi get " + d.Name + " [flags]\n\n" + d.Title + " (" + d.Path() + "): " + d.Doc + "\n"
			}
		}
	}
	return "Usage: energyapi " + name + " [flags]\n"
}
