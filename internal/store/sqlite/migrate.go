package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"

	"github.com/energyapi/energyapi/internal/store"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrations returns the embedded migrations in order.
func migrations() ([]store.Migration, error) {
	return store.ParseMigrations(migrationFiles, "migrations")
}

// migrate brings the schema of db up to date, one migration per transaction.
//
// Each transaction begins IMMEDIATE, taking the write lock before it reads
// the schema version, so when two processes open a new file at once one waits
// for the other and then finds the migration already applied.
//
// A migration may have a step in Go (steps), which runs in its transaction
// before its SQL.
func migrate(ctx context.Context, db *sql.DB) error {
	ms, err := migrations()
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return apply(ctx, db, ms, steps())
}

// steps returns the Go steps of the migrations, by version: those of every
// store (store.Steps) and this store's filling of the parts' spans.
func steps() map[int]func(context.Context, *sql.Tx) error {
	steps := store.Steps(func(ctx context.Context, tx *sql.Tx, q string) (n int64, err error) {
		err = tx.QueryRowContext(ctx, q).Scan(&n)
		return n, err
	})
	steps[7] = fillSpans
	return steps
}

// apply applies ms with steps (store.ApplyMigrations). Each transaction
// begins IMMEDIATE on the one connection db has, as migrate explains.
func apply(ctx context.Context, db *sql.DB, ms []store.Migration, steps map[int]func(context.Context, *sql.Tx) error) error {
	return store.ApplyMigrations(ctx, store.Schema[*sql.Tx]{
		InTx: func(ctx context.Context, fn func(*sql.Tx) error) error { return inTx(ctx, db, fn) },
		Version: func(ctx context.Context, tx *sql.Tx) (current int, err error) {
			if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
				version INTEGER PRIMARY KEY NOT NULL,
				name    TEXT NOT NULL,
				applied INTEGER NOT NULL DEFAULT (unixepoch())
			) STRICT`); err != nil {
				return 0, err
			}
			err = tx.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&current)
			return current, err
		},
		Exec: func(ctx context.Context, tx *sql.Tx, sql string) error {
			_, err := tx.ExecContext(ctx, sql)
			return err
		},
		Record: func(ctx context.Context, tx *sql.Tx, m store.Migration) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name) VALUES (?, ?)`, m.Version, m.Name)
			return err
		},
	}, ms, steps)
}
