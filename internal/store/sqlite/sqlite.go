// Package sqlite is the default, embedded store: one SQLite file holds the
// client registry, the signing keys and every imported dataset. A server and a
// command-line import may use the same file at the same time.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

var (
	_ auth.ClientStore     = (*Store)(nil)
	_ auth.KeyStore        = (*Store)(nil)
	_ energy.ImportHistory = (*Store)(nil)
	_ store.Parts          = (*Store)(nil)
)

// readConns bounds the read pool. Readers never block each other or the
// writer under WAL, so a few connections let requests, snapshot reloads and
// version polls proceed side by side.
const readConns = 4

// Store is a SQLite database file. Its methods are safe for concurrent use.
type Store struct {
	// DB holds the methods whose SQL the two stores share.
	*store.DB
	// w has exactly one connection. SQLite admits one writer at a time; queueing
	// writers in database/sql rather than in SQLite's busy handler keeps the
	// wait fair and free of SQLITE_BUSY within this process. Every transaction
	// on it starts with BEGIN IMMEDIATE, so it takes the write lock up front and
	// never fails half-way through upgrading a read lock.
	w *sql.DB
	// r serves reads. Its connections are query_only, so a bug cannot write
	// through them, and they begin deferred transactions, which under WAL read
	// one consistent snapshot without taking the write lock.
	r *sql.DB
	// now stamps versions and import runs; tests in this package replace it.
	now func() time.Time
	// name is the path as the caller gave it, abs the absolute path, and file
	// what the file was when opened: Ping compares it with what is there now.
	name, abs string
	file      fs.FileInfo
}

// Open opens the database file at path, creating it with mode 0600 if it
// does not exist, and brings its schema up to date. It returns a *ModeError
// if group or other users may access the file or its -wal and -shm files,
// since it holds the token signing keys, and an error if the file's schema is
// newer than this program knows. Several processes may open the same file,
// even a new one, at the same time.
func Open(ctx context.Context, path string) (*Store, error) {
	return open(ctx, path, true)
}

// OpenExisting is Open for a file that must exist already: it creates
// nothing, and returns an error wrapping fs.ErrNotExist if there is no file
// at path.
func OpenExisting(ctx context.Context, path string) (*Store, error) {
	return open(ctx, path, false)
}

func open(ctx context.Context, path string, create bool) (*Store, error) {
	if path == "" {
		return nil, errors.New("sqlite: open: empty path")
	}
	// A file: URI has no relative form that SQLite reads as a path
	// ("file://data/x.db" names a host), so make the path absolute.
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	fi, err := prepareFile(path, abs, create)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open: %w", err)
	}
	w, err := sql.Open("sqlite", dsn(abs, writeParams))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	if err := setWAL(ctx, w); err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	if err := store.Migrate(ctx, schema(w), migrationFiles, 0); err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	r, err := sql.Open("sqlite", dsn(abs, readParams))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	r.SetMaxOpenConns(readConns)
	r.SetMaxIdleConns(readConns)
	if err := r.PingContext(ctx); err != nil {
		w.Close()
		r.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	s := &Store{w: w, r: r, now: time.Now, name: path, abs: abs, file: fi}
	s.DB = store.NewDB(dialect, conn{r}, s.updateQ, s.partTx, func() time.Time { return s.now() })
	return s, nil
}

// writeParams configure the writer connection.
//
// busy_timeout (10 s) is how long a statement waits for a lock that another
// process holds: an import of several years of load holds the write lock for
// a few seconds, and a server recording a client change meanwhile should wait
// for it rather than fail.
// synchronous=FULL makes every
// commit fsync the WAL before it returns: under WAL the default NORMAL can
// lose the last commits on power loss (though never corrupt the file), and an
// operator who saw "imported" or "client created" must be able to rely on it.
// Commits here are few and large, so the extra fsync costs little.
// foreign_keys is off by default in SQLite and must be asked for per
// connection.
//
// mode=rw (on both pools) stops SQLite from creating the file: Open creates
// it, with the right mode, and a file removed while in use must not come back
// as an empty database open to every user.
const writeParams = "mode=rw" +
	"&_pragma=busy_timeout(10000)" +
	"&_pragma=synchronous(FULL)" +
	"&_pragma=foreign_keys(1)" +
	"&_pragma=cache_size(-65536)" + // 64 MiB: an import's pages stay in memory until commit
	"&_txlock=immediate"

// setWAL switches the file to WAL journaling, which lets readers keep reading
// their snapshot while an import writes, and lets a server and a CLI import
// share the file. The mode is a property of the file, so it is set once here
// rather than by every connection.
//
// Two connections converting a new file at once each hold a shared lock and
// want an exclusive one; SQLite sees the deadlock and fails one of them with
// SQLITE_BUSY at once instead of waiting out busy_timeout. So on BUSY this
// retries, with backoff, for as long as busy_timeout would have waited.
func setWAL(ctx context.Context, db *sql.DB) error {
	const budget = 10 * time.Second
	var waited time.Duration
	for delay := time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		var mode string
		err := db.QueryRowContext(ctx, `PRAGMA journal_mode = WAL`).Scan(&mode)
		switch {
		case err == nil && mode == "wal":
			return nil
		case err == nil:
			return fmt.Errorf("journal mode is %q, want wal", mode)
		case !isBusy(err) || waited >= budget:
			return fmt.Errorf("set WAL journal mode: %w", err)
		}
		timer := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
		}
		waited += delay
	}
}

// readParams configure the reader connections. They must not set _txlock:
// an immediate transaction would take the write lock.
//
// cache_size is 256 KiB a reader rather than SQLite's 2 MB: what readers
// read most is parts' bytes, read once per cold part and then held decoded
// by the server, so pages kept in SQLite's cache are seldom read again
// (the operating system's page cache keeps the file anyway). Out of the Go
// heap and its memory limit, the default caches held some 40 MiB on a
// server reading a twenty-year store cold, with a smaller cache reading
// as fast (scripts/scale).
const readParams = "mode=rw" +
	"&_pragma=busy_timeout(10000)" +
	"&_pragma=query_only(1)" +
	"&_pragma=cache_size(-256)"

// dsn returns a file: URI for the absolute path with the driver parameters
// params. The path is escaped so that a '?' or '#' in it cannot be read as a
// parameter.
func dsn(path, params string) string {
	u := url.URL{Scheme: "file", Path: path, RawQuery: params}
	return u.String()
}

// Close closes the database. It waits for running statements to finish.
func (s *Store) Close() error {
	return errors.Join(s.r.Close(), s.w.Close())
}

// Ping checks that the database file is still the one that was opened (not
// removed or replaced: the store would go on using the old one, which nothing
// else sees), that it can still be read as a database, and that it can be read
// and written. serve uses it for /readyz.
func (s *Store) Ping(ctx context.Context) error {
	if err := checkFile(s.name, s.abs, s.file); err != nil {
		return fmt.Errorf("sqlite: ping: %w", err)
	}
	if err := s.r.PingContext(ctx); err != nil {
		return fmt.Errorf("sqlite: ping: %w", err)
	}
	if err := s.w.PingContext(ctx); err != nil {
		return fmt.Errorf("sqlite: ping: %w", err)
	}
	return nil
}

// update runs fn in one write transaction and commits it if fn succeeds.
// If fn panics (an import's merge is the caller's code), the transaction
// still ends, so that the one writer connection and SQLite's write lock are
// released.
func (s *Store) update(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return inTx(ctx, s.w, fn)
}

// inTx runs fn in one transaction on db and commits it if fn succeeds; the
// transaction ends whatever fn does, a panic included.
func inTx(ctx context.Context, db *sql.DB, fn func(tx *sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() // a no-op once committed; the error from fn is the one worth reporting
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// view runs fn in one read transaction, so that all its queries see the same
// snapshot of the database.
func (s *Store) view(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback() // read-only: there is nothing to commit
	return fn(tx)
}

// nextVersion advances the named version counter and returns its new value.
func nextVersion(ctx context.Context, tx *sql.Tx, name string, at time.Time) (int64, error) {
	var v int64
	err := tx.QueryRowContext(ctx,
		`UPDATE versions SET version = version + 1, updated = ? WHERE name = ? RETURNING version`,
		at.UnixMicro(), name).Scan(&v)
	return v, err
}

// isUniqueViolation reports whether err is SQLite rejecting a duplicate key.
func isUniqueViolation(err error) bool {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Code() {
	case sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY, sqlite3.SQLITE_CONSTRAINT_UNIQUE:
		return true
	}
	return false
}

// isBusy reports whether err is SQLite failing to get a lock.
func isBusy(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_BUSY
}

// fromMicro returns Unix microseconds as a time in UTC, or the zero time for NULL.
func fromMicro(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return time.UnixMicro(v.Int64).UTC()
}
