package sandbox

import (
	"hash/fnv"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"
)

// Sandbox holds the fault rules, the journal and the clock of one server.
type Sandbox struct {
	Clock   *Clock
	Journal *Journal

	seed  uint64 // for rules and documents that name none
	mu    sync.Mutex
	rules []*ruleState
	n     int // rules added so far, for IDs
}

type ruleState struct {
	Rule
	streams map[string]*stream // by client_id
}

// stream is one rule's count and random numbers for one client.
type stream struct {
	n   int
	rng *rand.Rand
}

// New returns a sandbox without rules. seed seeds the rules that name no
// seed of their own; journalSize bounds the journal.
func New(clock *Clock, seed uint64, journalSize int) *Sandbox {
	return &Sandbox{Clock: clock, Journal: NewJournal(journalSize, clock.real), seed: seed}
}

// Fault is what the api does to a request a rule fired on.
type Fault struct {
	Rule   string
	Action Action
	// Delay is the delay drawn for a Latency action.
	Delay time.Duration
}

// Add adds the document's rules after those present and returns them with
// their IDs. A rule without an ID is named r1, r2, ... in the order added.
// It returns an error, and adds nothing, if an ID is already taken.
func (s *Sandbox) Add(doc Rules) ([]Rule, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	taken := map[string]bool{}
	for _, r := range s.rules {
		taken[r.ID] = true
	}
	n := s.n
	var added []*ruleState
	for _, r := range doc.Rules {
		n++
		if r.ID == "" {
			r.ID = "r" + strconv.Itoa(n)
			for taken[r.ID] {
				r.ID += "-" + strconv.Itoa(n)
			}
		}
		if taken[r.ID] {
			return nil, &ParseError{File: "rules", Line: 0, Reason: "rule id " + strconv.Quote(r.ID) + " is already in use; DELETE /sandbox/rules/" + r.ID + " first"}
		}
		taken[r.ID] = true
		if r.Seed == 0 {
			r.Seed = doc.Seed
		}
		if r.Seed == 0 {
			r.Seed = s.seed
		}
		added = append(added, &ruleState{Rule: r, streams: map[string]*stream{}})
	}
	s.n = n
	s.rules = append(s.rules, added...)
	out := make([]Rule, len(added))
	for i, r := range added {
		out[i] = r.Rule
	}
	return out, nil
}

// Rules returns the rules in the order they apply.
func (s *Sandbox) Rules() []Rule {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Rule, len(s.rules))
	for i, r := range s.rules {
		out[i] = r.Rule
	}
	return out
}

// Remove removes the rule with the ID and reports whether there was one.
func (s *Sandbox) Remove(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, r := range s.rules {
		if r.ID == id {
			s.rules = append(s.rules[:i], s.rules[i+1:]...)
			return true
		}
	}
	return false
}

// Clear removes every rule.
func (s *Sandbox) Clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rules = nil
}

// Decide returns the fault for the request, if a rule fires on it. Every
// rule that matches counts the request (and draws its number), whether or
// not an earlier rule fires, so that one rule's count never depends on
// another's; when several fire, the first in order applies.
func (s *Sandbox) Decide(r Request) (Fault, bool) {
	now := s.Clock.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	var f Fault
	fired := false
	for _, rs := range s.rules {
		if rs.Action.Kind == ExpireTokens || !rs.Match.matches(r) || !rs.Trigger.inWindow(now) {
			continue
		}
		st := rs.stream(r.ClientID)
		st.n++
		ok := true
		t := rs.Trigger
		if t.Every > 0 && st.n%t.Every != 0 {
			ok = false
		}
		if t.First > 0 && st.n > t.First {
			ok = false
		}
		if t.Probability > 0 && st.rng.Float64() >= t.Probability {
			ok = false
		}
		var delay time.Duration
		if rs.Action.Kind == Latency {
			delay = rs.Action.Delay
			if rs.Action.MaxDelay > 0 {
				delay += time.Duration(st.rng.Int64N(int64(rs.Action.MaxDelay-rs.Action.Delay) + 1))
			}
		}
		if ok && !fired {
			f, fired = Fault{Rule: rs.ID, Action: rs.Action, Delay: delay}, true
		}
	}
	return f, fired
}

func (rs *ruleState) stream(clientID string) *stream {
	st := rs.streams[clientID]
	if st == nil {
		h := fnv.New64a()
		h.Write([]byte(rs.ID))
		h.Write([]byte{0})
		h.Write([]byte(clientID))
		st = &stream{rng: rand.New(rand.NewPCG(rs.Seed, h.Sum64()))}
		rs.streams[clientID] = st
	}
	return st
}

// TokenRefused reports whether a token issued to clientID at issued is
// refused now by an expire_tokens_after rule.
func (s *Sandbox) TokenRefused(clientID string, issued time.Time) bool {
	now := s.Clock.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, rs := range s.rules {
		if rs.Action.Kind != ExpireTokens || (rs.Match.ClientID != "" && rs.Match.ClientID != clientID) || !rs.Trigger.inWindow(now) {
			continue
		}
		if now.Sub(issued) >= rs.Action.After {
			return true
		}
	}
	return false
}

// Clock is the server's idea of now: the real time, or a fixed time that
// stays put until it is set or moved again, so that tests depending on
// the date or on token lifetimes are reproducible.
type Clock struct {
	real  func() time.Time
	mu    sync.Mutex
	fixed bool
	t     time.Time
}

// NewClock returns a clock that follows real until it is set.
func NewClock(real func() time.Time) *Clock { return &Clock{real: real} }

// Now returns the fixed time, or the real time when none is set.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fixed {
		return c.t
	}
	return c.real()
}

// Set fixes the clock at t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fixed, c.t = true, t
}

// Advance fixes the clock d after its present reading.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.fixed {
		c.fixed, c.t = true, c.real()
	}
	c.t = c.t.Add(d)
}

// Release lets the clock follow the real time again.
func (c *Clock) Release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fixed = false
}

// Fixed reports whether the clock is fixed.
func (c *Clock) Fixed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fixed
}
