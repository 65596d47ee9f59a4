package store

import (
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
