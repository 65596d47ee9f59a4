package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net/url"
	"strings"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store/postgres"
	"github.com/energyapi/energyapi/internal/store/sqlite"
)

// store is everything the commands need of a storage backend.
type store interface {
	auth.ClientStore
	// Both stores tell serving processes of client changes at once; a
	// wrapper of the store (servingStore) must keep telling them.
	auth.ClientWatcher
	auth.KeyStore
	auth.RegistrationStore
	dataset.PartWriter
	dataset.PartFiller
	dataset.PartSource
	// Both stores lend a part's bytes to its decoder rather than copy
	// them; a wrapper of the store must keep lending them.
	dataset.PartLender
	dataset.PartHistory
	dataset.EventSource
	energy.ImportHistory
	Ping(context.Context) error
	Close() error
}

const defaultDB = "./energyapi.db"

// dbUsage is the help text of every command's --db flag.
const dbUsage = "the store: a SQLite file path, or a PostgreSQL URL (postgres://user:password@host:5432/dbname?sslmode=require) that several serve replicas may share"

func dbFlag(flags *flag.FlagSet) *string {
	return flags.String("db", defaultDB, dbUsage)
}

// isPostgres reports whether dsn names a PostgreSQL database rather than a
// SQLite file.
func isPostgres(dsn string) bool {
	lower := strings.ToLower(dsn)
	return strings.HasPrefix(lower, "postgres://") || strings.HasPrefix(lower, "postgresql://")
}

// openStore opens the store named by dsn: PostgreSQL for a postgres:// or
// postgresql:// URL, else a SQLite file. Only the commands that exist to fill
// a store (init, import, demo, serve --demo) pass create: for the others a
// SQLite file that does not exist is an error that says how to create it,
// and nothing is created, since a mistyped --db would otherwise start an
// empty store and the operator would wonder where the clients went.
func openStore(ctx context.Context, dsn string, create bool) (store, error) {
	if isPostgres(dsn) {
		s, err := postgres.Open(ctx, dsn)
		if err != nil {
			return nil, err // not a nil *postgres.Store in a non-nil interface
		}
		return s, nil
	}
	open := sqlite.OpenExisting
	if create {
		open = sqlite.Open
	}
	s, err := open(ctx, dsn)
	var modeErr *sqlite.ModeError
	switch {
	case err == nil:
		return s, nil
	case !create && errors.Is(err, fs.ErrNotExist):
		demo := "energyapi serve --demo"
		if dsn != defaultDB {
			demo += " --db " + dsn
		}
		return nil, fmt.Errorf("store %s does not exist; create it with %q or run %q", dsn, "energyapi init --db "+dsn, demo)
	case errors.As(err, &modeErr):
		return nil, modeErr // it names the file and the fix; "sqlite: open:" adds nothing
	}
	return nil, err
}

// storeName is dsn as it may be shown: a PostgreSQL URL without its password.
func storeName(dsn string) string {
	if !isPostgres(dsn) {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "a PostgreSQL database" // unparsable: it might hold a password anywhere
	}
	return u.Redacted()
}
