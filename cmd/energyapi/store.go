package main

import (
	"context"
	"flag"
	"strings"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store/postgres"
	"github.com/energyapi/energyapi/internal/store/sqlite"
)

// store is everything the commands need of a storage backend.
type store interface {
	auth.ClientStore
	auth.KeyStore
	energy.Writer
	energy.Source
	energy.ImportHistory
	Ping(context.Context) error
	Close() error
}

const defaultDB = "./energyapi.db"

// dbUsage is the help text of every command's --db flag.
const dbUsage = "the store: a SQLite file path, or a PostgreSQL URL (postgres://user:password@host:5432/dbname?sslmode=require) that several serve replicas may share"

func dbFlag(fs *flag.FlagSet) *string {
	return fs.String("db", defaultDB, dbUsage)
}

// openStore opens the store named by dsn: PostgreSQL for a postgres:// or
// postgresql:// URL, else a SQLite file.
func openStore(ctx context.Context, dsn string) (store, error) {
	if lower := strings.ToLower(dsn); strings.HasPrefix(lower, "postgres://") || strings.HasPrefix(lower, "postgresql://") {
		s, err := postgres.Open(ctx, dsn)
		if err != nil {
			return nil, err // not a nil *postgres.Store in a non-nil interface
		}
		return s, nil
	}
	return sqlite.Open(ctx, dsn)
}
