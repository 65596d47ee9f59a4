package main

import (
	"github.com/energyapi/energyapi/internal/auth"
)

// flagNeed is a serve flag that means something only with another setting:
// given without it, the flag would be silently ignored, so serve refuses to
// start and names what it needs.
type flagNeed struct {
	flag  string                    // the dependent flag, as serve names it
	needs string                    // the setting it needs, as the refusal words it
	why   string                    // what the flag alone would (not) do
	met   func(c *serveConfig) bool // whether the parsed configuration has that setting
}

// flagNeeds is every dependent flag of serve, in the order checked. A new
// flag that only works with another adds its line here (TestFlagNeedsAnother
// wants a case for each).
func flagNeeds() []flagNeed {
	registering := func(c *serveConfig) bool { return c.selfService.mode != string(auth.RegistrationOff) }
	sandbox := func(c *serveConfig) bool { return c.sandbox.enabled }
	const noSandbox = "there is no sandbox without it"
	return []flagNeed{
		{"allow-public", "--demo", "only --demo is kept to loopback addresses", func(c *serveConfig) bool { return c.demo }},
		{"initial-access-token-file", "--registration approval or open", "without it no /register is served", registering},
		{"registrations-per-hour", "--registration approval or open", "without it nothing registers", registering},
		{"registration-prefix-v4", "--registration approval or open", "it groups the addresses registrations count by", registering},
		{"registration-prefix-v6", "--registration approval or open", "it groups the addresses registrations count by", registering},
		{"allow-unmetered-registration", "--registration open", "only open registration gives clients a plan no one chose",
			func(c *serveConfig) bool { return c.selfService.mode == string(auth.RegistrationOpen) }},
		{"rate-burst", "--rate-limit", "it is the burst of --rate-limit; plans have their own",
			func(c *serveConfig) bool { return !c.hard.rateLimit.IsZero() }},
		{"queue-target", "--max-in-flight above 0", "with no bound on requests in flight none waits for a slot",
			func(c *serveConfig) bool { return c.hard.maxInFlight != 0 }},
		{"tls-cert", "--tls-key", "a certificate serves HTTPS only with its key", func(c *serveConfig) bool { return c.hard.tlsKey != "" }},
		{"tls-key", "--tls-cert", "a key serves HTTPS only with its certificate", func(c *serveConfig) bool { return c.hard.tlsCert != "" }},
		{"sandbox-admin-token", "--sandbox", noSandbox, sandbox},
		{"sandbox-seed", "--sandbox", noSandbox, sandbox},
		{"faults", "--sandbox", noSandbox, sandbox},
		{"journal-size", "--sandbox", noSandbox, sandbox},
		{"now", "--sandbox", noSandbox, sandbox},
	}
}

// checkFlagNeeds returns a usage error for the first flag of flagNeeds given
// (set: on the command line or in the environment, see setFlags) without
// what it needs. Defaults never count: a flag left alone means nothing.
func checkFlagNeeds(set map[string]bool, c *serveConfig) error {
	for _, n := range flagNeeds() {
		if set[n.flag] && !n.met(c) {
			return usagef("--%s needs %s: %s", n.flag, n.needs, n.why)
		}
	}
	return nil
}
