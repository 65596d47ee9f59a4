package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/energyapi/energyapi/internal/store/postgres/pgtest"
)

// cluster is the PostgreSQL server that this binary's PostgreSQL tests create
// their databases on. It starts on first use, so the other tests pay nothing.
var cluster *pgtest.Cluster

func TestMain(m *testing.M) {
	if raw := os.Getenv(faultChildEnv); raw != "" {
		os.Exit(faultChild(raw)) // a child process of the fault tests
	}
	cluster = pgtest.New()
	// When the whole package runs, the energyapi binary that the demo and
	// bulk tests run is built in the background from the start, rather
	// than by the first of them while the others wait, holding their
	// places among the parallel tests. A run of chosen tests (-run) builds
	// it only if they ask.
	flag.Parse()
	prebuild := flag.Lookup("test.run").Value.String() == ""
	if prebuild {
		go buildEnergyapi()
	}
	code := cluster.Run(m)
	if prebuild {
		buildEnergyapi() // the build has ended before its directory is removed
	}
	// The binary energyapiBinary built is this process's to remove: a
	// temporary directory of 40 MB left by every run would fill the disk.
	if built.path != "" {
		_ = os.RemoveAll(filepath.Dir(built.path))
	}
	os.Exit(code)
}
