package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/energyapi/energyapi/internal/store"
)

// dialect is how the shared code (store.DB) meets SQLite: one writer holds
// the whole file, so no row locks, no notices and no lock per address.
var dialect = store.Dialect{Name: "sqlite", IsUniqueViolation: isUniqueViolation}

// sqlConn is a *sql.DB or a *sql.Tx.
type sqlConn interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// conn is a store.Querier on SQLite: it binds and scans times as the
// Unix microseconds the schema keeps.
type conn struct{ q sqlConn }

func (c conn) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := c.q.ExecContext(ctx, query, bindMicros(args)...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (c conn) QueryRow(ctx context.Context, query string, args ...any) store.Row {
	return row{c.q.QueryRowContext(ctx, query, bindMicros(args)...)}
}

func (c conn) Query(ctx context.Context, query string, args ...any) (store.Rows, error) {
	rs, err := c.q.QueryContext(ctx, query, bindMicros(args)...)
	if err != nil {
		return nil, err
	}
	return rows{rs}, nil
}

type row struct{ *sql.Row }

func (r row) Scan(dest ...any) error { return store.ScanTimes(r.Row.Scan, dest, fromMicro) }

type rows struct{ *sql.Rows }

func (r rows) Scan(dest ...any) error { return store.ScanTimes(r.Rows.Scan, dest, fromMicro) }

// bindMicros replaces each time.Time in args by its Unix microseconds.
func bindMicros(args []any) []any {
	for i, a := range args {
		if t, ok := a.(time.Time); ok {
			args[i] = t.UnixMicro()
		}
	}
	return args
}

// updateQ is update for the shared code.
func (s *Store) updateQ(ctx context.Context, fn func(tx store.Querier) error) error {
	return s.update(ctx, func(tx *sql.Tx) error { return fn(conn{tx}) })
}
