package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
)

var (
	_ dataset.PartSource = (*Store)(nil)
	_ dataset.PartWriter = (*Store)(nil)
	_ dataset.PartLender = (*Store)(nil)
)

// UpdateParts runs one import of dataset name in one write transaction
// (store.UpdateParts). Like every write it goes through the one writer
// connection and begins IMMEDIATE, so it takes SQLite's write lock before
// it reads the parts, and imports from this and other processes take
// turns. It returns an error with code Invalid, and stores nothing, if name
// or a ref is not text a store keeps; merge's error as it is.
func (s *Store) UpdateParts(ctx context.Context, name string, started time.Time, refs []dataset.PartRef, merge dataset.MergeFunc) (energy.ImportStats, error) {
	return s.UpdatePartsThen(ctx, name, started, refs, merge, nil)
}

// UpdatePartsThen is UpdateParts that also runs then, unless nil, in the
// import's transaction after the import's writes: what then writes
// commits with the import, and its error rolls the import back.
func (s *Store) UpdatePartsThen(ctx context.Context, name string, started time.Time, refs []dataset.PartRef, merge dataset.MergeFunc, then func(ctx context.Context, tx store.Querier) error) (energy.ImportStats, error) {
	if err := store.CheckPartRefs(name, refs); err != nil {
		return energy.ImportStats{}, fmt.Errorf("sqlite: import %s: %w", name, err)
	}
	var st energy.ImportStats
	err := s.update(ctx, func(tx *sql.Tx) error {
		var err error
		st, err = store.UpdateParts(ctx, partTx{tx: tx}, s.now, name, started, refs, merge)
		if err != nil || then == nil {
			return err
		}
		return then(ctx, conn{tx})
	})
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("sqlite: import %s: %w", name, err)
	}
	return st, nil
}

// ChangedParts returns the data version and every part whose version
// differs from have's, from one read transaction: under WAL it reads one
// snapshot of the file, whatever commits meanwhile.
func (s *Store) ChangedParts(ctx context.Context, have map[dataset.PartRef]int64) (dataset.Changes, error) {
	var ch dataset.Changes
	err := s.view(ctx, func(tx *sql.Tx) error {
		var err error
		ch, err = store.ChangedParts(ctx, partTx{tx: tx}, have)
		return err
	})
	if err != nil {
		return dataset.Changes{}, fmt.Errorf("sqlite: changed parts: %w", err)
	}
	return ch, nil
}

// partTx is a transaction as store.UpdateParts and store.ChangedParts use it.
type partTx struct {
	tx       *sql.Tx
	spanless bool // the schema has no spans yet (spanColumns)
}

func (p partTx) Version(ctx context.Context) (int64, time.Time, error) {
	var v int64
	var updated sql.NullInt64
	err := p.tx.QueryRowContext(ctx, `SELECT version, updated FROM versions WHERE name = 'data'`).Scan(&v, &updated)
	return v, fromMicro(updated), err
}

// listPartsQuery lists every column of parts but data, all of which the
// index parts_listing holds: the listing never reads a part's pages.
const listPartsQuery = `SELECT dataset, id, version, written, records,
	coalesce(first_time, 0), coalesce(last_time, 0) FROM parts`

func (p partTx) ListParts(ctx context.Context) ([]dataset.StoredPart, error) {
	return store.QueryAll(ctx, conn{p.tx}, func(row store.Row) (sp dataset.StoredPart, err error) {
		var written int64
		err = row.Scan(&sp.Dataset, &sp.ID, &sp.Version, &written, &sp.Records, &sp.First, &sp.Last)
		sp.Written = time.UnixMicro(written).UTC()
		return sp, err
	}, listPartsQuery)
}

func (p partTx) ReadParts(ctx context.Context, refs []dataset.PartRef) ([]dataset.StoredPart, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	st, err := p.tx.PrepareContext(ctx, `SELECT version, written, records, data FROM parts WHERE dataset = ? AND id = ?`)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	var out []dataset.StoredPart
	for _, ref := range refs {
		sp := dataset.StoredPart{PartRef: ref}
		var written int64
		err := st.QueryRowContext(ctx, ref.Dataset, ref.ID).Scan(&sp.Version, &written, &sp.Records, &sp.Data)
		sp.Written = time.UnixMicro(written).UTC()
		switch {
		case errors.Is(err, sql.ErrNoRows):
			continue
		case err != nil:
			return nil, err
		}
		out = append(out, sp)
	}
	return out, nil
}

func (p partTx) WriteParts(ctx context.Context, parts []dataset.StoredPart, at time.Time) error {
	keep, err := p.tx.PrepareContext(ctx, `INSERT INTO part_history
		(dataset, id, version, written, replaced_by, replaced_at, records, data`+p.spanColumns()+`)
		SELECT dataset, id, version, written, ?, ?, records, data`+p.spanColumns()+` FROM parts WHERE dataset = ? AND id = ?`)
	if err != nil {
		return err
	}
	defer keep.Close()
	upsert, err := p.tx.PrepareContext(ctx, `INSERT INTO parts (dataset, id, version, written, records, data)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (dataset, id) DO UPDATE SET version = excluded.version, written = excluded.written,
			records = excluded.records, data = excluded.data`)
	if err != nil {
		return err
	}
	defer upsert.Close()
	for _, sp := range parts {
		if _, err := keep.ExecContext(ctx, sp.Version, at.UnixMicro(), sp.Dataset, sp.ID); err != nil {
			return err
		}
		if _, err := upsert.ExecContext(ctx, sp.Dataset, sp.ID, sp.Version, at.UnixMicro(), int64(sp.Records), sp.Data); err != nil {
			return err
		}
		if p.spanless {
			continue
		}
		first, last := store.Span(sp)
		if _, err := p.tx.ExecContext(ctx, `UPDATE parts SET first_time = ?, last_time = ? WHERE dataset = ? AND id = ?`,
			first, last, sp.Dataset, sp.ID); err != nil {
			return err
		}
	}
	return nil
}

// spanColumns returns the columns of a part's span, which parts and
// part_history have from migration 5 on: the move of migration 3 writes
// parts without them (spanless), and migration 5 fills them in.
func (p partTx) spanColumns() string {
	if p.spanless {
		return ""
	}
	return ", first_time, last_time"
}

func (p partTx) FinishImport(ctx context.Context, run store.ImportRun, changed bool) error {
	if changed {
		if err := p.BumpVersion(ctx, run.Finished); err != nil {
			return err
		}
	}
	st := run.Stats
	_, err := p.tx.ExecContext(ctx, `INSERT INTO import_runs
		(dataset, started, finished, rows_read, inserted, updated, unchanged, version, first_part, last_part)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		run.Dataset, run.Started.UnixMicro(), run.Finished.UnixMicro(), st.Read, st.Inserted, st.Updated, st.Unchanged,
		run.Version, run.FirstPart, run.LastPart)
	return err
}

var (
	_ dataset.PartHistory = (*Store)(nil)
	_ dataset.EventSource = (*Store)(nil)
)

// PartVersionAt implements dataset.PartHistory.
func (s *Store) PartVersionAt(ctx context.Context, ref dataset.PartRef, t time.Time) (dataset.StoredPart, bool, error) {
	sp := dataset.StoredPart{PartRef: ref}
	var written int64
	err := s.r.QueryRowContext(ctx, `SELECT version, written, records FROM part_history
		WHERE dataset = ? AND id = ? AND written <= ? AND replaced_at > ? ORDER BY version DESC LIMIT 1`,
		ref.Dataset, ref.ID, t.UnixMicro(), t.UnixMicro()).Scan(&sp.Version, &written, &sp.Records)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return dataset.StoredPart{}, false, nil
	case err != nil:
		return dataset.StoredPart{}, false, fmt.Errorf("sqlite: part %s/%s at %s: %w", ref.Dataset, ref.ID, t, err)
	}
	sp.Written = time.UnixMicro(written).UTC()
	return sp, true, nil
}

// ListParts implements dataset.PartSource, from one read transaction.
func (s *Store) ListParts(ctx context.Context) (dataset.Changes, error) {
	var ch dataset.Changes
	err := s.view(ctx, func(tx *sql.Tx) error {
		var err error
		ch, err = store.ListParts(ctx, partTx{tx: tx})
		return err
	})
	if err != nil {
		return dataset.Changes{}, fmt.Errorf("sqlite: list parts: %w", err)
	}
	return ch, nil
}

// ReadPart implements dataset.PartSource: one query over parts and
// part_history.
func (s *Store) ReadPart(ctx context.Context, ref dataset.PartRef, version int64) (dataset.StoredPart, error) {
	return store.ReadPart(ctx, s, ref, version)
}

// LendPart implements dataset.PartLender: the part's bytes are the
// driver's (sql.RawBytes), not a copy of them.
func (s *Store) LendPart(ctx context.Context, ref dataset.PartRef, version int64, fn func(dataset.StoredPart) error) error {
	rows, err := s.r.QueryContext(ctx, `SELECT written, records, coalesce(first_time, 0), coalesce(last_time, 0), data
		FROM parts WHERE dataset = ?1 AND id = ?2 AND version = ?3
		UNION ALL SELECT written, records, coalesce(first_time, 0), coalesce(last_time, 0), data
		FROM part_history WHERE dataset = ?1 AND id = ?2 AND version = ?3 LIMIT 1`,
		ref.Dataset, ref.ID, version)
	if err != nil {
		return fmt.Errorf("sqlite: part %s/%s version %d: %w", ref.Dataset, ref.ID, version, err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return fmt.Errorf("sqlite: part %s/%s version %d: %w", ref.Dataset, ref.ID, version, err)
		}
		return energy.Errorf(energy.NotFound, "part %s/%s has no version %d", ref.Dataset, ref.ID, version)
	}
	sp := dataset.StoredPart{PartRef: ref, Version: version}
	var written int64
	var data sql.RawBytes
	if err := rows.Scan(&written, &sp.Records, &sp.First, &sp.Last, &data); err != nil {
		return fmt.Errorf("sqlite: part %s/%s version %d: %w", ref.Dataset, ref.ID, version, err)
	}
	sp.Written, sp.Data = time.UnixMicro(written).UTC(), data
	return fn(sp)
}

// ReadPartVersion implements dataset.PartHistory.
func (s *Store) ReadPartVersion(ctx context.Context, ref dataset.PartRef, version int64) (dataset.StoredPart, error) {
	sp := dataset.StoredPart{PartRef: ref, Version: version}
	var written int64
	err := s.r.QueryRowContext(ctx, `SELECT written, records, data FROM part_history WHERE dataset = ? AND id = ? AND version = ?`,
		ref.Dataset, ref.ID, version).Scan(&written, &sp.Records, &sp.Data)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return dataset.StoredPart{}, energy.Errorf(energy.NotFound, "part %s/%s has no replaced version %d", ref.Dataset, ref.ID, version)
	case err != nil:
		return dataset.StoredPart{}, fmt.Errorf("sqlite: part %s/%s version %d: %w", ref.Dataset, ref.ID, version, err)
	}
	sp.Written = time.UnixMicro(written).UTC()
	return sp, nil
}

// ImportEvents implements dataset.EventSource.
func (s *Store) ImportEvents(ctx context.Context, after int64, since time.Time, limit int) ([]dataset.ImportEvent, error) {
	min := int64(math.MinInt64)
	if !since.IsZero() {
		min = since.UnixMicro()
	}
	out, err := store.QueryAll(ctx, conn{s.r}, func(row store.Row) (e dataset.ImportEvent, err error) {
		var started, finished int64
		st := &e.Stats
		err = row.Scan(&e.ID, &e.Dataset, &started, &finished, &st.Read, &st.Inserted, &st.Updated, &st.Unchanged,
			&e.Version, &e.FirstPart, &e.LastPart)
		e.Started, e.Finished = time.UnixMicro(started).UTC(), time.UnixMicro(finished).UTC()
		return e, err
	}, `SELECT id, dataset, started, finished, rows_read, inserted, updated, unchanged,
			coalesce(version, 0), coalesce(first_part, ''), coalesce(last_part, '')
		FROM import_runs WHERE id > ? AND finished > ? ORDER BY id LIMIT ?`, after, min, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: import events: %w", err)
	}
	return out, nil
}

// BumpVersion advances the data version, stamped at.
func (p partTx) BumpVersion(ctx context.Context, at time.Time) error {
	return bumpVersion(ctx, p.tx, "data", at)
}
