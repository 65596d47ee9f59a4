package sqlite

import (
	"context"
	"database/sql"
)

// scanner is a row as the scan functions read it: *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// queryRows runs query on q (the store's reader or a transaction) and
// returns every row as scan reads it, in order: nil if there are none. It
// is this store's counterpart of the pgx.CollectRows the PostgreSQL store
// uses; callers add their own context to its errors.
func queryRows[T any](ctx context.Context, q interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
