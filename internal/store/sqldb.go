package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Querier runs SQL on a store's database, on its reader or in a transaction.
// The shared code writes each statement once, as both databases read it but
// for two things the driver packages adapt: placeholders are written ?, and
// times are bound and scanned as time.Time (a nil argument binds NULL, see
// NullTime; a NULL scans as the zero time), whatever the database keeps
// (SQLite Unix microseconds, PostgreSQL timestamptz). No row is
// sql.ErrNoRows on both.
type Querier interface {
	// Exec runs a statement and returns how many rows it changed.
	Exec(ctx context.Context, query string, args ...any) (int64, error)
	QueryRow(ctx context.Context, query string, args ...any) Row
	Query(ctx context.Context, query string, args ...any) (Rows, error)
}

// Row is one row of a query, read by Scan.
type Row interface{ Scan(dest ...any) error }

// Rows are the rows of a query, read as database/sql reads them.
type Rows interface {
	Row
	Next() bool
	Err() error
	Close() error
}

// Dialect is what the shared code needs to know of the database under it:
// where the two differ in what they do, rather than in how they spell it.
type Dialect struct {
	// Name prefixes errors: "sqlite" or "postgres".
	Name string
	// ForUpdate ends a SELECT of a row the transaction goes on to change
	// based on what it read: " FOR UPDATE" where concurrent transactions
	// write (PostgreSQL), "" where one writer holds the whole database
	// (SQLite).
	ForUpdate string
	// TextOnly is set where a query fails, rather than finding nothing, on
	// an argument that is not ValidText (PostgreSQL's text type).
	TextOnly bool
	// IsUniqueViolation reports whether err is the database refusing a
	// duplicate key.
	IsUniqueViolation func(err error) bool
	// NotifyClients queues in tx a notice of a change to the clients that
	// other processes receive when it commits, if the database has such
	// notices; nil if not (SQLite: they poll the clients version).
	NotifyClients func(ctx context.Context, tx Querier) error
	// LockAddr makes the registrations from one address take turns from
	// here until tx ends; nil where transactions that write take turns
	// anyway (SQLite's one writer).
	LockAddr func(ctx context.Context, tx Querier, addr string) error
}

// DB implements, once for both stores, the methods whose logic and SQL are
// the same on both databases: clients, registrations, signing keys, server
// secrets, plans, the version counters, and imports but for how parts are
// read and written (sql_parts.go). Each store embeds one, so that
// these are its own methods, and keeps what really differs (how parts are
// read and written, quota claims, revoked tokens, notifications) itself.
type DB struct {
	d      Dialect
	read   Querier
	update func(ctx context.Context, fn func(tx Querier) error) error
	parts  PartTxFunc
	now    func() time.Time
}

// NewDB returns the shared methods over a store's database: read runs
// queries outside a transaction, update runs fn in one write transaction
// and commits it if fn succeeds, parts runs the store's part transactions,
// and now stamps the version counters and the imports.
func NewDB(d Dialect, read Querier, update func(ctx context.Context, fn func(tx Querier) error) error, parts PartTxFunc, now func() time.Time) *DB {
	return &DB{d: d, read: read, update: update, parts: parts, now: now}
}

// NullTime returns t to bind, or nil (NULL) for the zero time.
func NullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

// QueryAll runs query on q and returns every row as scan reads it, in
// order: nil if there are none.
func QueryAll[T any](ctx context.Context, q Querier, scan func(Row) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.Query(ctx, query, args...)
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

// queryOne returns the row of query on q as scan reads it, or notFound if
// there is none.
func queryOne[T any](ctx context.Context, q Querier, scan func(Row) (T, error), notFound error, query string, args ...any) (T, error) {
	v, err := scan(q.QueryRow(ctx, query, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return v, notFound
	}
	return v, err
}

// ScanTimes scans into dest with scan, as a Querier's Row does: each
// *time.Time in dest is read as a T, which the driver can scan, and set to
// conv of it.
func ScanTimes[T any](scan func(dest ...any) error, dest []any, conv func(T) time.Time) error {
	var times []*time.Time
	var raw []T
	for i, d := range dest {
		if t, ok := d.(*time.Time); ok {
			if raw == nil {
				raw = make([]T, len(dest))
				times = make([]*time.Time, len(dest))
			}
			times[i] = t
			dest[i] = &raw[i]
		}
	}
	if err := scan(dest...); err != nil {
		return err
	}
	for i, t := range times {
		if t != nil {
			*t = conv(raw[i])
		}
	}
	return nil
}

// bumpVersion advances the named version counter (see the versions table).
// In PostgreSQL the counter's row stays locked until tx ends, so
// transactions that advance one counter take turns from there.
func (db *DB) bumpVersion(ctx context.Context, tx Querier, name string) error {
	_, err := tx.Exec(ctx, `UPDATE versions SET version = version + 1, updated = ? WHERE name = ?`, db.now(), name)
	return err
}

// clientsChanged records a change to the clients, or to the plans, in tx:
// it advances the clients version, which every process polls, and queues a
// notice where the database has them. Serving processes load the plans with
// the clients (auth.LoadWith), so a plan change reaches them as a rotation
// does.
func (db *DB) clientsChanged(ctx context.Context, tx Querier) error {
	if err := db.bumpVersion(ctx, tx, "clients"); err != nil {
		return err
	}
	if db.d.NotifyClients == nil {
		return nil
	}
	return db.d.NotifyClients(ctx, tx)
}

// readVersion returns the named version counter: one row by primary key,
// cheap enough for every replica to poll every second.
func (db *DB) readVersion(ctx context.Context, name string) (int64, error) {
	var v int64
	err := db.read.QueryRow(ctx, `SELECT version FROM versions WHERE name = ?`, name).Scan(&v)
	return v, err
}

// wrap returns err with the store's name and what failed, or nil.
func (db *DB) wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %s: %w", db.d.Name, what, err)
}

// cmpErr returns err, or else fallback.
func cmpErr(err, fallback error) error {
	if err != nil {
		return err
	}
	return fallback
}
