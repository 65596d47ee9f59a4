package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/energy"
)

// runFull runs a command to completion as main would and returns its
// stdout, stderr (with main's error line) and exit code.
func runFull(tb testing.TB, ctx context.Context, env map[string]string, args ...string) (stdout, stderr string, code int) {
	tb.Helper()
	var out, errOut bytes.Buffer
	err := run(ctx, args, envOf(env), strings.NewReader(""), &out, &errOut)
	code = exitCode(err, &errOut)
	return out.String(), errOut.String(), code
}

// TestHelp asks every command and subcommand for help: each must print its
// usage and flags on stdout, nothing on stderr, exit 0, and touch no store.
func TestHelp(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string // in stdout
	}{
		{[]string{"-h"}, []string{"Usage:", "energyapi serve", "Exit status"}},
		{[]string{"--help"}, []string{"Usage:", "energyapi clients create"}},
		{[]string{"help"}, []string{"Usage:", "energyapi import"}},
		{[]string{"help", "import"}, []string{"Usage: energyapi import", "--dataset", "--db"}},
		{[]string{"serve", "-h"}, []string{"Usage: energyapi serve", "--addr", "--log-format FORMAT", "--rate-limit RATE", "ENERGYAPI_TOKEN_TTL", "default 5m0s", "--log-level LEVEL"}},
		{[]string{"serve", "--help"}, []string{"Usage: energyapi serve", "--demo"}},
		{[]string{"init", "-h"}, []string{"Usage: energyapi init", "--db"}},
		{[]string{"import", "-h"}, []string{"Usage: energyapi import", "--dataset", "--db"}},
		{[]string{"import", "--dataset", "total-load", "x.csv", "-help"}, []string{"Usage: energyapi import"}},
		{[]string{"demo", "-h"}, []string{"Usage: energyapi demo", "--db", "--from DAY", "--to DAY", "--seed N"}},
		{[]string{"clients", "-h"}, []string{"energyapi clients create", "energyapi clients rotate-secret", "--db"}},
		{[]string{"clients", "create", "-h"}, []string{"Usage: energyapi clients create", "--name", "--db"}},
		{[]string{"clients", "list", "--help"}, []string{"Usage: energyapi clients list", "--db"}},
		{[]string{"clients", "revoke", "-h"}, []string{"Usage: energyapi clients revoke", "--db"}},
		{[]string{"clients", "rotate-secret", "-h"}, []string{"Usage: energyapi clients rotate-secret", "--db"}},
		{[]string{"get", "-h"}, []string{"energyapi get thermoelectric", "energyapi get peak-valley", "--year", "--from", "--base-url URL"}},
		{[]string{"get", "thermoelectric", "-h"}, []string{"Usage: energyapi get thermoelectric", "--year", "--province", "--client-id"}},
		{[]string{"get", "peak-valley", "--help"}, []string{"Usage: energyapi get peak-valley", "--from", "--to", "--format"}},
		{[]string{"version", "-h"}, []string{"Usage: energyapi version"}},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "help.db")
			stdout, stderr, code := runFull(t, context.Background(), map[string]string{"ENERGYAPI_DB": db}, tt.args...)
			if code != 0 || stderr != "" {
				t.Fatalf("got exit %d and stderr %q, want 0 and nothing", code, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			if _, err := os.Stat(db); err == nil {
				t.Errorf("asking for help created the store %s", db)
			}
		})
	}
}

// TestFlagsAnywhere puts flags after the positional arguments, and a
// positional argument that looks like a flag after "--".
func TestFlagsAnywhere(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	file := loadCSV(t, "tl.csv", energy.Date{Year: 2023, Month: 1, Day: 1}, 1, 0)
	dashed := filepath.Join(dir, "-dashed.csv")
	if err := os.Rename(loadCSV(t, "x.csv", energy.Date{Year: 2023, Month: 1, Day: 2}, 1, 0), dashed); err != nil {
		t.Fatal(err)
	}
	out, err := runCmd(t, nil, "import", "--db", db, file, "--dataset", "total-load")
	if err != nil || !strings.Contains(out, `"files":1`) {
		t.Fatalf("import with --dataset last: got %q, %v", out, err)
	}
	// A relative name that starts with "-" is a file after "--".
	t.Chdir(dir)
	out, err = runCmd(t, nil, "import", "--dataset=total-load", "--db", db, "--", "-dashed.csv")
	if err != nil || !strings.Contains(out, `"inserted":`) {
		t.Fatalf("import after --: got %q, %v", out, err)
	}
	c, err := runCmd(t, nil, "clients", "create", "--name", "acme", "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	id := strings.Split(strings.Split(c, `"client_id":"`)[1], `"`)[0]
	if _, err := runCmd(t, nil, "clients", "revoke", id, "--db", db); err != nil {
		t.Fatalf("clients revoke ID --db: %v", err)
	}
	if list, _ := runCmd(t, nil, "clients", "list", "-db", db); !strings.Contains(list, `"revoked"`) {
		t.Errorf("clients list with -db: got %q, want the revoked client", list)
	}
}

// TestErrorsSayFlagValueAndForm checks the wording of parse errors, as main
// prints them: one "energyapi:" and nothing doubled, the flag or variable,
// the value, the form wanted, and exit status 2.
func TestErrorsSayFlagValueAndForm(t *testing.T) {
	db := filepath.Join(t.TempDir(), "e.db")
	fltRun(t, "init", "--db", db)
	creds := map[string]string{"ENERGYAPI_CLIENT_ID": "a", "ENERGYAPI_CLIENT_SECRET": "b", "ENERGYAPI_DB": db}
	for _, tt := range []struct {
		name string
		env  map[string]string
		args []string
		want string // the whole line
	}{
		{"duration from env", map[string]string{"ENERGYAPI_TOKEN_TTL": "5"}, []string{"serve"},
			`ENERGYAPI_TOKEN_TTL: invalid value "5": want a duration such as 300s or 5m`},
		{"duration flag", nil, []string{"serve", "--token-ttl", "5"},
			`--token-ttl: invalid value "5": want a duration such as 300s or 5m`},
		{"duration too short", nil, []string{"serve", "--token-ttl=500ms"},
			`--token-ttl: invalid value "500ms": want at least 1s`},
		{"integer", nil, []string{"serve", "--max-range-days", "sixty"},
			`--max-range-days: invalid value "sixty": want a whole number`},
		{"negative", nil, []string{"serve", "--max-range-days", "-1"},
			`--max-range-days: invalid value "-1": want 0 or more`},
		{"choice", nil, []string{"serve", "--unmatched-filter", "none"},
			`--unmatched-filter: invalid value "none": want empty-body or empty-array`},
		{"cache size", nil, []string{"serve", "--answer-cache-mb=-1"},
			`--answer-cache-mb: invalid value "-1": want 0 or more`},
		{"boolean", nil, []string{"serve", "--demo=maybe"},
			`--demo: invalid value "maybe": want true or false`},
		{"log level", nil, []string{"serve", "--log-level", "loud"},
			`--log-level: invalid value "loud": want debug, info, warn or error`},
		{"log format", nil, []string{"serve", "--log-format", "xml"},
			`--log-format: invalid value "xml": want text, json or auto`},
		{"rate", nil, []string{"serve", "--rate-limit", "10/d"},
			`--rate-limit: invalid value "10/d": want a rate N/s, N/m or N/h, such as 10/s or 600/m, or 0 for none`},
		{"registration prefix v6", nil, []string{"serve", "--registration", "approval", "--registration-prefix-v6", "16"},
			`--registration-prefix-v6: invalid value "16": want a prefix length between 32 and 128`},
		{"registration prefix v4", nil, []string{"serve", "--registration", "approval", "--registration-prefix-v4", "33"},
			`--registration-prefix-v4: invalid value "33": want a prefix length between 16 and 32`},
		{"missing value", nil, []string{"serve", "--poll-interval"},
			`--poll-interval needs a value: want a duration such as 300s or 5m`},
		{"base URL without scheme", creds, []string{"get", "thermoelectric", "--year", "2023", "--base-url", "127.0.0.1:8080"},
			`--base-url: invalid value "127.0.0.1:8080": a scheme is required: want http:// or https:// and a host, such as http://127.0.0.1:8080`},
		{"base URL from env", map[string]string{"ENERGYAPI_BASE_URL": "localhost:8080"}, []string{"get", "peak-valley"},
			`ENERGYAPI_BASE_URL: invalid value "localhost:8080": a scheme is required: want http:// or https:// and a host, such as http://127.0.0.1:8080`},
		{"date", creds, []string{"get", "peak-valley", "--from", "2024-01-01", "--to", "02/01/2024"},
			`--from: invalid value "2024-01-01": want a day as dd/mm/yyyy, such as 31/01/2024`},
		{"dataset", nil, []string{"import", "--dataset", "load", "x.csv"},
			`--dataset: invalid value "load": want ` + strings.Join(catalogNames(t), ", ")},
		{"unknown flag", nil, []string{"serve", "--tokn-ttl", "5m"},
			`unknown flag --tokn-ttl; did you mean --token-ttl?`},
		{"unknown flag, nothing close", nil, []string{"init", "--frobnicate"},
			`unknown flag --frobnicate; "energyapi init -h" lists the flags`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := runFull(t, context.Background(), tt.env, tt.args...)
			if want := "energyapi: " + tt.want + "\n"; code != 2 || stderr != want {
				t.Errorf("got exit %d and\n%q\nwant 2 and\n%q", code, stderr, want)
			}
		})
	}
}

func TestDidYouMean(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"servee"}, `unknown command "servee"; did you mean "serve"?`},
		{[]string{"improt", "x.csv"}, `unknown command "improt"; did you mean "import"?`},
		{[]string{"client", "list"}, `unknown command "client"; did you mean "clients"?`},
		{[]string{"verison"}, `unknown command "verison"; did you mean "version"?`},
		{[]string{"frobnicate"}, `unknown command "frobnicate"; "energyapi help" lists them`},
		{[]string{"clients", "lst"}, `unknown clients subcommand "lst"; did you mean "list"?`},
		{[]string{"clients", "revok", "id"}, `unknown clients subcommand "revok"; did you mean "revoke"?`},
		{[]string{"clients", "rotate"}, `unknown clients subcommand "rotate"; "energyapi clients -h" lists them`},
		{[]string{"get", "peak-vally"}, `unknown dataset "peak-vally"; did you mean "peak-valley"?`},
		{[]string{"import", "--datset", "total-load"}, `unknown flag --datset; did you mean --dataset?`},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "none.db")
			_, stderr, code := runFull(t, context.Background(), map[string]string{"ENERGYAPI_DB": db}, tt.args...)
			if want := "energyapi: " + tt.want + "\n"; code != 2 || stderr != want {
				t.Errorf("got exit %d and %q, want 2 and %q", code, stderr, want)
			}
			if _, err := os.Stat(db); err == nil {
				t.Errorf("a mistyped command created the store")
			}
		})
	}
}

func TestSuggest(t *testing.T) {
	choices := []string{"serve", "init", "clients", "import", "demo", "get", "version", "help"}
	for _, tt := range []struct{ got, want string }{
		{"serve", "serve"},
		{"serv", "serve"},  // a deletion
		{"demoo", "demo"},  // an insertion
		{"sevre", "serve"}, // a transposition is two substitutions
		{"gte", "get"},     // the same
		{"versions", "version"},
		{"xyz", ""}, // three from get
		{"", ""},    // three from get
		{"initialise", ""},
	} {
		if got := suggest(tt.got, choices); got != tt.want {
			t.Errorf("suggest(%q): got %q, want %q", tt.got, got, tt.want)
		}
	}
}

func TestExitCodes(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.db")
	for _, tt := range []struct {
		args []string
		want int
	}{
		{[]string{"version"}, 0},
		{[]string{"serve", "-h"}, 0},
		{[]string{}, 2},
		{[]string{"servee"}, 2},
		{[]string{"serve", "--token-ttl", "5"}, 2},
		{[]string{"import", "--dataset", "total-load", missing + ".csv"}, 1},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			if _, _, code := runFull(t, context.Background(), nil, tt.args...); code != tt.want {
				t.Errorf("got exit %d, want %d", code, tt.want)
			}
		})
	}
	var b bytes.Buffer
	if code := exitCode(fmt.Errorf("import: %w", usagef("bad")), &b); code != 2 || b.String() != "energyapi: import: bad\n" {
		t.Errorf("wrapped usage error: got %d %q, want 2", code, b.String())
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		stdout, stderr, code := runFull(t, context.Background(), nil, args...)
		if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "energyapi ") || !strings.Contains(stdout, "revision ") {
			t.Errorf("%v: got exit %d, stdout %q, stderr %q; want a version line", args, code, stdout, stderr)
		}
	}
	for _, tt := range []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{"no build info", nil, false, "energyapi (devel), revision unknown, unknown"},
		{"work tree, no VCS stamp", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, true,
			"energyapi (devel), revision unknown, go1.26.8"},
		{"empty version", &debug.BuildInfo{GoVersion: "go1.26.8"}, true, "energyapi (devel), revision unknown, go1.26.8"},
		{"release", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.0"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "345f610abc"}, {Key: "vcs.time", Value: "2025-06-01T10:00:00Z"}, {Key: "vcs.modified", Value: "false"},
		}}, true, "energyapi v1.4.0, revision 345f610abc, committed 2025-06-01T10:00:00Z, go1.26.8"},
		{"modified tree", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "345f610abc"}, {Key: "vcs.modified", Value: "true"},
		}}, true, "energyapi (devel), revision 345f610abc (modified), go1.26.8"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionLine(tt.info, tt.ok); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// catalogNames returns every dataset's name in catalogue order, as usage
// messages list them.
func catalogNames(tb testing.TB) []string {
	tb.Helper()
	c, err := catalog.New()
	if err != nil {
		tb.Fatal(err)
	}
	return c.Names()
}

// TestServeHelpByTopic: serve -h lists the flags a newcomer needs first,
// then the rest under headings; every flag serve takes is under one,
// but the deprecated ones, which still work and are only named; a level's
// default is shown as the flag takes it.
func TestServeHelpByTopic(t *testing.T) {
	out, err := runCmd(t, nil, "serve", "-h")
	if err != nil {
		t.Fatal(err)
	}
	flags := out[strings.Index(out, "Flags ("):]
	if !strings.HasPrefix(strings.SplitN(flags, "\n", 4)[2], "Start here:") || !strings.Contains(flags, "Start here:\n  --addr string\n") {
		t.Errorf("serve -h: want the flags to begin under %q with --addr:\n%s", "Start here:", flags)
	}
	if strings.Contains(flags, "Other flags:") {
		t.Errorf("serve -h lists flags under no heading: give them one in helpGroups:\n%s", flags[strings.Index(flags, "Other flags:"):])
	}
	for _, hidden := range []string{"  --answer-cache-mb int\n", "  --auth-fail-per-client RATE\n"} {
		if strings.Contains(flags, hidden) {
			t.Errorf("serve -h shows the deprecated %s", hidden)
		}
	}
	if !strings.Contains(flags, "default info; ENERGYAPI_LOG_LEVEL") {
		t.Errorf("serve -h: want --log-level's default as the flag takes it, info")
	}
	cfg, err := parseServeFlags([]string{"--answer-cache-mb", "0", "--auth-fail-per-client", "3/m"}, envOf(nil), io.Discard)
	if err != nil || cfg.answerCacheMB != 0 {
		t.Errorf("the deprecated flags: got %v, want them still taken", err)
	}
}
