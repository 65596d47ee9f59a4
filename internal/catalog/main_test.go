package catalog

import (
	"flag"
	"os"
	"testing"
)

// TestMain starts building shortManifest in the background when the whole
// package runs: the demo source tests that share it wait for it, holding
// their places among the parallel tests, and under the race detector it
// took tens of seconds. A run of chosen tests (-run) builds it only if
// they ask.
func TestMain(m *testing.M) {
	flag.Parse()
	if flag.Lookup("test.run").Value.String() == "" {
		go func() { _, _ = shortManifest() }()
	}
	os.Exit(m.Run())
}
