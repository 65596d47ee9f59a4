package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// The bookkeeping of a mirror of an upstream deployment (internal/mirror):
// the windows it fetches, the calls it spends against the upstream's
// limits, and the processes that mirror into this store. It is kept in the
// store, not in a process, so that a mirror killed at any moment resumes
// where its last commit left it, and two mirrors on one store share one
// plan, one set of leases and one count of calls.

// MirrorBook is a store's bookkeeping of mirrors: the methods below, and
// an import that commits with what a hook writes in its transaction (the
// window's mark). Both stores implement it.
type MirrorBook interface {
	UpdatePartsThen(ctx context.Context, name string, started time.Time, refs []dataset.PartRef, merge dataset.MergeFunc, then func(ctx context.Context, tx Querier) error) (energy.ImportStats, error)
	PlanMirrorWindows(ctx context.Context, ws []MirrorWindow) error
	MirrorWindows(ctx context.Context) ([]MirrorWindow, error)
	ClaimMirrorWindow(ctx context.Context, key, owner string, fetches int64, now, until time.Time) (bool, error)
	ReleaseMirrorWindow(ctx context.Context, key, owner string) error
	MarkMirrorWindow(ctx context.Context, m MirrorMark) error
	ClaimMirrorCall(ctx context.Context, day string, second, perDay, perSecond int64) (MirrorRefusal, error)
	SpendMirrorDay(ctx context.Context, day string, perDay int64) error
	MirrorCalls(ctx context.Context, day string) (int64, error)
	StartMirrorInstance(ctx context.Context, in MirrorInstance, stale time.Duration, gone func(pid int64) bool) error
	HeartbeatMirrorInstance(ctx context.Context, in MirrorInstance) error
	MirrorInstances(ctx context.Context) ([]MirrorInstance, error)
}

// MirrorWindow is one request a mirror makes of the upstream: a dataset's
// records over FirstDay..LastDay (Europe/Rome days, YYYY-MM-DD), with the
// parameters its Key names.
type MirrorWindow struct {
	Key               string
	Dataset           string
	FirstDay, LastDay string
	// Priority orders the fetches: lower first.
	Priority int64
	// Fetches counts the completed fetches; FetchedAt is the last one's
	// time (zero: never fetched), Digest the answer's digest then, Records
	// its record count, ChangedAt the last fetch that changed the store.
	Fetches   int64
	FetchedAt time.Time
	Digest    string
	Records   int64
	ChangedAt time.Time
	// LeaseOwner is the mirror fetching it now, until LeaseUntil.
	LeaseOwner string
	LeaseUntil time.Time
}

// MirrorMark records a completed fetch of a window by the mirror that
// holds its lease, and ends the lease.
type MirrorMark struct {
	Key, Owner string
	At         time.Time
	Digest     string
	Records    int64
	Changed    bool // the fetch changed what the store holds
}

// ErrMirrorLeaseLost is MarkMirrorWindow's error when the mark's owner no
// longer holds the window's lease: another mirror may have fetched it, so
// what this one fetched must not be recorded.
var ErrMirrorLeaseLost = errors.New("the mirror's lease on the window was lost")

// PlanMirrorWindows adds the windows the store does not hold yet and sets
// the priority of those it holds, in one transaction; what was fetched
// stays recorded.
func (db *DB) PlanMirrorWindows(ctx context.Context, ws []MirrorWindow) error {
	return db.wrap("plan mirror windows", db.update(ctx, func(tx Querier) error {
		for _, w := range ws {
			if !ValidText(w.Key) || w.Key == "" {
				return energy.Errorf(energy.Invalid, "mirror window key %q is empty or not text", w.Key)
			}
			_, err := tx.Exec(ctx, `INSERT INTO mirror_windows (key, dataset, first_day, last_day, priority) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT (key) DO UPDATE SET priority = excluded.priority`,
				w.Key, w.Dataset, w.FirstDay, w.LastDay, w.Priority)
			if err != nil {
				return err
			}
		}
		return nil
	}))
}

// MirrorWindows returns every planned window, by priority.
func (db *DB) MirrorWindows(ctx context.Context) ([]MirrorWindow, error) {
	out, err := QueryAll(ctx, db.read, func(row Row) (w MirrorWindow, err error) {
		var owner *string
		err = row.Scan(&w.Key, &w.Dataset, &w.FirstDay, &w.LastDay, &w.Priority, &w.Fetches,
			&w.FetchedAt, &w.Digest, &w.Records, &w.ChangedAt, &owner, &w.LeaseUntil)
		if owner != nil {
			w.LeaseOwner = *owner
		}
		return w, err
	}, `SELECT key, dataset, first_day, last_day, priority, fetches, fetched_at, digest, records, changed_at,
		lease_owner, lease_until FROM mirror_windows ORDER BY priority, key`)
	return out, db.wrap("mirror windows", err)
}

// ClaimMirrorWindow gives owner the lease of the window until until, if
// the window has been fetched exactly fetches times (the state the caller
// read) and no other mirror holds a lease on it at now. It reports whether
// owner holds the lease.
func (db *DB) ClaimMirrorWindow(ctx context.Context, key, owner string, fetches int64, now, until time.Time) (bool, error) {
	var n int64
	err := db.update(ctx, func(tx Querier) (err error) {
		n, err = tx.Exec(ctx, `UPDATE mirror_windows SET lease_owner = ?, lease_until = ?
			WHERE key = ? AND fetches = ? AND (lease_owner IS NULL OR lease_owner = ? OR lease_until < ?)`,
			owner, until, key, fetches, owner, now)
		return err
	})
	return n == 1, db.wrap("claim mirror window", err)
}

// ReleaseMirrorWindow ends owner's lease on the window without recording
// a fetch: the window is to be fetched again.
func (db *DB) ReleaseMirrorWindow(ctx context.Context, key, owner string) error {
	return db.wrap("release mirror window", db.update(ctx, func(tx Querier) error {
		_, err := tx.Exec(ctx, `UPDATE mirror_windows SET lease_owner = NULL, lease_until = NULL WHERE key = ? AND lease_owner = ?`, key, owner)
		return err
	}))
}

// MarkMirrorWindow records a fetch that imported nothing (its answer held
// no records, or the records it held already) in a transaction of its own.
func (db *DB) MarkMirrorWindow(ctx context.Context, m MirrorMark) error {
	return db.wrap("mark mirror window", db.update(ctx, func(tx Querier) error { return MarkMirrorWindowTx(ctx, tx, m) }))
}

// MarkMirrorWindowTx records m in tx: a store calls it in the transaction
// of the import of the window's records, so that the import and its
// record commit together. It returns ErrMirrorLeaseLost if m.Owner no
// longer holds the lease.
func MarkMirrorWindowTx(ctx context.Context, tx Querier, m MirrorMark) error {
	changed := `changed_at`
	if m.Changed {
		changed = `?`
	}
	args := []any{m.At, m.Digest, m.Records}
	if m.Changed {
		args = append(args, m.At)
	}
	args = append(args, m.Key, m.Owner)
	n, err := tx.Exec(ctx, `UPDATE mirror_windows SET fetches = fetches + 1, fetched_at = ?, digest = ?, records = ?,
		changed_at = `+changed+`, lease_owner = NULL, lease_until = NULL WHERE key = ? AND lease_owner = ?`, args...)
	if err == nil && n == 0 {
		err = ErrMirrorLeaseLost
	}
	return err
}

// MirrorRefusal is which of the upstream's limits a call would exceed.
type MirrorRefusal int

// The limits a mirror's call may meet.
const (
	MirrorCallGranted MirrorRefusal = iota
	MirrorOverSecond
	MirrorOverDay
)

// ClaimMirrorCall takes one call of the upstream's limits for the UTC
// day and the Unix second given, in one transaction: both or neither. It
// returns which limit refused it, if one did. A limit of 0 or less is no
// limit. Claims of seconds more than a day old are dropped on the way.
func (db *DB) ClaimMirrorCall(ctx context.Context, day string, second, perDay, perSecond int64) (MirrorRefusal, error) {
	refused := MirrorCallGranted
	err := db.update(ctx, func(tx Querier) error {
		if ok, err := claimCall(ctx, tx, "day:"+day, perDay); err != nil || !ok {
			refused = MirrorOverDay
			return cmpErr(err, errRefused)
		}
		if ok, err := claimCall(ctx, tx, "second:"+strconv.FormatInt(second, 10), perSecond); err != nil || !ok {
			refused = MirrorOverSecond
			return cmpErr(err, errRefused)
		}
		if second%64 == 0 {
			_, err := tx.Exec(ctx, `DELETE FROM mirror_calls WHERE period LIKE 'second:%' AND period < ?`,
				"second:"+strconv.FormatInt(second-86400, 10))
			return err
		}
		return nil
	})
	if errors.Is(err, errRefused) {
		return refused, nil
	}
	return MirrorCallGranted, db.wrap("claim mirror call", err)
}

// errRefused rolls back a claim that a limit refused.
var errRefused = errors.New("refused")

// claimCall adds one call to period's count if it is below limit.
func claimCall(ctx context.Context, tx Querier, period string, limit int64) (bool, error) {
	if limit <= 0 {
		limit = 1 << 62
	}
	n, err := tx.Exec(ctx, `INSERT INTO mirror_calls (period, calls) VALUES (?, 1)
		ON CONFLICT (period) DO UPDATE SET calls = mirror_calls.calls + 1 WHERE mirror_calls.calls < ?`, period, limit)
	return n == 1, err
}

// SpendMirrorDay counts the UTC day's calls as perDay at least: the
// upstream said its quota is used up (by calls the store did not count,
// such as another program's with the same credentials).
func (db *DB) SpendMirrorDay(ctx context.Context, day string, perDay int64) error {
	return db.wrap("spend mirror day", db.update(ctx, func(tx Querier) error {
		_, err := tx.Exec(ctx, `INSERT INTO mirror_calls (period, calls) VALUES (?, ?)
			ON CONFLICT (period) DO UPDATE SET calls = CASE WHEN mirror_calls.calls < excluded.calls THEN excluded.calls ELSE mirror_calls.calls END`,
			"day:"+day, perDay)
		return err
	}))
}

// MirrorCalls returns the calls counted for the UTC day.
func (db *DB) MirrorCalls(ctx context.Context, day string) (int64, error) {
	var n int64
	err := db.read.QueryRow(ctx, `SELECT coalesce(max(calls), 0) FROM mirror_calls WHERE period = ?`, "day:"+day).Scan(&n)
	return n, db.wrap("mirror calls", err)
}

// MirrorInstance is a mirror process as mirror_instances records it.
type MirrorInstance struct {
	ID, Host, Upstream string
	PID                int64
	// PerSecond and PerDay are the upstream's limits it keeps to.
	PerSecond, PerDay int64
	Heartbeat         time.Time
}

// ErrMirrorRunning is StartMirrorInstance's error when a live process runs
// under the ID already.
var ErrMirrorRunning = errors.New("another mirror runs under this ID")

// StartMirrorInstance records in as the process running under its ID. A
// process recorded under the ID before is taken over if its heartbeat is
// older than stale, or if it ran on this host and gone(pid) says it has
// ended; otherwise the error wraps ErrMirrorRunning.
func (db *DB) StartMirrorInstance(ctx context.Context, in MirrorInstance, stale time.Duration, gone func(pid int64) bool) error {
	return db.wrap("start mirror", db.update(ctx, func(tx Querier) error {
		var prev MirrorInstance
		err := tx.QueryRow(ctx, `SELECT host, pid, heartbeat FROM mirror_instances WHERE id = ?`+db.d.ForUpdate, in.ID).Scan(&prev.Host, &prev.PID, &prev.Heartbeat)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		case in.Heartbeat.Sub(prev.Heartbeat) < stale && !(prev.Host == in.Host && (prev.PID == in.PID || gone(prev.PID))):
			return fmt.Errorf("%w: %q, process %d on %s, alive %s ago (give this one another --id)",
				ErrMirrorRunning, in.ID, prev.PID, prev.Host, in.Heartbeat.Sub(prev.Heartbeat).Round(time.Second))
		}
		_, err = tx.Exec(ctx, `INSERT INTO mirror_instances (id, host, pid, upstream, per_second, per_day, heartbeat) VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET host = excluded.host, pid = excluded.pid, upstream = excluded.upstream,
			per_second = excluded.per_second, per_day = excluded.per_day, heartbeat = excluded.heartbeat`,
			in.ID, in.Host, in.PID, in.Upstream, in.PerSecond, in.PerDay, in.Heartbeat)
		return err
	}))
}

// HeartbeatMirrorInstance tells other processes that in still runs. It
// returns ErrMirrorRunning if another process has taken its ID over.
func (db *DB) HeartbeatMirrorInstance(ctx context.Context, in MirrorInstance) error {
	return db.wrap("mirror heartbeat", db.update(ctx, func(tx Querier) error {
		n, err := tx.Exec(ctx, `UPDATE mirror_instances SET heartbeat = ? WHERE id = ? AND host = ? AND pid = ?`, in.Heartbeat, in.ID, in.Host, in.PID)
		if err == nil && n == 0 {
			err = ErrMirrorRunning
		}
		return err
	}))
}

// MirrorInstances returns the mirror processes recorded, by ID.
func (db *DB) MirrorInstances(ctx context.Context) ([]MirrorInstance, error) {
	out, err := QueryAll(ctx, db.read, func(row Row) (in MirrorInstance, err error) {
		err = row.Scan(&in.ID, &in.Host, &in.PID, &in.Upstream, &in.PerSecond, &in.PerDay, &in.Heartbeat)
		return in, err
	}, `SELECT id, host, pid, upstream, per_second, per_day, heartbeat FROM mirror_instances ORDER BY id`)
	return out, db.wrap("mirror instances", err)
}
