package postgres

import (
	"context"
	"embed"
	"fmt"

	"github.com/energyapi/energyapi/internal/store"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrations returns the embedded migrations in order.
func migrations() ([]store.Migration, error) {
	return store.ParseMigrations(migrationFiles, "migrations")
}

// migrate brings the schema up to date, one migration per transaction.
//
// Each transaction first takes a transaction-level advisory lock, before it
// reads the schema version, so when several processes start on a new
// database at once one applies each migration while the others wait and then
// find it applied. A transaction-level lock cannot outlive its transaction,
// even if this process dies half-way. PostgreSQL's DDL is transactional, so a
// migration that fails leaves nothing behind.
//
// A migration may have a step in Go (steps), which runs in its transaction
// before its SQL.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	ms, err := migrations()
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return apply(ctx, pool, ms, steps())
}

// steps returns the Go steps of the migrations, by version: those of every
// store (store.Steps) and this store's filling of the parts' spans.
func steps() map[int]func(context.Context, pgx.Tx) error {
	steps := store.Steps(func(ctx context.Context, tx pgx.Tx, q string) (n int64, err error) {
		err = tx.QueryRow(ctx, q).Scan(&n)
		return n, err
	})
	steps[7] = fillSpans
	return steps
}

// apply applies ms with steps (store.ApplyMigrations). Each transaction
// first takes the advisory lock, as migrate explains.
func apply(ctx context.Context, pool *pgxpool.Pool, ms []store.Migration, steps map[int]func(context.Context, pgx.Tx) error) error {
	return store.ApplyMigrations(ctx, store.Schema[pgx.Tx]{
		InTx: func(ctx context.Context, fn func(pgx.Tx) error) error {
			return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
				if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrateLock); err != nil {
					return err
				}
				return fn(tx)
			})
		},
		Version: func(ctx context.Context, tx pgx.Tx) (current int, err error) {
			if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
				version integer PRIMARY KEY,
				name    text NOT NULL,
				applied timestamptz NOT NULL DEFAULT now()
			)`); err != nil {
				return 0, err
			}
			err = tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&current)
			return current, err
		},
		// Without arguments pgx sends the file as one simple query, which
		// may hold several statements.
		Exec: func(ctx context.Context, tx pgx.Tx, sql string) error {
			_, err := tx.Exec(ctx, sql)
			return err
		},
		Record: func(ctx context.Context, tx pgx.Tx, m store.Migration) error {
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, m.Version, m.Name)
			return err
		},
	}, ms, steps)
}
