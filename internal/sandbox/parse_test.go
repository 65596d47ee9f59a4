package sandbox

import (
	"testing"
	"time"
)

// TestParseErrors: every mistake is named by file, line and reason.
func TestParseErrors(t *testing.T) {
	known := func(n string) bool { return n == "total-load" }
	for _, tc := range []struct{ name, doc, want string }{
		{"not yaml", "rules: [\n  {", "f.yaml:2: not valid YAML or JSON: did not find expected node content"},
		{"unknown key", "- match: {dataset: total-load}\n  acton: {drop: true}\n", `f.yaml:2: unknown key "acton" in a rule: want one of id, match, action, trigger, seed`},
		{"no action", "- match: {dataset: total-load}\n", "f.yaml:1: the rule has no action"},
		{"two actions", "- action:\n    drop: true\n    status: 503\n", "f.yaml:2: action names drop and status: want exactly one"},
		{"bad status", "- action: {status: 418}\n", "f.yaml:1: status 418: want one of 403, 429, 500, 502, 503, 504"},
		{"unknown dataset", "rules:\n  - match: {dataset: total-lod}\n    action: {drop: true}\n", `f.yaml:2: unknown dataset "total-lod" (GET /catalog lists the names)`},
		{"403 with retry", "- action: {status: 403, retry_after: 2}\n", "f.yaml:1: status 403 (Developer Over Qps) carries no retry_after"},
		{"bad probability", "- action: {drop: true}\n  trigger: {probability: 1.5}\n", `f.yaml:2: probability "1.5": want a number above 0 and at most 1`},
		{"bad latency", "- action: {latency: {min: 2s, max: 1s}}\n", "f.yaml:1: latency: want max above min (a uniform draw between them); for a fixed delay write latency: 200ms"},
		{"expire with every", "- action: {expire_tokens_after: 30s}\n  trigger: {every: 2}\n", "f.yaml:1: expire_tokens_after takes no every, first or probability trigger (a window is allowed)"},
		{"json", "{\"rules\": [{\"action\": {\"latency\": \"fast\"}}]}", `f.yaml:1: latency "fast": want a duration such as 250ms or 30s`},
		{"duplicate id", "- {id: a, action: {drop: true}}\n- {id: a, action: {drop: true}}\n", `f.yaml:2: id "a" is given to two rules`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.yaml", []byte(tc.doc), known)
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v, want %s", err, tc.want)
			}
		})
	}
}

// TestParseRule: a rule with every field reads as written.
func TestParseRule(t *testing.T) {
	doc, err := Parse("f.yaml", []byte(`
seed: 5
rules:
  - id: qps
    match: {dataset: total-load, client_id: ci, path: /load/*/*, query: {biddingZone: North}}
    action: {latency: {min: 100ms, max: 2s}}
    trigger: {every: 2, first: 10, probability: 0.25, window: {from: "2025-03-30T00:00:00+01:00", to: "2025-03-31T00:00:00+02:00"}}
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := doc.Rules[0]
	from := time.Date(2025, 3, 29, 23, 0, 0, 0, time.UTC)
	if doc.Seed != 5 || r.ID != "qps" || r.Match.Dataset != "total-load" || r.Match.ClientID != "ci" || r.Match.Path != "/load/*/*" || r.Match.Query["biddingZone"] != "North" ||
		r.Action.Kind != Latency || r.Action.Delay != 100*time.Millisecond || r.Action.MaxDelay != 2*time.Second ||
		r.Trigger.Every != 2 || r.Trigger.First != 10 || r.Trigger.Probability != 0.25 || !r.Trigger.From.Equal(from) || !r.Trigger.To.Equal(from.Add(23*time.Hour)) {
		t.Errorf("got %+v", doc)
	}
}
