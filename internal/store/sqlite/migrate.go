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

// apply applies ms, the migrations from the first up to some version, as
// migrate does, with the Go steps of their versions: the newest of ms is
// the newest schema it accepts. Tests apply fewer than all to build a store
// as an older program left it.
func apply(ctx context.Context, db *sql.DB, ms []store.Migration, steps map[int]func(context.Context, *sql.Tx) error) error {
	latest := ms[len(ms)-1].Version
	for _, m := range ms {
		err := func() error {
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				return err
			}
			defer tx.Rollback() // a no-op once committed
			if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
				version INTEGER PRIMARY KEY NOT NULL,
				name    TEXT NOT NULL,
				applied INTEGER NOT NULL DEFAULT (unixepoch())
			) STRICT`); err != nil {
				return err
			}
			var current int
			if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
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
			if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
				return fmt.Errorf("%s: %w", m, err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name) VALUES (?, ?)`, m.Version, m.Name); err != nil {
				return err
			}
			return tx.Commit()
		}()
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	}
	return nil
}
