package apitest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// PeakValleyLines returns a peak-valley answer, which what asked for, as
// "hh:mm peak/valley" records joined by "; ", each followed by its
// published_at and revised_at when the answer has them. It fails the test
// unless the answer is a 200 with the peak_valley_load array.
func PeakValleyLines(tb testing.TB, what string, status int, body []byte) string {
	tb.Helper()
	var answer struct {
		PeakValley []map[string]string `json:"peak_valley_load"`
	}
	if err := json.Unmarshal(body, &answer); err != nil || status != http.StatusOK {
		tb.Fatalf("%s: got %d %s (%v)", what, status, body, err)
	}
	var out []string
	for _, rec := range answer.PeakValley {
		line := rec["date"][11:16] + " " + rec["peak_load_GW"] + "/" + rec["valley_load_GW"]
		if p, ok := rec["published_at"]; ok {
			line += " " + p + " " + rec["revised_at"]
		}
		out = append(out, line)
	}
	return strings.Join(out, "; ")
}
