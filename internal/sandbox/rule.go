// Package sandbox is what lets the authors of clients test them against this
// server: fault rules that make chosen requests fail the way production fails
// (throttling, 5xx, slow or broken answers, tokens that stop working), a
// journal of the requests the server saw, and a clock that a test can fix and
// move. It knows nothing of HTTP handlers or stores: the api package asks it
// what to do with a request and tells it what happened.
//
// Every decision is deterministic: each rule counts and draws its random
// numbers per client_id, from a generator seeded by the rule's seed, its ID
// and the client, so two runs of the same requests get the same faults and
// parallel tests with their own client IDs do not disturb each other.
package sandbox

import (
	"encoding/json"
	"net/url"
	"path"
	"strconv"
	"time"
)

// Kind names what a rule does to the requests it fires on.
type Kind string

// The actions of a rule.
const (
	// Status answers with a status and the body the public deployment (or
	// the proxy in front of it) sends with it, without serving the request.
	Status Kind = "status"
	// Latency serves the request after a fixed or seeded random delay.
	Latency Kind = "latency"
	// EmptyBody answers 200 with no body at all.
	EmptyBody Kind = "empty_body"
	// Truncate sends the headers of the real answer and half its body,
	// then closes the connection.
	Truncate Kind = "truncate"
	// Drop closes the connection without an answer.
	Drop Kind = "drop"
	// ExpireTokens refuses the client's tokens once they are older than
	// After on the sandbox clock, whatever their expires_in said.
	ExpireTokens Kind = "expire_tokens"
)

// OverQpsBody is what the public deployment's gateway answers, with 403,
// to a key over its request rate.
const OverQpsBody = "Developer Over Qps"

// Statuses are the statuses a Status action can answer.
var Statuses = []int{403, 429, 500, 502, 503, 504}

// maxDelay bounds a latency: longer delays only meet the request deadline.
const maxDelay = 5 * time.Minute

// Rule is one fault rule: which requests it matches, when it fires on them
// and what it does then.
type Rule struct {
	ID      string
	Match   Match
	Action  Action
	Trigger Trigger
	// Seed seeds the rule's random draws (probability, latency); 0 takes
	// the seed of the file or of the sandbox.
	Seed uint64
}

// Match selects requests. Every field set must match; an empty Match
// matches every data and token request.
type Match struct {
	Dataset  string            // dataset name, as in GET /catalog
	Path     string            // path pattern (path.Match syntax: /load/*)
	ClientID string            // the client of the token or of the token request
	Query    map[string]string // each parameter must have this value (one of its values when repeated)
}

// Action is what a rule does when it fires.
type Action struct {
	Kind Kind
	// Status, RetryAfter (seconds, 0 for no header) and Body (empty for
	// the realistic default) of a Status action.
	Status     int
	RetryAfter int
	Body       string
	// Delay, or a uniform draw in [Delay, MaxDelay] when MaxDelay is set,
	// of a Latency action.
	Delay, MaxDelay time.Duration
	// After is the lifetime of tokens under an ExpireTokens action.
	After time.Duration
}

// Trigger says on which of the matched requests a rule fires. Every
// condition set must hold; the zero Trigger fires on every matched request.
// Counts are per client_id and count only requests inside the window.
type Trigger struct {
	Every       int       // the Nth, 2Nth, ... matched request
	First       int       // the first N matched requests
	Probability float64   // each matched request with this probability (0: always)
	From, To    time.Time // a window on the sandbox clock, [From, To); zero: open
}

// Request is what a rule matches.
type Request struct {
	Dataset  string // "" for a token request
	Path     string
	ClientID string
	Query    url.Values
}

func (m Match) matches(r Request) bool {
	if m.Dataset != "" && m.Dataset != r.Dataset {
		return false
	}
	if m.ClientID != "" && m.ClientID != r.ClientID {
		return false
	}
	if m.Path != "" {
		if ok, _ := path.Match(m.Path, r.Path); !ok {
			return false
		}
	}
	for k, want := range m.Query {
		found := false
		for _, v := range r.Query[k] {
			if v == want {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func (t Trigger) inWindow(now time.Time) bool {
	return (t.From.IsZero() || !now.Before(t.From)) && (t.To.IsZero() || now.Before(t.To))
}

// MarshalJSON writes the rule in the form the rules file and the admin
// endpoint read, so that what GET /sandbox/rules lists can be posted back.
func (r Rule) MarshalJSON() ([]byte, error) {
	type match struct {
		Dataset  string            `json:"dataset,omitempty"`
		Path     string            `json:"path,omitempty"`
		ClientID string            `json:"client_id,omitempty"`
		Query    map[string]string `json:"query,omitempty"`
	}
	type window struct {
		From string `json:"from,omitempty"`
		To   string `json:"to,omitempty"`
	}
	type trigger struct {
		Every       int     `json:"every,omitempty"`
		First       int     `json:"first,omitempty"`
		Probability float64 `json:"probability,omitempty"`
		Window      *window `json:"window,omitempty"`
	}
	action := map[string]any{}
	switch a := r.Action; a.Kind {
	case Status:
		action["status"] = a.Status
		if a.RetryAfter > 0 {
			action["retry_after"] = a.RetryAfter
		}
		if a.Body != "" {
			action["body"] = a.Body
		}
	case Latency:
		if a.MaxDelay > 0 {
			action["latency"] = map[string]string{"min": a.Delay.String(), "max": a.MaxDelay.String()}
		} else {
			action["latency"] = a.Delay.String()
		}
	case ExpireTokens:
		action["expire_tokens_after"] = a.After.String()
	default:
		action[string(a.Kind)] = true
	}
	t := trigger{Every: r.Trigger.Every, First: r.Trigger.First, Probability: r.Trigger.Probability}
	if !r.Trigger.From.IsZero() || !r.Trigger.To.IsZero() {
		t.Window = &window{}
		if !r.Trigger.From.IsZero() {
			t.Window.From = r.Trigger.From.Format(time.RFC3339)
		}
		if !r.Trigger.To.IsZero() {
			t.Window.To = r.Trigger.To.Format(time.RFC3339)
		}
	}
	return json.Marshal(struct {
		ID      string         `json:"id"`
		Match   match          `json:"match"`
		Action  map[string]any `json:"action"`
		Trigger trigger        `json:"trigger"`
		Seed    uint64         `json:"seed,omitempty"`
	}{r.ID, match(r.Match), action, t, r.Seed})
}

// Describe names the action for the journal: "status 403", "latency", ...
func (a Action) Describe() string {
	if a.Kind == Status {
		return "status " + strconv.Itoa(a.Status)
	}
	return string(a.Kind)
}
