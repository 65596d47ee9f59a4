package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// Migration is one schema change, numbered from 1 without gaps.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// ParseMigrations returns the migrations in dir of fsys, in order. Their file
// names are NNNN_name.sql; other files are ignored. It returns an error if a
// name does not fit, a number is missing, or there are none.
func ParseMigrations(fsys fs.FS, dir string) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, dir) // sorted by name
	if err != nil {
		return nil, err
	}
	var ms []Migration
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
		ms = append(ms, Migration{Version: v, Name: label, SQL: string(body)})
	}
	if len(ms) == 0 {
		return nil, errors.New("no migrations")
	}
	return ms, nil
}

// Pending reports whether m is still to be applied to a schema at version
// current. It returns an error if current is beyond latest, the newest
// version this program knows: an older program must not touch a newer
// schema.
func (m Migration) Pending(current, latest int) (bool, error) {
	if current > latest {
		return false, fmt.Errorf("schema version %d is newer than this program knows (%d): use a newer energyapi", current, latest)
	}
	return current < m.Version, nil
}

// String returns the migration's file name without .sql, as errors name it.
func (m Migration) String() string { return fmt.Sprintf("%04d_%s", m.Version, m.Name) }

// Schema is what ApplyMigrations needs of a store whose transactions are of
// type T: the SQL and the locking are the store's, the order of the steps
// is the same for every store.
type Schema[T any] struct {
	// InTx runs fn in one transaction and commits it if fn succeeds. The
	// transaction holds, before fn reads anything, whatever lock the store
	// takes so that processes migrating the same database take turns.
	InTx func(ctx context.Context, fn func(tx T) error) error
	// Version creates the schema_migrations table if need be and returns
	// the newest version it records (0 for none).
	Version func(ctx context.Context, tx T) (int, error)
	// Exec runs a migration's SQL, which may hold several statements.
	Exec func(ctx context.Context, tx T, sql string) error
	// Record notes m in schema_migrations as applied.
	Record func(ctx context.Context, tx T, m Migration) error
	// Querier returns tx as the shared code queries it, for the Go steps
	// (Steps).
	Querier func(tx T) Querier
	// SpansTable creates, in the store's own SQL, the temporary table
	// part_spans that migration 7's step fills (FillSpans) and its SQL
	// copies into parts and part_history.
	SpansTable string
}

// Migrate applies to the schema s the migrations in the folder migrations
// of fsys, each with its Go step (Steps): all of them, or with upTo above 0
// the first upTo only, as an older program left a store (tests).
func Migrate[T any](ctx context.Context, s Schema[T], fsys fs.FS, upTo int) error {
	ms, err := ParseMigrations(fsys, "migrations")
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if upTo > 0 {
		ms = ms[:upTo]
	}
	return ApplyMigrations(ctx, s, ms, Steps(s))
}

// ApplyMigrations applies ms, the migrations from the first up to some
// version, one per transaction, each with its Go step from steps (if any)
// run in its transaction before its SQL. The newest of ms is the newest
// schema it accepts; tests apply fewer than all to build a store as an older
// program left it.
func ApplyMigrations[T any](ctx context.Context, s Schema[T], ms []Migration, steps map[int]func(context.Context, T) error) error {
	latest := ms[len(ms)-1].Version
	for _, m := range ms {
		err := s.InTx(ctx, func(tx T) error {
			current, err := s.Version(ctx, tx)
			if err != nil {
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
			if err := s.Exec(ctx, tx, m.SQL); err != nil {
				return fmt.Errorf("%s: %w", m, err)
			}
			return s.Record(ctx, tx, m)
		})
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	}
	return nil
}
