// Package postgres is the store for several replicas: every "energyapi
// serve" process behind a load balancer opens the same PostgreSQL database,
// which holds the client registry, the signing keys and every imported
// dataset. It keeps the behaviour of the SQLite store (internal/store/sqlite);
// internal/store/storetest holds both to it.
//
// Replicas learn of changes by polling DataVersion and ClientsVersion, which
// read one row by primary key; changes to the clients also send a
// notification as they commit (see WatchClients), so that a rotated secret or
// a revoked client stops working on every replica at once. Imports run in one transaction each and hold a
// transaction-level advisory lock, so that imports from several processes
// take turns and their counts stay exact. ChangedParts reads in one
// REPEATABLE READ transaction, so a replica never sees half an import.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

var (
	_ auth.ClientStore     = (*Store)(nil)
	_ auth.KeyStore        = (*Store)(nil)
	_ energy.ImportHistory = (*Store)(nil)
	_ store.Parts          = (*Store)(nil)
)

// Advisory lock keys. Advisory locks are per database, so these only need to
// be unique among the users of an energyapi database; the values spell
// "energy" and a number.
const (
	// migrateLock serialises schema migrations of processes that start at once.
	migrateLock int64 = 0x656e6572677901
	// importLock serialises imports: each compares the stored rows with its
	// own and recomputes derived days from what it read, which is only right
	// if no other import commits in between.
	importLock int64 = 0x656e6572677902
)

// endTimeout bounds COMMIT and ROLLBACK, which run even when the caller's
// context has ended (see update).
const endTimeout = 30 * time.Second

// Store is a PostgreSQL database. Its methods are safe for concurrent use,
// and several processes may use one database at the same time.
type Store struct {
	// DB holds the methods whose SQL the two stores share.
	*store.DB
	pool *pgxpool.Pool
	// now stamps versions and import runs; tests in this package replace it.
	now func() time.Time
}

// Open connects to the database that dsn names (a postgres:// or
// postgresql:// URL, or keyword=value pairs, as libpq reads them; pool_*
// parameters size the connection pool) and brings its schema up to date. It
// returns an error if the schema is newer than this program knows. Several
// processes may open the same database, even a new one, at the same time.
// Errors never include dsn, which may hold a password.
func Open(ctx context.Context, dsn string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// pgconn's parse errors redact the password.
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: open %s: %w", where(cfg), err)
	}
	if err := store.Migrate(ctx, schema(pool), migrationFiles, 0); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: open %s: %w", where(cfg), err)
	}
	s := &Store{pool: pool, now: time.Now}
	s.DB = store.NewDB(dialect, conn{pool}, s.updateQ, s.partTx, func() time.Time { return s.now() })
	return s, nil
}

// where names the database for error messages, without credentials.
func where(cfg *pgxpool.Config) string {
	return fmt.Sprintf("%s:%d/%s", cfg.ConnConfig.Host, cfg.ConnConfig.Port, cfg.ConnConfig.Database)
}

// Close closes every connection. It waits for connections in use to be
// returned.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("postgres: ping: %w", err)
	}
	return nil
}

// update runs fn in one READ COMMITTED transaction and commits it if fn
// succeeds and ctx has not ended.
//
// COMMIT itself runs on a context that the caller cannot cancel: cancelling
// a COMMIT in flight drops the connection without knowing whether the server
// committed, and a caller told "failed" must be able to rely on nothing
// having changed.
//
// If fn panics (an import's merge is the caller's code), the transaction is
// rolled back all the same, so that its connection and the import lock are
// released.
func (s *Store) update(ctx context.Context, fn func(tx pgx.Tx) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	committing := false
	defer func() {
		if !committing {
			rollback(ctx, tx)
		}
	}()
	if err := fn(tx); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	committing = true
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), endTimeout)
	defer cancel()
	return tx.Commit(cctx)
}

// view runs fn in one read-only REPEATABLE READ transaction, so that all its
// queries see the same snapshot of the database.
func (s *Store) view(ctx context.Context, fn func(tx pgx.Tx) error) error {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return err
	}
	defer rollback(ctx, tx) // read-only: there is nothing to commit
	return fn(tx)
}

// rollback ends tx without keeping its changes. It runs even when ctx has
// ended, so that the connection returns to the pool clean; if it fails, pgx
// closes the connection and the server rolls back.
func rollback(ctx context.Context, tx pgx.Tx) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), endTimeout)
	defer cancel()
	_ = tx.Rollback(rctx) // the error that led here is the one worth reporting
}

// bumpVersionSQL advances the version counter named $2, stamping it $1.
// The counter's row stays locked until the transaction ends, so
// transactions that advance one counter take turns from there.
const bumpVersionSQL = `UPDATE versions SET version = version + 1, updated = $1 WHERE name = $2`

// isUniqueViolation reports whether err is PostgreSQL rejecting a duplicate key.
func isUniqueViolation(err error) bool {
	var e *pgconn.PgError
	return errors.As(err, &e) && e.Code == "23505" // unique_violation
}

// utc returns *t in UTC, or the zero time for NULL.
func utc(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}
