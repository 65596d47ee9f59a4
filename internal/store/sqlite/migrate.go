package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
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

// migrate brings the schema of db up to date, one migration per transaction.
//
// Each transaction begins IMMEDIATE, taking the write lock before it reads
// the schema version, so when two processes open a new file at once one waits
// for the other and then finds the migration already applied.
func migrate(ctx context.Context, db *sql.DB) error {
	ms, err := migrations()
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	latest := ms[len(ms)-1].version
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
			if current > latest {
				return fmt.Errorf("schema version %d is newer than this program knows (%d): use a newer energyapi", current, latest)
			}
			if current >= m.version {
				return nil
			}
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return fmt.Errorf("%04d_%s: %w", m.version, m.name, err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name) VALUES (?, ?)`, m.version, m.name); err != nil {
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
