package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/limit"
)

// errUsage marks errors in how the command was called: main exits 2 for
// them, 1 for any other failure. Test for it with errors.Is.
var errUsage = errors.New("usage error")

// usageError is an error in how the command was called. Its message is the
// whole explanation: it carries no "usage:" prefix of its own.
type usageError struct{ msg string }

func (e *usageError) Error() string        { return e.msg }
func (e *usageError) Is(target error) bool { return target == errUsage }

// usagef returns a usage error with the formatted message.
func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// invalidValue returns the usage error for a value that name (a flag as
// --name, or an environment variable) cannot take: it says the name, the
// value and want, the form the value must have.
func invalidValue(name, value, want string) error {
	return usagef("%s: invalid value %q: %s", name, value, want)
}

// helpError is what parseFlags returns for -h, -help or --help: run prints
// text on stdout and succeeds.
type helpError struct{ text string }

func (e *helpError) Error() string { return "help requested" }

// isHelpArg reports whether arg asks for help.
func isHelpArg(arg string) bool {
	switch arg {
	case "-h", "-help", "--help":
		return true
	}
	return false
}

// newFlagSet returns an empty flag set for the command name ("import",
// "clients create"). Its errors are returned, never printed: parseFlags
// words them.
func newFlagSet(name string, _ io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("energyapi "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses args, whose flags may come before, between or after the
// positional arguments ("--" ends the flags), then fills every flag not given
// on the command line from its ENERGYAPI_* environment variable. Flags take
// one or two dashes, and a value either as the next argument or after "=".
// It returns a *helpError for -h, -help or --help, and a usage error that
// names the flag or variable, the value and the form wanted for anything it
// cannot parse.
func parseFlags(fs *flag.FlagSet, args []string, getenv func(string) string) error {
	var positional []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if len(arg) < 2 || arg[0] != '-' {
			positional = append(positional, arg) // "-" too: a file name for stdin
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(arg[1:], "-"), "=")
		f := fs.Lookup(name)
		if f == nil {
			if isHelpArg(arg) {
				return &helpError{text: helpText(fs)}
			}
			return unknownFlag(fs, name)
		}
		if !hasValue {
			if isBoolFlag(f) {
				value = "true"
			} else if i+1 < len(args) {
				i++
				value = args[i]
			} else {
				return usagef("--%s needs a value: %s", name, want(f, nil))
			}
		}
		if err := fs.Set(name, value); err != nil {
			return invalidValue("--"+name, value, want(f, err))
		}
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
				err = invalidValue(env, v, want(f, e))
			}
		}
	})
	if err != nil {
		return err
	}
	return fs.Parse(append([]string{"--"}, positional...))
}

// setFlags returns the names of fs's flags given on the command line or in
// the environment (parseFlags sets both), as opposed to left at their
// defaults.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

func envName(flagName string) string {
	return "ENERGYAPI_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// want says what form the flag's values take, for error messages. setErr,
// the error from the flag's Set, is the explanation for values of this
// package's own types, which word their errors that way.
func want(f *flag.Flag, setErr error) string {
	if g, ok := f.Value.(flag.Getter); ok {
		switch g.Get().(type) {
		case time.Duration:
			return "want a duration such as 300s or 5m"
		case bool:
			return "want true or false"
		case int, int64:
			return "want a whole number"
		case uint, uint64:
			return "want a whole number, 0 or more"
		case float64:
			return "want a number"
		case *slog.Level:
			return "want debug, info, warn or error"
		case string:
			_, usage := flag.UnquoteUsage(f)
			return "want " + usage
		}
	}
	if _, ok := f.Value.(*limit.Rate); ok {
		return "want a rate N/s, N/m or N/h, such as 10/s or 600/m, or 0 for none"
	}
	if setErr != nil {
		return setErr.Error()
	}
	return "want a value"
}

// unknownFlag is the usage error for a flag that fs does not define,
// suggesting the closest one.
func unknownFlag(fs *flag.FlagSet, name string) error {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if s := suggest(name, names); s != "" {
		return usagef("unknown flag --%s; did you mean --%s?", name, s)
	}
	return usagef("unknown flag --%s; %q lists the flags", name, fs.Name()+" -h")
}

// unknownWord is the usage error for a command or subcommand that is not one
// of choices, suggesting the closest. what names it ("command", "clients
// subcommand"), and help is the command that lists them.
func unknownWord(what, got, help string, choices []string) error {
	if s := suggest(got, choices); s != "" {
		return usagef("unknown %s %q; did you mean %q?", what, got, s)
	}
	return usagef("unknown %s %q; %q lists them", what, got, help)
}

// suggest returns the choice nearest to got, if it is at most two edits
// (insertions, deletions, substitutions) away; otherwise "".
func suggest(got string, choices []string) string {
	best, bestDist := "", 3
	for _, c := range choices {
		if d := editDistance(got, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// helpText is the -h text of the command whose flag set is fs: its synopsis
// and description, then every flag with its default and variable, under
// the command's headings if it has them (helpGroups).
func helpText(fs *flag.FlagSet) string {
	var b strings.Builder
	command := strings.TrimPrefix(fs.Name(), "energyapi ")
	b.WriteString(commandHelp(command))
	b.WriteString(flagsText(fs, helpGroups(command)))
	return b.String()
}

// flagGroup is a heading of a command's help and its flags, in the order
// shown; a group without a title holds the deprecated flags, which still
// work but are not shown.
type flagGroup struct {
	title string
	names []string
}

// helpGroups returns the headings of command's flags: serve's, by topic,
// the ones a newcomer needs first. Other commands list theirs by name.
func helpGroups(command string) []flagGroup {
	if command != "serve" {
		return nil
	}
	return []flagGroup{
		{"Start here", []string{"addr", "db", "demo", "memory-budget", "log-level", "log-format"}},
		{"Answers", []string{"max-range-days", "unmatched-filter", "unknown-parameters", "compression", "cache-control", "poll-interval", "allow-public", "bulk"}},
		{"Tokens, the public address and failed authentication", []string{"token-ttl", "key-rotation", "public-url", "trust-proxy-headers", "auth-fail-per-addr", "auth-fail-per-client-addr"}},
		{"Plans, rate limits and registration", []string{"plans", "default-plan", "quota-block", "usage-flush", "rate-limit", "rate-burst", "rate-limit-style",
			"registration", "allow-unmetered-registration", "registrations-per-hour", "registration-prefix-v4", "registration-prefix-v6", "initial-access-token-file", "operator-token-file"}},
		{"Overload, timeouts and the store", []string{"max-in-flight", "max-queue", "queue-target", "queue-timeout", "request-timeout", "store-slots", "store-timeout",
			"read-header-timeout", "read-timeout", "write-timeout", "idle-timeout", "shutdown-timeout", "max-header-bytes", "stream-write-timeout", "streams-per-addr"}},
		{"TLS and metrics", []string{"tls-cert", "tls-key", "metrics-addr"}},
		{"Sandbox, for testing clients", []string{"sandbox", "sandbox-admin-token", "sandbox-seed", "faults", "journal-size", "now"}},
		{"", []string{"answer-cache-mb", "auth-fail-per-client"}},
	}
}

// flagsText lists fs's flags, one paragraph each, under groups' headings
// (a flag in none under "Other flags") or, without groups, by name; nothing
// if fs has none.
func flagsText(fs *flag.FlagSet, groups []flagGroup) string {
	var flags []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) { flags = append(flags, f) })
	if len(flags) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nFlags (each also read from its environment variable; a flag given wins):\n")
	if groups == nil {
		sort.Slice(flags, func(i, j int) bool { return flags[i].Name < flags[j].Name })
		for _, f := range flags {
			writeFlag(&b, f)
		}
		return b.String()
	}
	placed := map[string]bool{}
	for _, g := range groups {
		for _, name := range g.names {
			placed[name] = true
			if f := fs.Lookup(name); f != nil && g.title != "" {
				if name == g.names[0] {
					fmt.Fprintf(&b, "\n%s:\n", g.title)
				}
				writeFlag(&b, f)
			}
		}
	}
	for _, g := range groups {
		if g.title == "" && len(g.names) > 0 {
			fmt.Fprintf(&b, "\nDeprecated, still taken, not described here: --%s (see docs/operators.md).\n", strings.Join(g.names, ", --"))
		}
	}
	other := false
	for _, f := range flags {
		if !placed[f.Name] {
			if !other {
				b.WriteString("\nOther flags:\n")
				other = true
			}
			writeFlag(&b, f)
		}
	}
	return b.String()
}

// writeFlag writes one flag's paragraph: its name and the form of its
// value, its usage, its default as the flag takes it, its variable.
func writeFlag(b *strings.Builder, f *flag.Flag) {
	typ, usage := flag.UnquoteUsage(f)
	def := f.DefValue
	switch v := f.Value.(type) {
	case baseURLValue:
		typ = "URL"
	case *logFormat:
		typ = "FORMAT"
	case *limit.Rate:
		typ = "RATE"
	case flag.Getter:
		if _, ok := v.Get().(*slog.Level); ok {
			typ, def = "LEVEL", strings.ToLower(def) // the flag takes "info", not "INFO"
		}
	}
	if isBoolFlag(f) {
		typ = ""
	}
	fmt.Fprintf(b, "  --%s", f.Name)
	if typ != "" {
		fmt.Fprintf(b, " %s", typ)
	}
	fmt.Fprintf(b, "\n        %s\n        ", usage)
	if !isZeroDefault(def) {
		fmt.Fprintf(b, "default %s; ", def)
	}
	fmt.Fprintf(b, "%s\n", envName(f.Name))
}

func isZeroDefault(v string) bool {
	switch v {
	case "", "0", "0s", "false":
		return true
	}
	return false
}

// baseURLValue is a flag value that must be an absolute http or https URL.
type baseURLValue struct{ p *string }

// newBaseURLValue sets *p to def and returns the flag value that sets it.
func newBaseURLValue(p *string, def string) baseURLValue {
	*p = def
	return baseURLValue{p}
}

func (v baseURLValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}

func (v baseURLValue) Set(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("a scheme is required: want http:// or https:// and a host, such as http://127.0.0.1:8080")
	}
	*v.p = s
	return nil
}
