package main

import (
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
	code := cluster.Run(m)
	// The binary energyapiBinary built is this process's to remove: a
	// temporary directory of 40 MB left by every run would fill the disk.
	if built.path != "" {
		_ = os.RemoveAll(filepath.Dir(built.path))
	}
	os.Exit(code)
}
