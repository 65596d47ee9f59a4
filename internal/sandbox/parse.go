package sandbox

import (
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Rules is a parsed rules document.
type Rules struct {
	// Seed is the document's seed for rules that name none; 0 for none.
	Seed  uint64
	Rules []Rule
}

// ParseError is a mistake in a rules document, at a line of it.
type ParseError struct {
	File   string
	Line   int
	Reason string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason) }

// Parse reads a rules document named name (a file name, or how the admin
// endpoint names a request body): YAML, or JSON, which YAML includes. The
// document is a mapping with an optional seed and a list of rules, or the
// list alone:
//
//	seed: 42
//	rules:
//	  - id: qps
//	    match: {dataset: total-load, client_id: ci-a, query: {biddingZone: North}}
//	    action: {status: 403}
//	    trigger: {every: 3}
//
// known reports whether a dataset name exists; nil accepts any. Parse
// returns a *ParseError naming the line of the first mistake.
func Parse(name string, data []byte, known func(string) bool) (Rules, error) {
	p := parser{file: name, known: known}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line := 1
		// yaml.v3 says "yaml: line N: reason"; keep the line, word it ours.
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		if rest, ok := strings.CutPrefix(msg, "line "); ok {
			if n, after, ok := strings.Cut(rest, ": "); ok {
				if v, err := strconv.Atoi(n); err == nil {
					line, msg = v, after
				}
			}
		}
		return Rules{}, &ParseError{File: name, Line: line, Reason: "not valid YAML or JSON: " + msg}
	}
	if len(doc.Content) == 0 {
		return Rules{}, &ParseError{File: name, Line: 1, Reason: "empty document: want a list of rules, or a mapping with rules"}
	}
	return p.document(doc.Content[0])
}

type parser struct {
	file  string
	known func(string) bool
	ids   map[string]bool
}

func (p *parser) fail(n *yaml.Node, format string, args ...any) error {
	return &ParseError{File: p.file, Line: n.Line, Reason: fmt.Sprintf(format, args...)}
}

// fields calls f for each key of the mapping n, refusing other node kinds,
// keys that are not in allowed and keys given twice.
func (p *parser) fields(n *yaml.Node, what string, allowed []string, f func(key string, k, v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return p.fail(n, "%s must be a mapping with keys %s", what, strings.Join(allowed, ", "))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !slices.Contains(allowed, k.Value) {
			return p.fail(k, "unknown key %q in %s: want one of %s", k.Value, what, strings.Join(allowed, ", "))
		}
		if seen[k.Value] {
			return p.fail(k, "%s gives %q twice", what, k.Value)
		}
		seen[k.Value] = true
		if err := f(k.Value, k, v); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) document(n *yaml.Node) (Rules, error) {
	var out Rules
	var list *yaml.Node
	switch n.Kind {
	case yaml.SequenceNode:
		list = n
	case yaml.MappingNode:
		err := p.fields(n, "the document", []string{"seed", "rules"}, func(key string, _, v *yaml.Node) error {
			if key == "seed" {
				s, err := p.uint(v, "seed")
				out.Seed = s
				return err
			}
			list = v
			return nil
		})
		if err != nil {
			return Rules{}, err
		}
		if list == nil {
			return Rules{}, p.fail(n, "the document has no rules")
		}
	default:
		return Rules{}, p.fail(n, "want a list of rules, or a mapping with seed and rules")
	}
	if list.Kind != yaml.SequenceNode {
		return Rules{}, p.fail(list, "rules must be a list")
	}
	p.ids = map[string]bool{}
	for _, rn := range list.Content {
		r, err := p.rule(rn)
		if err != nil {
			return Rules{}, err
		}
		out.Rules = append(out.Rules, r)
	}
	return out, nil
}

func (p *parser) rule(n *yaml.Node) (Rule, error) {
	var r Rule
	var action *yaml.Node
	err := p.fields(n, "a rule", []string{"id", "match", "action", "trigger", "seed"}, func(key string, k, v *yaml.Node) error {
		var err error
		switch key {
		case "id":
			if r.ID, err = p.str(v, "id"); err == nil {
				switch {
				case r.ID == "" || strings.ContainsAny(r.ID, "/?#% \t"):
					err = p.fail(v, "id %q: want a non-empty name without spaces, /, ?, # or %%", r.ID)
				case p.ids[r.ID]:
					err = p.fail(v, "id %q is given to two rules", r.ID)
				}
				p.ids[r.ID] = true
			}
		case "match":
			r.Match, err = p.match(v)
		case "action":
			action = v
			r.Action, err = p.action(v)
		case "trigger":
			r.Trigger, err = p.trigger(v)
		case "seed":
			r.Seed, err = p.uint(v, "seed")
		}
		return err
	})
	if err != nil {
		return Rule{}, err
	}
	if action == nil {
		return Rule{}, p.fail(n, "the rule has no action")
	}
	if r.Action.Kind == ExpireTokens {
		// Tokens are refused by age, on every request of the client: which
		// request it is does not enter into it.
		t := r.Trigger
		switch {
		case t.Every != 0 || t.First != 0 || t.Probability != 0:
			return Rule{}, p.fail(action, "expire_tokens_after takes no every, first or probability trigger (a window is allowed)")
		case r.Match.Dataset != "" || r.Match.Path != "" || r.Match.Query != nil:
			return Rule{}, p.fail(action, "expire_tokens_after matches a client_id only: a token serves every dataset")
		}
	}
	return r, nil
}

func (p *parser) match(n *yaml.Node) (Match, error) {
	var m Match
	err := p.fields(n, "match", []string{"dataset", "path", "client_id", "query"}, func(key string, _, v *yaml.Node) error {
		var err error
		switch key {
		case "dataset":
			if m.Dataset, err = p.str(v, "dataset"); err == nil && p.known != nil && !p.known(m.Dataset) {
				err = p.fail(v, "unknown dataset %q (GET /catalog lists the names)", m.Dataset)
			}
		case "path":
			if m.Path, err = p.str(v, "path"); err == nil {
				if _, perr := path.Match(m.Path, "/"); perr != nil || !strings.HasPrefix(m.Path, "/") {
					err = p.fail(v, "path %q: want a pattern starting with / (* matches within a segment)", m.Path)
				}
			}
		case "client_id":
			m.ClientID, err = p.str(v, "client_id")
		case "query":
			if v.Kind != yaml.MappingNode {
				return p.fail(v, "query must be a mapping of parameter to value")
			}
			m.Query = map[string]string{}
			for i := 0; i+1 < len(v.Content); i += 2 {
				val, err := p.str(v.Content[i+1], "the value of "+v.Content[i].Value)
				if err != nil {
					return err
				}
				m.Query[v.Content[i].Value] = val
			}
		}
		return err
	})
	return m, err
}

func (p *parser) action(n *yaml.Node) (Action, error) {
	var a Action
	var kinds []string
	var statusNode *yaml.Node
	extras := map[string]*yaml.Node{}
	err := p.fields(n, "action", []string{"status", "retry_after", "body", "latency", "empty_body", "truncate", "drop", "expire_tokens_after"}, func(key string, k, v *yaml.Node) error {
		var err error
		switch key {
		case "status":
			kinds = append(kinds, key)
			statusNode = v
			var s uint64
			if s, err = p.uint(v, "status"); err == nil {
				a.Kind, a.Status = Status, int(s)
				if !slices.Contains(Statuses, a.Status) {
					err = p.fail(v, "status %d: want one of 403, 429, 500, 502, 503, 504", s)
				}
			}
		case "retry_after":
			extras[key] = k
			var s uint64
			if s, err = p.uint(v, "retry_after"); err == nil {
				if s < 1 || s > 3600 {
					err = p.fail(v, "retry_after %d: want seconds between 1 and 3600", s)
				}
				a.RetryAfter = int(s)
			}
		case "body":
			extras[key] = k
			a.Body, err = p.str(v, "body")
		case "latency":
			kinds = append(kinds, key)
			a.Kind = Latency
			err = p.latency(v, &a)
		case "empty_body", "truncate", "drop":
			kinds = append(kinds, key)
			a.Kind = Kind(key)
			if v.Kind != yaml.ScalarNode || v.Value != "true" {
				err = p.fail(v, "%s: want true", key)
			}
		case "expire_tokens_after":
			kinds = append(kinds, key)
			a.Kind = ExpireTokens
			if a.After, err = p.duration(v, key); err == nil && a.After <= 0 {
				err = p.fail(v, "%s: want a duration above 0, such as 30s", key)
			}
		}
		return err
	})
	if err != nil {
		return Action{}, err
	}
	switch {
	case len(kinds) == 0:
		return Action{}, p.fail(n, "action names nothing to do: want one of status, latency, empty_body, truncate, drop, expire_tokens_after")
	case len(kinds) > 1:
		return Action{}, p.fail(n, "action names %s: want exactly one", strings.Join(kinds, " and "))
	}
	for key, k := range extras {
		if a.Kind != Status {
			return Action{}, p.fail(k, "%s goes with status only", key)
		}
	}
	if a.Kind == Status && a.Status == 403 && a.RetryAfter > 0 {
		// The gateway's 403 never says when to come back; clients wait a
		// fixed time, and a header here would test nothing real.
		return Action{}, p.fail(statusNode, "status 403 (%s) carries no retry_after", OverQpsBody)
	}
	return a, nil
}

func (p *parser) latency(v *yaml.Node, a *Action) error {
	if v.Kind == yaml.ScalarNode {
		d, err := p.duration(v, "latency")
		if err == nil && (d <= 0 || d > maxDelay) {
			err = p.fail(v, "latency %s: want a duration above 0 and at most %s", d, maxDelay)
		}
		a.Delay = d
		return err
	}
	err := p.fields(v, "latency", []string{"min", "max"}, func(key string, _, v *yaml.Node) error {
		d, err := p.duration(v, key)
		if err == nil && (d < 0 || d > maxDelay) {
			err = p.fail(v, "%s %s: want a duration between 0 and %s", key, d, maxDelay)
		}
		if key == "min" {
			a.Delay = d
		} else {
			a.MaxDelay = d
		}
		return err
	})
	if err == nil && a.MaxDelay <= a.Delay {
		err = p.fail(v, "latency: want max above min (a uniform draw between them); for a fixed delay write latency: 200ms")
	}
	return err
}

func (p *parser) trigger(n *yaml.Node) (Trigger, error) {
	var t Trigger
	err := p.fields(n, "trigger", []string{"every", "first", "probability", "window"}, func(key string, _, v *yaml.Node) error {
		var err error
		switch key {
		case "every", "first":
			var c uint64
			if c, err = p.uint(v, key); err == nil && (c < 1 || c > math.MaxInt32) {
				err = p.fail(v, "%s %d: want a count of 1 or more", key, c)
			}
			if key == "every" {
				t.Every = int(c)
			} else {
				t.First = int(c)
			}
		case "probability":
			if t.Probability, err = strconv.ParseFloat(v.Value, 64); err != nil || v.Kind != yaml.ScalarNode || !(t.Probability > 0 && t.Probability <= 1) {
				err = p.fail(v, "probability %q: want a number above 0 and at most 1", v.Value)
			}
		case "window":
			err = p.fields(v, "window", []string{"from", "to"}, func(key string, _, v *yaml.Node) error {
				tm, err := time.Parse(time.RFC3339, v.Value)
				if err != nil || v.Kind != yaml.ScalarNode {
					return p.fail(v, "window %s %q: want a time such as 2025-03-30T00:00:00+01:00", key, v.Value)
				}
				if key == "from" {
					t.From = tm
				} else {
					t.To = tm
				}
				return nil
			})
			if err == nil && !t.From.IsZero() && !t.To.IsZero() && !t.To.After(t.From) {
				err = p.fail(v, "window: want to after from")
			}
		}
		return err
	})
	return t, err
}

func (p *parser) str(v *yaml.Node, what string) (string, error) {
	if v.Kind != yaml.ScalarNode {
		return "", p.fail(v, "%s must be a single value", what)
	}
	return v.Value, nil
}

func (p *parser) uint(v *yaml.Node, what string) (uint64, error) {
	n, err := strconv.ParseUint(v.Value, 10, 64)
	if err != nil || v.Kind != yaml.ScalarNode {
		return 0, p.fail(v, "%s %q: want a whole number", what, v.Value)
	}
	return n, nil
}

func (p *parser) duration(v *yaml.Node, what string) (time.Duration, error) {
	d, err := time.ParseDuration(v.Value)
	if err != nil || v.Kind != yaml.ScalarNode {
		return 0, p.fail(v, "%s %q: want a duration such as 250ms or 30s", what, v.Value)
	}
	return d, nil
}
