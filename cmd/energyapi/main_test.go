package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/energyapi/energyapi/internal/store/postgres/pgtest"
)

// cluster is the PostgreSQL server that this binary's PostgreSQL tests create
// their databases on. It starts on first use, so the other tests pay nothing.
var cluster *pgtest.Cluster

func TestMain(m *testing.M) {
	cluster = pgtest.New()
	code := m.Run()
	if err := cluster.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "pgtest: stopping the server:", err)
		code = 1
	}
	os.Exit(code)
}
