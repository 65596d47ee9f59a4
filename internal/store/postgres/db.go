package postgres

import (
	"context"
	"strconv"
	"strings"

	"github.com/energyapi/energyapi/internal/store"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// dialect is how the shared code (store.DB) meets PostgreSQL: transactions
// of several replicas write at once, so rows read to be changed are locked,
// client changes are notified, and registrations from one address take
// turns under an advisory lock.
var dialect = store.Dialect{
	Name:              "postgres",
	ForUpdate:         " FOR UPDATE",
	TextOnly:          true,
	IsUniqueViolation: isUniqueViolation,
	NotifyClients: func(ctx context.Context, tx store.Querier) error {
		_, err := tx.Exec(ctx, `SELECT pg_notify(?, '')`, clientsChannel)
		return err
	},
	LockAddr: func(ctx context.Context, tx store.Querier, addr string) error {
		_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(?, hashtext(?))`, registrationLock, addr)
		return err
	},
}

// pgConn is the pool or a transaction.
type pgConn interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// conn is a store.Querier on PostgreSQL: it numbers the placeholders and
// scans a NULL timestamptz as the zero time. pgx.ErrNoRows is already
// sql.ErrNoRows to errors.Is.
type conn struct{ q pgConn }

func (c conn) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	tag, err := c.q.Exec(ctx, numbered(query), args...)
	return tag.RowsAffected(), err
}

func (c conn) QueryRow(ctx context.Context, query string, args ...any) store.Row {
	return row{c.q.QueryRow(ctx, numbered(query), args...)}
}

func (c conn) Query(ctx context.Context, query string, args ...any) (store.Rows, error) {
	rs, err := c.q.Query(ctx, numbered(query), args...)
	if err != nil {
		return nil, err
	}
	return rows{rs}, nil
}

type row struct{ pgx.Row }

func (r row) Scan(dest ...any) error { return store.ScanTimes(r.Row.Scan, dest, utc) }

type rows struct{ pgx.Rows }

func (r rows) Scan(dest ...any) error { return store.ScanTimes(r.Rows.Scan, dest, utc) }

func (r rows) Close() error {
	r.Rows.Close()
	return nil
}

// numbered returns query with its ? placeholders written $1, $2, ...
// The shared statements hold no ? in literals.
func numbered(query string) string {
	if !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r != '?' {
			b.WriteRune(r)
			continue
		}
		n++
		b.WriteByte('$')
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}

// updateQ is update for the shared code.
func (s *Store) updateQ(ctx context.Context, fn func(tx store.Querier) error) error {
	return s.update(ctx, func(tx pgx.Tx) error { return fn(conn{tx}) })
}
