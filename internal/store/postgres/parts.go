package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/store"
	"github.com/jackc/pgx/v5"
)

// partTx runs fn in one transaction with the part methods
// (store.PartTxFunc). A write first takes the import lock, which every
// import and fill on the database takes, so they take turns across
// processes, and each reads the parts after the one before it committed. A
// read is one read-only REPEATABLE READ transaction: one snapshot, whatever
// commits meanwhile.
func (s *Store) partTx(ctx context.Context, write bool, fn func(tx store.PartDB) error) error {
	if !write {
		return s.view(ctx, func(tx pgx.Tx) error { return fn(newPartTx(tx)) })
	}
	return s.update(ctx, func(tx pgx.Tx) error {
		if err := lockImports(ctx, tx); err != nil {
			return err
		}
		return fn(newPartTx(tx))
	})
}

// partTx is a transaction as the shared part code (store.PartDB) uses it:
// the data version and the import runs are store.ImportLog's.
type partTx struct {
	store.ImportLog
	tx pgx.Tx
}

func newPartTx(tx pgx.Tx) partTx { return partTx{ImportLog: store.ImportLog{Tx: conn{tx}}, tx: tx} }

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
		b.Queue(`INSERT INTO part_history (dataset, id, version, written, replaced_by, replaced_at, records, data, first_time, last_time)
			SELECT dataset, id, version, written, $1, $2, records, data, first_time, last_time FROM parts WHERE dataset = $3 AND id = $4`,
			sp.Version, at, sp.Dataset, sp.ID)
		b.Queue(`INSERT INTO parts (dataset, id, version, written, records, data) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (dataset, id) DO UPDATE SET version = excluded.version, written = excluded.written,
				records = excluded.records, data = excluded.data`,
			sp.Dataset, sp.ID, sp.Version, at, sp.Records, sp.Data)
		first, last := store.Span(sp)
		b.Queue(`UPDATE parts SET first_time = $1, last_time = $2 WHERE dataset = $3 AND id = $4`, first, last, sp.Dataset, sp.ID)
	}
	return p.tx.SendBatch(ctx, &b).Close()
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
	rows, err := s.pool.Query(ctx, numbered(store.LendPartSQL), store.LendPartArgs(ref, version)...)
	if err != nil {
		return s.PartError(ref, version, err)
	}
	defer rows.Close()
	if !rows.Next() {
		return s.NoPart(ref, version, rows.Err())
	}
	sp := dataset.StoredPart{PartRef: ref, Version: version}
	if err := rows.Scan(&sp.Written, &sp.Records, &sp.First, &sp.Last, nil); err != nil {
		return s.PartError(ref, version, err)
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
