package main

import (
	"os"
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
	os.Exit(cluster.Run(m))
}
