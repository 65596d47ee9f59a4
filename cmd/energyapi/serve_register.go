package main

import (
	"flag"
	"log/slog"
	"os"
	"strconv"
	"strings"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/limit"
)

// registerConfig is what serve reads of self-service registration and the
// operator's credentials.
type registerConfig struct {
	mode          string
	operatorFile  string
	initialFile   string
	perHour       int
	prefixV4      int      // the IPv4 prefix length registrations count by
	prefixV6      int      // the IPv6 prefix length registrations count by
	unmetered     bool     // --allow-unmetered-registration
	operatorToken string   // read from operatorFile by check
	initialTokens []string // read from initialFile by check
}

// minOperatorToken is the shortest operator or initial access token
// accepted: it guards client approval and introspection.
const minOperatorToken = 16

func (c *registerConfig) register(fs *flag.FlagSet) {
	fs.StringVar(&c.mode, "registration", string(auth.RegistrationOff), "self-service registration on the site and POST /register: off (every registration path answers 404), approval (a registered client obtains tokens once an operator approves it) or open (it works at once; the plan --default-plan names must exist, unless --allow-unmetered-registration)")
	fs.StringVar(&c.operatorFile, "operator-token-file", "", "a file holding the operator token, which signs in to the operator page (/operator: approving clients) and authenticates the operator's gateway at /introspect (RFC 7662); none: neither exists")
	fs.StringVar(&c.initialFile, "initial-access-token-file", "", "a file of initial access tokens for dynamic registration (RFC 7591, POST /register), one a line; the operator token is one too")
	fs.IntVar(&c.perHour, "registrations-per-hour", auth.DefaultRegistrationsPerHour, "registrations on the site allowed per remote address in an hour, across replicas; more are answered 429 (0: no limit); an address counts with the others of its --registration-prefix-v4 or --registration-prefix-v6")
	fs.IntVar(&c.prefixV4, "registration-prefix-v4", limit.DefaultPrefixV4, "the IPv4 prefix length --registrations-per-hour counts by: 32 counts each address alone, 24 a /24 as one address (16 to 32)")
	fs.IntVar(&c.prefixV6, "registration-prefix-v6", limit.DefaultPrefixV6, "the IPv6 prefix length --registrations-per-hour counts by: 64 counts a /64, which one host commonly holds whole, as one address (32 to 128)")
	fs.BoolVar(&c.unmetered, "allow-unmetered-registration", false, "with --registration open, start although the store holds no plan named by --default-plan, so that registered clients meet --rate-limit only")
}

// checkMetered refuses open registration while the plan every registered
// client gets, defaultPlan, does not exist, unless --allow-unmetered-registration
// says that is meant: anyone could register clients that meet no plan.
// Under approval the operator sees each client before it works.
func (c *registerConfig) checkMetered(plans *limit.Plans, defaultPlan string) error {
	if c.mode != string(auth.RegistrationOpen) || c.unmetered {
		return nil
	}
	if _, ok := plans.Default(); ok {
		return nil
	}
	return usagef("--registration open gives every client it registers the plan --default-plan names (%q), which the store does not hold: "+
		"they would meet --rate-limit only; define it (--plans FILE, or energyapi plans set %s), name an existing plan with --default-plan, "+
		"or pass --allow-unmetered-registration to start anyway", defaultPlan, defaultPlan)
}

// check validates the settings and reads the token files.
func (c *registerConfig) check() error {
	if _, ok := auth.ParseRegistrationMode(c.mode); !ok {
		return invalidValue("--registration", c.mode, "want off, approval or open")
	}
	if c.perHour < 0 {
		return invalidValue("--registrations-per-hour", strconv.Itoa(c.perHour), "want 0 or more")
	}
	// Shorter prefixes would pool unrelated networks (a /16 is an ISP's
	// region) in one bucket of the limit.
	if c.prefixV4 < 16 || c.prefixV4 > 32 {
		return invalidValue("--registration-prefix-v4", strconv.Itoa(c.prefixV4), "want a prefix length between 16 and 32")
	}
	if c.prefixV6 < 32 || c.prefixV6 > 128 {
		return invalidValue("--registration-prefix-v6", strconv.Itoa(c.prefixV6), "want a prefix length between 32 and 128")
	}
	var err error
	if c.operatorFile != "" {
		var ts []string
		if ts, err = readTokens("--operator-token-file", c.operatorFile); err == nil && len(ts) != 1 {
			return invalidValue("--operator-token-file", c.operatorFile, "want exactly one token")
		}
		if err == nil {
			c.operatorToken = ts[0]
		}
	}
	if err == nil && c.initialFile != "" {
		c.initialTokens, err = readTokens("--initial-access-token-file", c.initialFile)
	}
	return err
}

// readTokens reads a file of tokens, one a line; blank lines and lines
// starting with # are skipped.
func readTokens(flagName, path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, invalidValue(flagName, path, err.Error())
	}
	var ts []string
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
		case len(l) < minOperatorToken || strings.ContainsAny(l, " \t,"):
			return nil, invalidValue(flagName, path, "every token must be at least "+strconv.Itoa(minOperatorToken)+" characters without spaces or commas")
		default:
			ts = append(ts, l)
		}
	}
	return ts, nil
}

// selfService returns the self-service endpoints as configured. With demo,
// the demo client is reserved: its secret is public, so the developer
// endpoints may not rotate or delete it.
func (c *registerConfig) selfService(log *slog.Logger, reg *auth.Registry, tokens *auth.Tokens, origin auth.Origin, demo bool) *auth.SelfService {
	mode, _ := auth.ParseRegistrationMode(c.mode)
	var reserved []string
	if demo {
		reserved = []string{demoClientID}
	}
	return &auth.SelfService{Mode: mode, Registry: reg, Tokens: tokens, Log: log,
		OperatorToken: c.operatorToken, InitialTokens: c.initialTokens, PerHour: c.perHour, Reserved: reserved, Origin: origin,
		AddrKey: limit.Prefixes{V4: c.prefixV4, V6: c.prefixV6}.Key}
}
