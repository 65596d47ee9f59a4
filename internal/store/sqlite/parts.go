package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
)

var (
	_ dataset.PartSource = (*Store)(nil)
	_ dataset.PartWriter = (*Store)(nil)
)

// UpdateParts runs one import of dataset name in one write transaction
// (store.UpdateParts). Like every write it goes through the one writer
// connection and begins IMMEDIATE, so it takes SQLite's write lock before
// it reads the parts, and imports from this and other processes take
// turns. It returns an error with code Invalid, and stores nothing, if name
// or a ref is not text a store keeps; merge's error as it is.
func (s *Store) UpdateParts(ctx context.Context, name string, started time.Time, refs []dataset.PartRef, merge dataset.MergeFunc) (energy.ImportStats, error) {
	if err := store.CheckPartRefs(name, refs); err != nil {
		return energy.ImportStats{}, fmt.Errorf("sqlite: import %s: %w", name, err)
	}
	var st energy.ImportStats
	err := s.update(ctx, func(tx *sql.Tx) error {
		var err error
		st, err = store.UpdateParts(ctx, partTx{tx: tx}, s.now, name, started, refs, merge)
		return err
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
type partTx struct{ tx *sql.Tx }

func (p partTx) Version(ctx context.Context) (int64, time.Time, error) {
	var v int64
	var updated sql.NullInt64
	err := p.tx.QueryRowContext(ctx, `SELECT version, updated FROM versions WHERE name = 'data'`).Scan(&v, &updated)
	return v, fromMicro(updated), err
}

func (p partTx) ListParts(ctx context.Context) ([]dataset.StoredPart, error) {
	// parts_versions covers this query: it reads no row of parts itself.
	rows, err := p.tx.QueryContext(ctx, `SELECT dataset, id, version FROM parts`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []dataset.StoredPart
	for rows.Next() {
		var sp dataset.StoredPart
		if err := rows.Scan(&sp.Dataset, &sp.ID, &sp.Version); err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
	return out, rows.Err()
}

func (p partTx) ReadParts(ctx context.Context, refs []dataset.PartRef) ([]dataset.StoredPart, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	st, err := p.tx.PrepareContext(ctx, `SELECT version, records, data FROM parts WHERE dataset = ? AND id = ?`)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	var out []dataset.StoredPart
	for _, ref := range refs {
		sp := dataset.StoredPart{PartRef: ref}
		err := st.QueryRowContext(ctx, ref.Dataset, ref.ID).Scan(&sp.Version, &sp.Records, &sp.Data)
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
		(dataset, id, version, written, replaced_by, replaced_at, records, data)
		SELECT dataset, id, version, written, ?, ?, records, data FROM parts WHERE dataset = ? AND id = ?`)
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
	}
	return nil
}

func (p partTx) FinishImport(ctx context.Context, run store.ImportRun, changed bool) error {
	if changed {
		if err := p.BumpVersion(ctx, run.Finished); err != nil {
			return err
		}
	}
	st := run.Stats
	_, err := p.tx.ExecContext(ctx, `INSERT INTO import_runs
		(dataset, started, finished, rows_read, inserted, updated, unchanged)
		VALUES (?, ?, ?, ?, ?, ?, ?)`,
		run.Dataset, run.Started.UnixMicro(), run.Finished.UnixMicro(), st.Read, st.Inserted, st.Updated, st.Unchanged)
	return err
}

// BumpVersion advances the data version, stamped at.
func (p partTx) BumpVersion(ctx context.Context, at time.Time) error {
	return bumpVersion(ctx, p.tx, "data", at)
}
