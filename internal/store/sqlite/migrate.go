package sqlite

import (
	"context"
	"database/sql"
	"embed"

	"github.com/energyapi/energyapi/internal/store"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// schema is the file's schema as migrations change it (store.Migrate),
// one migration per transaction.
//
// Each transaction begins IMMEDIATE, taking the write lock before it reads
// the schema version, so when two processes open a new file at once one waits
// for the other and then finds the migration already applied.
//
// A migration may have a step in Go (store.Steps), which runs in its
// transaction before its SQL.
func schema(db *sql.DB) store.Schema[*sql.Tx] {
	return store.Schema[*sql.Tx]{
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
		Querier: func(tx *sql.Tx) store.Querier { return conn{tx} },
		SpansTable: `CREATE TEMP TABLE part_spans (
			dataset TEXT NOT NULL, id TEXT NOT NULL, version INTEGER NOT NULL,
			first_time INTEGER NOT NULL, last_time INTEGER NOT NULL,
			PRIMARY KEY (dataset, id, version))`,
	}
}
