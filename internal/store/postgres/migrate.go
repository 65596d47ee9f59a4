package postgres

import (
	"context"
	"embed"

	"github.com/energyapi/energyapi/internal/store"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// schema is the database's schema as migrations change it (store.Migrate),
// one migration per transaction.
//
// Each transaction first takes a transaction-level advisory lock, before it
// reads the schema version, so when several processes start on a new
// database at once one applies each migration while the others wait and then
// find it applied. A transaction-level lock cannot outlive its transaction,
// even if this process dies half-way. PostgreSQL's DDL is transactional, so a
// migration that fails leaves nothing behind.
//
// A migration may have a step in Go (store.Steps), which runs in its
// transaction before its SQL.
func schema(pool *pgxpool.Pool) store.Schema[pgx.Tx] {
	return store.Schema[pgx.Tx]{
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
		Querier: func(tx pgx.Tx) store.Querier { return conn{tx} },
		SpansTable: `CREATE TEMP TABLE part_spans (
			dataset text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL, version bigint NOT NULL,
			first_time bigint NOT NULL, last_time bigint NOT NULL,
			PRIMARY KEY (dataset, id, version)) ON COMMIT DROP`,
	}
}
