package main

import (
	"crypto/rand"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/sandbox"
)

// sandboxConfig is what serve reads for the sandbox in which client authors
// test their code: fault rules, the request journal and a fixed clock. A
// production serve (no --sandbox, no --demo) has none of it.
type sandboxConfig struct {
	enabled     bool // --sandbox, or --demo without --sandbox=false
	faults      string
	now         string
	adminToken  string
	journalSize int
	seed        uint64
	rateStyle   string
}

func (c *sandboxConfig) register(fs *flag.FlagSet) {
	fs.BoolVar(&c.enabled, "sandbox", false, "enable the sandbox for testing clients: fault rules, request journal, fixed clock and their admin endpoints under /sandbox/ (implied by --demo unless --sandbox=false)")
	fs.StringVar(&c.faults, "faults", "", "with --sandbox, a YAML or JSON file of fault rules, checked at start")
	fs.StringVar(&c.now, "now", "", "with --sandbox, fix the server's clock at this time (RFC 3339, such as 2025-06-30T12:00:00+02:00)")
	fs.StringVar(&c.adminToken, "sandbox-admin-token", "", "the Bearer token of the sandbox admin endpoints (default: a random one, printed at start; required off loopback)")
	fs.IntVar(&c.journalSize, "journal-size", 1000, "with --sandbox, how many data and token requests the journal keeps")
	fs.Uint64Var(&c.seed, "sandbox-seed", 1, "with --sandbox, the seed of fault rules that name none")
	fs.StringVar(&c.rateStyle, "rate-limit-style", string(api.StandardRateLimit), "how --rate-limit and plans refuse: standard (429 with Retry-After; with plans, RateLimit headers too) or public (403 \"Developer Over Qps\", as the public deployment; with plans, its HTML pages and \"Developer Over Rate\")")
}

// check returns a usage error for settings that cannot work together; the
// sandbox's flags without it are refused before (flagNeeds).
func (c *sandboxConfig) check(addr string) error {
	switch api.RateLimitStyle(c.rateStyle) {
	case api.StandardRateLimit, api.PublicRateLimit:
	default:
		return invalidValue("--rate-limit-style", c.rateStyle, "want standard or public")
	}
	if !c.enabled {
		return nil
	}
	if c.now != "" {
		if _, err := time.Parse(time.RFC3339, c.now); err != nil {
			return invalidValue("--now", c.now, "want a time such as 2025-06-30T12:00:00+02:00")
		}
	}
	if c.journalSize < 1 || c.journalSize > 1_000_000 {
		return invalidValue("--journal-size", strconv.Itoa(c.journalSize), "want between 1 and 1000000")
	}
	if c.adminToken == "" && !isLoopback(addr) {
		return usagef("the sandbox on %s needs --sandbox-admin-token: its admin endpoints change how the server answers", addr)
	}
	if c.adminToken != "" && len(c.adminToken) < 16 {
		return invalidValue("--sandbox-admin-token", "[redacted]", "want at least 16 characters")
	}
	return nil
}

// sandboxSetup is what the sandboxConfig builds for one serve run.
type sandboxSetup struct {
	sb         *sandbox.Sandbox // nil without --sandbox
	adminToken string
	generated  bool // the admin token was made here and must be told
}

// newSandbox builds the sandbox, reading and checking the faults file, or
// nothing without --sandbox.
func newSandbox(c sandboxConfig, cat *dataset.Catalog) (*sandboxSetup, error) {
	s := &sandboxSetup{}
	if !c.enabled {
		return s, nil
	}
	clock := sandbox.NewClock(time.Now)
	if c.now != "" {
		t, _ := time.Parse(time.RFC3339, c.now) // checked by check
		clock.Set(t)
	}
	s.sb = sandbox.New(clock, c.seed, c.journalSize)
	if c.faults != "" {
		b, err := os.ReadFile(c.faults)
		if err != nil {
			return nil, fmt.Errorf("--faults: %w", err)
		}
		doc, err := sandbox.Parse(c.faults, b, func(n string) bool { return slices.Contains(cat.Names(), n) })
		if err != nil {
			return nil, usagef("%s", err.Error())
		}
		if _, err := s.sb.Add(doc); err != nil {
			return nil, usagef("%s: %s", c.faults, err.Error())
		}
	}
	s.adminToken = c.adminToken
	if s.adminToken == "" {
		b := make([]byte, 24)
		_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
		s.adminToken, s.generated = base64.RawURLEncoding.EncodeToString(b), true
	}
	return s, nil
}

// now is the server's idea of the time: the sandbox clock, or the real time.
func (s *sandboxSetup) now() func() time.Time {
	if s.sb == nil {
		return time.Now
	}
	return s.sb.Clock.Now
}

// tokens lets the sandbox's expire_tokens_after rules refuse tokens early.
func (s *sandboxSetup) tokens(t *auth.Tokens) {
	if s.sb != nil {
		t.RefuseWhen(s.sb.TokenRefused)
	}
}

// clock is the server's idea of the current date: the sandbox clock, or
// nil (the real time) without the sandbox.
func (s *sandboxSetup) clock() func() time.Time {
	if s.sb == nil {
		return nil
	}
	return s.sb.Clock.Now
}

// announce tells the admin token on stdout when it was generated here, as
// it is the only way to learn it.
func (s *sandboxSetup) announce(stdout io.Writer) {
	if s.sb != nil && s.generated {
		fmt.Fprintf(stdout, "energyapi sandbox admin token: %s\n", s.adminToken)
	}
}
