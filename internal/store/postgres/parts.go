package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
	"github.com/jackc/pgx/v5"
)

var (
	_ dataset.PartSource = (*Store)(nil)
	_ dataset.PartWriter = (*Store)(nil)
	_ dataset.PartLender = (*Store)(nil)
)

// UpdateParts runs one import of dataset name in one transaction
// (store.UpdateParts). The transaction first takes the import lock, which
// every import on the database takes, so imports from any process take
// turns, and each reads the parts after the one before it committed. It
// returns an error with code Invalid, and stores nothing, if name or a ref
// is not text a store keeps; merge's error as it is.
func (s *Store) UpdateParts(ctx context.Context, name string, started time.Time, refs []dataset.PartRef, merge dataset.MergeFunc) (energy.ImportStats, error) {
	return s.UpdatePartsThen(ctx, name, started, refs, merge, nil)
}

// UpdatePartsThen is UpdateParts that also runs then, unless nil, in the
// import's transaction after the import's writes: what then writes
// commits with the import, and its error rolls the import back.
func (s *Store) UpdatePartsThen(ctx context.Context, name string, started time.Time, refs []dataset.PartRef, merge dataset.MergeFunc, then func(ctx context.Context, tx store.Querier) error) (energy.ImportStats, error) {
	if err := store.CheckPartRefs(name, refs); err != nil {
		return energy.ImportStats{}, fmt.Errorf("postgres: import %s: %w", name, err)
	}
	var st energy.ImportStats
	err := s.update(ctx, func(tx pgx.Tx) error {
		if err := lockImports(ctx, tx); err != nil {
			return err
		}
		var err error
		st, err = store.UpdateParts(ctx, partTx{tx: tx}, s.now, name, started, refs, merge)
		if err != nil || then == nil {
			return err
		}
		return then(ctx, conn{tx})
	})
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("postgres: import %s: %w", name, err)
	}
	return st, nil
}

// ChangedParts returns the data version and every part whose version
// differs from have's, from one read-only REPEATABLE READ transaction: one
// snapshot, whatever commits meanwhile.
func (s *Store) ChangedParts(ctx context.Context, have map[dataset.PartRef]int64) (dataset.Changes, error) {
	var ch dataset.Changes
	err := s.view(ctx, func(tx pgx.Tx) error {
		var err error
		ch, err = store.ChangedParts(ctx, partTx{tx: tx}, have)
		return err
	})
	if err != nil {
		return dataset.Changes{}, fmt.Errorf("postgres: changed parts: %w", err)
	}
	return ch, nil
}

// partTx is a transaction as store.UpdateParts and store.ChangedParts use it.
type partTx struct {
	tx       pgx.Tx
	spanless bool // the schema has no spans yet (spanColumns)
}

func (p partTx) Version(ctx context.Context) (int64, time.Time, error) {
	var v int64
	var updated *time.Time
	err := p.tx.QueryRow(ctx, `SELECT version, updated FROM versions WHERE name = 'data'`).Scan(&v, &updated)
	return v, utc(updated), err
}

func (p partTx) ListParts(ctx context.Context) ([]dataset.StoredPart, error) {
	rows, err := p.tx.Query(ctx, `SELECT dataset, id, version, written, records,
		coalesce(first_time, 0), coalesce(last_time, 0) FROM parts`)
	if err != nil {
		return nil, err
	}
	var out []dataset.StoredPart
	var sp dataset.StoredPart
	_, err = pgx.ForEachRow(rows, []any{&sp.Dataset, &sp.ID, &sp.Version, &sp.Written, &sp.Records, &sp.First, &sp.Last}, func() error {
		sp.Written = sp.Written.UTC()
		out = append(out, sp)
		return nil
	})
	return out, err
}

func (p partTx) ReadParts(ctx context.Context, refs []dataset.PartRef) ([]dataset.StoredPart, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	names, ids := make([]string, len(refs)), make([]string, len(refs))
	for i, r := range refs {
		names[i], ids[i] = r.Dataset, r.ID
	}
	// The arrays' text has the database's collation; comparing it with the
	// COLLATE "C" columns needs one named.
	rows, err := p.tx.Query(ctx, `SELECT p.dataset, p.id, p.version, p.written, p.records, p.data
		FROM unnest($1::text[], $2::text[]) AS r (dataset, id)
		JOIN parts p ON p.dataset = r.dataset COLLATE "C" AND p.id = r.id COLLATE "C"`, names, ids)
	if err != nil {
		return nil, err
	}
	var out []dataset.StoredPart
	var sp dataset.StoredPart
	// pgx copies each row's bytea into a new slice.
	_, err = pgx.ForEachRow(rows, []any{&sp.Dataset, &sp.ID, &sp.Version, &sp.Written, &sp.Records, &sp.Data}, func() error {
		sp.Written = sp.Written.UTC()
		out = append(out, sp)
		return nil
	})
	return out, err
}

func (p partTx) WriteParts(ctx context.Context, parts []dataset.StoredPart, at time.Time) error {
	var b pgx.Batch
	for _, sp := range parts {
		b.Queue(`INSERT INTO part_history (dataset, id, version, written, replaced_by, replaced_at, records, data`+p.spanColumns()+`)
			SELECT dataset, id, version, written, $1, $2, records, data`+p.spanColumns()+` FROM parts WHERE dataset = $3 AND id = $4`,
			sp.Version, at, sp.Dataset, sp.ID)
		b.Queue(`INSERT INTO parts (dataset, id, version, written, records, data) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (dataset, id) DO UPDATE SET version = excluded.version, written = excluded.written,
				records = excluded.records, data = excluded.data`,
			sp.Dataset, sp.ID, sp.Version, at, sp.Records, sp.Data)
		if !p.spanless {
			first, last := store.Span(sp)
			b.Queue(`UPDATE parts SET first_time = $1, last_time = $2 WHERE dataset = $3 AND id = $4`, first, last, sp.Dataset, sp.ID)
		}
	}
	return p.tx.SendBatch(ctx, &b).Close()
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
	_, err := p.tx.Exec(ctx, `INSERT INTO import_runs
		(dataset, started, finished, rows_read, inserted, updated, unchanged, version, first_part, last_part)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		run.Dataset, run.Started, run.Finished, st.Read, st.Inserted, st.Updated, st.Unchanged,
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
	err := s.pool.QueryRow(ctx, `SELECT version, written, records FROM part_history
		WHERE dataset = $1 AND id = $2 AND written <= $3 AND replaced_at > $3 ORDER BY version DESC LIMIT 1`,
		ref.Dataset, ref.ID, t).Scan(&sp.Version, &sp.Written, &sp.Records)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return dataset.StoredPart{}, false, nil
	case err != nil:
		return dataset.StoredPart{}, false, fmt.Errorf("postgres: part %s/%s at %s: %w", ref.Dataset, ref.ID, t, err)
	}
	sp.Written = sp.Written.UTC()
	return sp, true, nil
}

// ListParts implements dataset.PartSource, from one read-only REPEATABLE
// READ transaction.
func (s *Store) ListParts(ctx context.Context) (dataset.Changes, error) {
	var ch dataset.Changes
	err := s.view(ctx, func(tx pgx.Tx) error {
		var err error
		ch, err = store.ListParts(ctx, partTx{tx: tx})
		return err
	})
	if err != nil {
		return dataset.Changes{}, fmt.Errorf("postgres: list parts: %w", err)
	}
	return ch, nil
}

// ReadPart implements dataset.PartSource: one query over parts and
// part_history.
func (s *Store) ReadPart(ctx context.Context, ref dataset.PartRef, version int64) (dataset.StoredPart, error) {
	return store.ReadPart(ctx, s, ref, version)
}

// LendPart implements dataset.PartLender: the part's bytes are those pgx
// read off the wire (its result is binary, where a bytea is its bytes),
// valid until the next row.
func (s *Store) LendPart(ctx context.Context, ref dataset.PartRef, version int64, fn func(dataset.StoredPart) error) error {
	rows, err := s.pool.Query(ctx, `SELECT written, records, coalesce(first_time, 0), coalesce(last_time, 0), data
		FROM parts WHERE dataset = $1 AND id = $2 AND version = $3
		UNION ALL SELECT written, records, coalesce(first_time, 0), coalesce(last_time, 0), data
		FROM part_history WHERE dataset = $1 AND id = $2 AND version = $3 LIMIT 1`,
		ref.Dataset, ref.ID, version)
	if err != nil {
		return fmt.Errorf("postgres: part %s/%s version %d: %w", ref.Dataset, ref.ID, version, err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return fmt.Errorf("postgres: part %s/%s version %d: %w", ref.Dataset, ref.ID, version, err)
		}
		return energy.Errorf(energy.NotFound, "part %s/%s has no version %d", ref.Dataset, ref.ID, version)
	}
	sp := dataset.StoredPart{PartRef: ref, Version: version}
	if err := rows.Scan(&sp.Written, &sp.Records, &sp.First, &sp.Last, nil); err != nil {
		return fmt.Errorf("postgres: part %s/%s version %d: %w", ref.Dataset, ref.ID, version, err)
	}
	if rows.FieldDescriptions()[4].Format != pgx.BinaryFormatCode {
		// pgx asks bytea in binary, where the raw value is the bytes; in
		// text it would be their hex, which must not pass for them.
		return fmt.Errorf("postgres: part %s/%s version %d: data in text format", ref.Dataset, ref.ID, version)
	}
	sp.Data = rows.RawValues()[4]
	sp.Written = sp.Written.UTC()
	return fn(sp)
}

// ReadPartVersion implements dataset.PartHistory.
func (s *Store) ReadPartVersion(ctx context.Context, ref dataset.PartRef, version int64) (dataset.StoredPart, error) {
	sp := dataset.StoredPart{PartRef: ref, Version: version}
	err := s.pool.QueryRow(ctx, `SELECT written, records, data FROM part_history WHERE dataset = $1 AND id = $2 AND version = $3`,
		ref.Dataset, ref.ID, version).Scan(&sp.Written, &sp.Records, &sp.Data)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return dataset.StoredPart{}, energy.Errorf(energy.NotFound, "part %s/%s has no replaced version %d", ref.Dataset, ref.ID, version)
	case err != nil:
		return dataset.StoredPart{}, fmt.Errorf("postgres: part %s/%s version %d: %w", ref.Dataset, ref.ID, version, err)
	}
	sp.Written = sp.Written.UTC()
	return sp, nil
}

// ImportEvents implements dataset.EventSource.
func (s *Store) ImportEvents(ctx context.Context, after int64, since time.Time, limit int) ([]dataset.ImportEvent, error) {
	var min *time.Time
	if !since.IsZero() {
		min = &since
	}
	rows, err := s.pool.Query(ctx, `SELECT id, dataset, started, finished, rows_read, inserted, updated, unchanged,
			coalesce(version, 0), coalesce(first_part, ''), coalesce(last_part, '')
		FROM import_runs WHERE id > $1 AND ($2::timestamptz IS NULL OR finished > $2) ORDER BY id LIMIT $3`, after, min, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: import events: %w", err)
	}
	var out []dataset.ImportEvent
	var e dataset.ImportEvent
	st := &e.Stats
	_, err = pgx.ForEachRow(rows, []any{&e.ID, &e.Dataset, &e.Started, &e.Finished, &st.Read, &st.Inserted, &st.Updated, &st.Unchanged,
		&e.Version, &e.FirstPart, &e.LastPart}, func() error {
		e.Started, e.Finished = e.Started.UTC(), e.Finished.UTC()
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: import events: %w", err)
	}
	return out, nil
}

// BumpVersion advances the data version, stamped at.
func (p partTx) BumpVersion(ctx context.Context, at time.Time) error {
	return bumpVersion(ctx, p.tx, "data", at)
}
