package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/store"
)

// partTx runs fn in one transaction with the part methods
// (store.PartTxFunc). A write goes through the one writer connection and
// begins IMMEDIATE, like every write, so it takes SQLite's write lock
// before it reads the parts, and imports and fills from this and other
// processes take turns. A read is one read transaction: under WAL it reads
// one snapshot of the file, whatever commits meanwhile.
func (s *Store) partTx(ctx context.Context, write bool, fn func(tx store.PartDB) error) error {
	run := s.view
	if write {
		run = s.update
	}
	return run(ctx, func(tx *sql.Tx) error { return fn(newPartTx(tx)) })
}

// partTx is a transaction as the shared part code (store.PartDB) uses it:
// the data version and the import runs are store.ImportLog's.
type partTx struct {
	store.ImportLog
	tx *sql.Tx
}

func newPartTx(tx *sql.Tx) partTx { return partTx{ImportLog: store.ImportLog{Tx: conn{tx}}, tx: tx} }

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
		(dataset, id, version, written, replaced_by, replaced_at, records, data, first_time, last_time)
		SELECT dataset, id, version, written, ?, ?, records, data, first_time, last_time FROM parts WHERE dataset = ? AND id = ?`)
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
		first, last := store.Span(sp)
		if _, err := p.tx.ExecContext(ctx, `UPDATE parts SET first_time = ?, last_time = ? WHERE dataset = ? AND id = ?`,
			first, last, sp.Dataset, sp.ID); err != nil {
			return err
		}
	}
	return nil
}

// ReadPart implements dataset.PartSource: one query over parts and
// part_history.
func (s *Store) ReadPart(ctx context.Context, ref dataset.PartRef, version int64) (dataset.StoredPart, error) {
	return store.ReadPart(ctx, s, ref, version)
}

// LendPart implements dataset.PartLender: the part's bytes are the
// driver's (sql.RawBytes), not a copy of them.
func (s *Store) LendPart(ctx context.Context, ref dataset.PartRef, version int64, fn func(dataset.StoredPart) error) error {
	rows, err := s.r.QueryContext(ctx, store.LendPartSQL, store.LendPartArgs(ref, version)...)
	if err != nil {
		return s.PartError(ref, version, err)
	}
	defer rows.Close()
	if !rows.Next() {
		return s.NoPart(ref, version, rows.Err())
	}
	var written int64
	var data sql.RawBytes
	sp := dataset.StoredPart{PartRef: ref, Version: version}
	if err := rows.Scan(&written, &sp.Records, &sp.First, &sp.Last, &data); err != nil {
		return s.PartError(ref, version, err)
	}
	sp.Written, sp.Data = time.UnixMicro(written).UTC(), data
	return fn(sp)
}
