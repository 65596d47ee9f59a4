// Package testwait holds the time bounds of the test suite. A fixed bound a
// test waits for (a server starting, a change reaching a replica, a stream
// hearing an event) is multiplied by the factor in ENERGYAPI_TEST_TIMESCALE
// (default 1), so that the suite holds on a machine busy with other work:
// `ENERGYAPI_TEST_TIMESCALE=4 go test ./...` gives every bound four times
// as long. Bounds that are the behaviour under test (a revocation reaching a
// replica within 100 ms) scale too: a busy machine delays the test's own
// observation as much as the server's work.
package testwait

import (
	"os"
	"strconv"
	"testing"
	"time"
)

// envScale names the environment variable holding the factor.
const envScale = "ENERGYAPI_TEST_TIMESCALE"

// Factor returns the factor from ENERGYAPI_TEST_TIMESCALE: a positive number,
// 1 when unset; a malformed value panics, so that a typo is not silently 1.
func Factor() float64 {
	s := os.Getenv(envScale)
	if s == "" {
		return 1
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f <= 0 {
		panic(envScale + "=" + s + ": want a positive number")
	}
	return f
}

// Scale returns d times the factor.
func Scale(d time.Duration) time.Duration {
	return time.Duration(float64(d) * Factor())
}

// For polls cond every few milliseconds until it holds, and fails tb if it
// does not within the scaled bound.
func For(tb testing.TB, within time.Duration, what string, cond func() bool) {
	tb.Helper()
	within = Scale(within)
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
