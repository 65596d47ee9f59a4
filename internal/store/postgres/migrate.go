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

// apply applies ms, the migrations from the first up to some version, as
// migrate does, with the Go steps of their versions: the newest of ms is
// the newest schema it accepts. Tests apply fewer than all to build a store
// as an older program left it.
func apply(ctx context.Context, pool *pgxpool.Pool, ms []store.Migration, steps map[int]func(context.Context, pgx.Tx) error) error {
	latest := ms[len(ms)-1].Version
	for _, m := range ms {
		err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrateLock); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
				version integer PRIMARY KEY,
				name    text NOT NULL,
				applied timestamptz NOT NULL DEFAULT now()
			)`); err != nil {
				return err
			}
			var current int
			if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
				return err
			}
			if pending, err := m.Pending(current, latest); err != nil || !pending {
				return err
			}
			if step := steps[m.Version]; step != nil {
				if err := step(ctx, tx); err != nil {
					return fmt.Errorf("%s: %w", m, err)
				}
			}
			// Without arguments pgx sends the file as one simple query, which
			// may hold several statements.
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return fmt.Errorf("%s: %w", m, err)
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, m.Version, m.Name)
			return err
		})
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	}
	return nil
}
