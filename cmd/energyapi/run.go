package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

const usage = `energyapi serves the Energy Data Public API.

Usage:
  energyapi serve   [flags]                 run the HTTP server
  energyapi clients create --name NAME      register a client (prints its secret once)
  energyapi clients list                    list clients, one JSON object per line
  energyapi clients revoke ID               revoke a client and its tokens
  energyapi clients rotate-secret ID        give a client a new secret
  energyapi import --dataset D FILE...      import files (D: thermoelectric, total-load, peak-valley)
  energyapi demo                            write the demo dataset into the store
  energyapi get thermoelectric --year Y     fetch from a server (--region, --province..., --category, --subcategory)
  energyapi get peak-valley --from D --to D fetch daily peaks and valleys (dates dd/mm/yyyy)

Every flag can also be set by an environment variable: ENERGYAPI_ and the flag
name in capitals with - as _ (for example --db is ENERGYAPI_DB). Flags win.
Run "energyapi COMMAND -h" for a command's flags.
`

// errUsage marks errors whose message already says what to do.
var errUsage = errors.New("usage")

// run dispatches to a subcommand. It never exits the process; main does.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("%w: no command given", errUsage)
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "serve":
		return runServe(ctx, rest, getenv, stdout, stderr)
	case "clients":
		return runClients(ctx, rest, getenv, stdout, stderr)
	case "import":
		return runImport(ctx, rest, getenv, stdout, stderr)
	case "demo":
		return runDemo(ctx, rest, getenv, stdout, stderr)
	case "get":
		return runGet(ctx, rest, getenv, stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("%w: unknown command %q", errUsage, cmd)
}

// newFlagSet returns a flag set that reports errors to stderr and returns them
// instead of exiting.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("energyapi "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses args, then fills every flag not given on the command line
// from its ENERGYAPI_* environment variable.
func parseFlags(fs *flag.FlagSet, args []string, getenv func(string) string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if set[f.Name] || err != nil {
			return
		}
		env := envName(f.Name)
		if v := getenv(env); v != "" {
			if e := fs.Set(f.Name, v); e != nil {
				err = fmt.Errorf("%s=%q: %w", env, v, e)
			}
		}
	})
	return err
}

func envName(flagName string) string {
	return "ENERGYAPI_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}
