package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migration is one schema change, numbered from 1 without gaps.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the embedded migrations in order. Their file names are
// NNNN_name.sql.
func migrations() ([]migration, error) {
	return parseMigrations(migrationFiles, "migrations")
}

func parseMigrations(fsys fs.FS, dir string) ([]migration, error) {
	entries, err := fs.ReadDir(fsys, dir) // sorted by name
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".sql")
		if !ok || e.IsDir() {
			continue
		}
		num, label, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || len(num) != 4 || err != nil || label == "" {
			return nil, fmt.Errorf("migration %s: name is not NNNN_name.sql", e.Name())
		}
		if v != len(ms)+1 {
			return nil, fmt.Errorf("migration %s: want version %d next", e.Name(), len(ms)+1)
		}
		body, err := fs.ReadFile(fsys, dir+"/"+e.Name())
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: label, sql: string(body)})
	}
	if len(ms) == 0 {
		return nil, errors.New("no migrations")
	}
	return ms, nil
}

// migrate brings the schema up to date, one migration per transaction.
//
// Each transaction first takes a transaction-level advisory lock, before it
// reads the schema version, so when several processes start on a new
// database at once one applies each migration while the others wait and then
// find it applied. A transaction-level lock cannot outlive its transaction,
// even if this process dies half-way. PostgreSQL's DDL is transactional, so a
// migration that fails leaves nothing behind.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	ms, err := migrations()
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	latest := ms[len(ms)-1].version
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
			if current > latest {
				return fmt.Errorf("schema version %d is newer than this program knows (%d): use a newer energyapi", current, latest)
			}
			if current >= m.version {
				return nil
			}
			// Without arguments pgx sends the file as one simple query, which
			// may hold several statements.
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return fmt.Errorf("%04d_%s: %w", m.version, m.name, err)
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, m.version, m.name)
			return err
		})
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	}
	return nil
}
