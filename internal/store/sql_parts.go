package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Parts is what both stores implement of the data layer's store
// interfaces: DB the writing, filling, history and events; each store
// reading and lending its parts (ReadPart, LendPart).
type Parts interface {
	dataset.PartSource
	dataset.PartLender
	dataset.PartWriter
	dataset.PartFiller
	dataset.PartHistory
	dataset.EventSource
}

// PartDB is one of a store's transactions with its part methods: an
// import's (PartTx), a read snapshot's (PartSnapshot) or a fill's (FillTx).
// The stores write parts in their own ways (prepared statements, a batch);
// the rest of what an import does is the same on both and written once,
// here and in ImportLog.
type PartDB interface {
	PartTx
	PartSnapshot
	FillTx
	// Querier is the transaction itself, for shared SQL of its own
	// (UpdatePartsThen).
	Querier() Querier
}

// PartTxFunc runs fn in one transaction of a store and commits it if fn
// succeeds: a write transaction that takes turns with every other import
// and fill on the database (write), or else a read-only snapshot.
type PartTxFunc func(ctx context.Context, write bool, fn func(tx PartDB) error) error

// UpdateParts implements dataset.PartWriter through UpdateParts above in one
// write transaction. It returns an error with code Invalid, and stores
// nothing, if name or a ref is not text a store keeps; merge's error as it
// is.
func (db *DB) UpdateParts(ctx context.Context, name string, started time.Time, refs []dataset.PartRef, merge dataset.MergeFunc) (energy.ImportStats, error) {
	return db.UpdatePartsThen(ctx, name, started, refs, merge, nil)
}

// UpdatePartsThen is UpdateParts that also runs then, unless nil, in the
// import's transaction after the import's writes: what then writes
// commits with the import, and its error rolls the import back.
func (db *DB) UpdatePartsThen(ctx context.Context, name string, started time.Time, refs []dataset.PartRef, merge dataset.MergeFunc, then func(ctx context.Context, tx Querier) error) (energy.ImportStats, error) {
	if err := CheckPartRefs(name, refs); err != nil {
		return energy.ImportStats{}, db.wrap("import "+name, err)
	}
	var st energy.ImportStats
	err := db.parts(ctx, true, func(tx PartDB) error {
		var err error
		st, err = UpdateParts(ctx, tx, db.now, name, started, refs, merge)
		if err != nil || then == nil {
			return err
		}
		return then(ctx, tx.Querier())
	})
	if err != nil {
		return energy.ImportStats{}, db.wrap("import "+name, err)
	}
	return st, nil
}

// ChangedParts returns the data version and every part whose version
// differs from have's, from one read snapshot (ChangedParts above).
func (db *DB) ChangedParts(ctx context.Context, have map[dataset.PartRef]int64) (dataset.Changes, error) {
	return db.readChanges(ctx, "changed parts", func(tx PartDB) (dataset.Changes, error) { return ChangedParts(ctx, tx, have) })
}

// ListParts implements dataset.PartSource, from one read snapshot.
func (db *DB) ListParts(ctx context.Context) (dataset.Changes, error) {
	return db.readChanges(ctx, "list parts", func(tx PartDB) (dataset.Changes, error) { return ListParts(ctx, tx) })
}

// readChanges returns what read finds in one read snapshot.
func (db *DB) readChanges(ctx context.Context, what string, read func(tx PartDB) (dataset.Changes, error)) (dataset.Changes, error) {
	var ch dataset.Changes
	err := db.parts(ctx, false, func(tx PartDB) error {
		var err error
		ch, err = read(tx)
		return err
	})
	if err != nil {
		return dataset.Changes{}, db.wrap(what, err)
	}
	return ch, nil
}

// FillParts writes the parts the store does not hold (FillParts above) in
// one write transaction, which takes turns with every import. Like an
// import, it sends no notification: other processes see a raised data
// version when they poll. It returns an error with code Invalid, and
// stores nothing, if a part cannot be filled.
func (db *DB) FillParts(ctx context.Context, floor int64, parts []dataset.StoredPart) (int, error) {
	var n int
	err := db.parts(ctx, true, func(tx PartDB) error {
		var err error
		n, err = FillParts(ctx, tx, db.now, floor, parts)
		return err
	})
	if err != nil {
		return 0, db.wrap("fill parts", err)
	}
	return n, nil
}

// PartVersionAt implements dataset.PartHistory.
func (db *DB) PartVersionAt(ctx context.Context, ref dataset.PartRef, t time.Time) (dataset.StoredPart, bool, error) {
	sp := dataset.StoredPart{PartRef: ref}
	err := db.read.QueryRow(ctx, `SELECT version, written, records FROM part_history
		WHERE dataset = ? AND id = ? AND written <= ? AND replaced_at > ? ORDER BY version DESC LIMIT 1`,
		ref.Dataset, ref.ID, t, t).Scan(&sp.Version, &sp.Written, &sp.Records)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return dataset.StoredPart{}, false, nil
	case err != nil:
		return dataset.StoredPart{}, false, db.wrap(fmt.Sprintf("part %s/%s at %s", ref.Dataset, ref.ID, t), err)
	}
	return sp, true, nil
}

// ReadPartVersion implements dataset.PartHistory.
func (db *DB) ReadPartVersion(ctx context.Context, ref dataset.PartRef, version int64) (dataset.StoredPart, error) {
	sp := dataset.StoredPart{PartRef: ref, Version: version}
	err := db.read.QueryRow(ctx, `SELECT written, records, data FROM part_history WHERE dataset = ? AND id = ? AND version = ?`,
		ref.Dataset, ref.ID, version).Scan(&sp.Written, &sp.Records, &sp.Data)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return dataset.StoredPart{}, energy.Errorf(energy.NotFound, "part %s/%s has no replaced version %d", ref.Dataset, ref.ID, version)
	case err != nil:
		return dataset.StoredPart{}, db.PartError(ref, version, err)
	}
	return sp, nil
}

// PartError returns err, the failure to read version of ref, with the
// store's name and the part's; nil if err is nil.
func (db *DB) PartError(ref dataset.PartRef, version int64, err error) error {
	return db.wrap(fmt.Sprintf("part %s/%s version %d", ref.Dataset, ref.ID, version), err)
}

// NoPart returns the error of a read of version of ref that found no row:
// err, the rows' error, as PartError does, or else an error with code
// NotFound.
func (db *DB) NoPart(ref dataset.PartRef, version int64, err error) error {
	if err != nil {
		return db.PartError(ref, version, err)
	}
	return energy.Errorf(energy.NotFound, "part %s/%s has no version %d", ref.Dataset, ref.ID, version)
}

// LendPartSQL selects the written time, record count, span and bytes of one
// version of a part, current or replaced, for LendPart: its arguments are
// the dataset, ID and version, twice. The stores run it themselves, to
// reach the driver's own bytes rather than a copy.
const LendPartSQL = `SELECT written, records, coalesce(first_time, 0), coalesce(last_time, 0), data
		FROM parts WHERE dataset = ? AND id = ? AND version = ?
		UNION ALL SELECT written, records, coalesce(first_time, 0), coalesce(last_time, 0), data
		FROM part_history WHERE dataset = ? AND id = ? AND version = ? LIMIT 1`

// LendPartArgs are LendPartSQL's arguments for version of ref.
func LendPartArgs(ref dataset.PartRef, version int64) []any {
	return []any{ref.Dataset, ref.ID, version, ref.Dataset, ref.ID, version}
}

// ImportEvents implements dataset.EventSource.
func (db *DB) ImportEvents(ctx context.Context, after int64, since time.Time, limit int) ([]dataset.ImportEvent, error) {
	query, args := `SELECT id, dataset, started, finished, rows_read, inserted, updated, unchanged,
			coalesce(version, 0), coalesce(first_part, ''), coalesce(last_part, '')
		FROM import_runs WHERE id > ?`, []any{after}
	if !since.IsZero() {
		query, args = query+` AND finished > ?`, append(args, since)
	}
	out, err := QueryAll(ctx, db.read, func(row Row) (e dataset.ImportEvent, err error) {
		st := &e.Stats
		err = row.Scan(&e.ID, &e.Dataset, &e.Started, &e.Finished, &st.Read, &st.Inserted, &st.Updated, &st.Unchanged,
			&e.Version, &e.FirstPart, &e.LastPart)
		return e, err
	}, query+` ORDER BY id LIMIT ?`, append(args, limit)...)
	return out, db.wrap("import events", err)
}

// ImportLog is what a store's part transaction does alike on both
// databases over its Querier: it reads and sets the data version and
// records each import run. The stores' transactions embed one.
type ImportLog struct{ Tx Querier }

// Querier returns the transaction's Querier.
func (l ImportLog) Querier() Querier { return l.Tx }

// Version returns the data version and when it last changed (zero before
// the first change).
func (l ImportLog) Version(ctx context.Context) (int64, time.Time, error) {
	var v int64
	var updated time.Time
	err := l.Tx.QueryRow(ctx, `SELECT version, updated FROM versions WHERE name = 'data'`).Scan(&v, &updated)
	return v, updated, err
}

// SetVersion sets the data version to v, stamped at.
func (l ImportLog) SetVersion(ctx context.Context, v int64, at time.Time) error {
	_, err := l.Tx.Exec(ctx, `UPDATE versions SET version = ?, updated = ? WHERE name = 'data'`, v, at)
	return err
}

// FinishImport records run in import_runs and, if changed, advances the
// data version by one, stamped with run.Finished.
func (l ImportLog) FinishImport(ctx context.Context, run ImportRun, changed bool) error {
	if changed {
		if _, err := l.Tx.Exec(ctx, `UPDATE versions SET version = version + 1, updated = ? WHERE name = 'data'`, run.Finished); err != nil {
			return err
		}
	}
	st := run.Stats
	_, err := l.Tx.Exec(ctx, `INSERT INTO import_runs
		(dataset, started, finished, rows_read, inserted, updated, unchanged, version, first_part, last_part)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		run.Dataset, run.Started, run.Finished, st.Read, st.Inserted, st.Updated, st.Unchanged,
		run.Version, run.FirstPart, run.LastPart)
	return err
}
