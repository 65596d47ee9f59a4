package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Parts are kept in one table per store, whatever their dataset: the parts
// table holds the current bytes of each (dataset, part ID) with the data
// version that wrote them, and part_history every version that an import
// replaced, with the version and time that replaced it. A store adds only
// the SQL; UpdateParts and ChangedParts below hold the rules.

// ImportRun is a committed import as import_runs records it.
type ImportRun struct {
	Dataset  string
	Started  time.Time
	Finished time.Time // also the time of the data version it wrote, if any
	Stats    energy.ImportStats
	// Version is the data version once the run commits; FirstPart and
	// LastPart the first and last part IDs of Dataset it read.
	Version             int64
	FirstPart, LastPart string
}

// PartReader is what UpdateParts and ChangedParts read through: a store's
// transaction.
type PartReader interface {
	// Version returns the data version and when it last changed (zero
	// before the first change).
	Version(ctx context.Context) (int64, time.Time, error)
	// ReadParts returns the stored parts among refs, which are distinct, in
	// any order: absent ones are left out.
	ReadParts(ctx context.Context, refs []dataset.PartRef) ([]dataset.StoredPart, error)
}

// PartTx is one import's write transaction: a store begins it, serialised
// with every other import on the database, and commits it if UpdateParts
// succeeds.
type PartTx interface {
	PartReader
	// WriteParts stores parts, each with its Version set, replacing the
	// stored part of the same ref, if any, after copying that one into
	// part_history as replaced by the part's version at the time at.
	WriteParts(ctx context.Context, parts []dataset.StoredPart, at time.Time) error
	// FinishImport records run in import_runs and, if changed, advances
	// the data version by one, stamped with run.Finished.
	FinishImport(ctx context.Context, run ImportRun, changed bool) error
}

// PartSnapshot is one read snapshot of a store.
type PartSnapshot interface {
	PartReader
	// ListParts returns every stored part without its Data, with its
	// version, written time, record count and span.
	ListParts(ctx context.Context) ([]dataset.StoredPart, error)
}

// CheckPartRefs returns an error with code Invalid if an import into
// dataset name that reads refs cannot be stored: a name or an ID is empty
// or not ValidText.
func CheckPartRefs(name string, refs []dataset.PartRef) error {
	if name == "" || !ValidText(name) {
		return energy.Errorf(energy.Invalid, "dataset name %q is empty or not UTF-8 text without NUL bytes", name)
	}
	for _, r := range refs {
		if err := checkRef(r); err != nil {
			return err
		}
	}
	return nil
}

func checkRef(r dataset.PartRef) error {
	if r.Dataset == "" || r.ID == "" || !ValidText(r.Dataset) || !ValidText(r.ID) {
		return energy.Errorf(energy.Invalid, "part %q of dataset %q: names must be non-empty UTF-8 text without NUL bytes", r.ID, r.Dataset)
	}
	return nil
}

// compareRefs orders refs by dataset, then ID, byte-wise.
func compareRefs(a, b dataset.PartRef) int {
	return cmp.Or(cmp.Compare(a.Dataset, b.Dataset), cmp.Compare(a.ID, b.ID))
}

// SortParts sorts ps by ref (dataset, then ID, byte-wise): the order in
// which ChangedParts returns them and WriteParts gets them.
func SortParts(ps []dataset.StoredPart) {
	slices.SortFunc(ps, func(a, b dataset.StoredPart) int { return compareRefs(a.PartRef, b.PartRef) })
}

// UpdateParts runs the import that dataset.PartWriter.UpdateParts describes
// within tx: it reads the parts refs names, calls merge, writes the parts
// merge returns with the next data version if there are any, and records
// the run, stamped by now. refs must have passed CheckPartRefs. On error the
// store must roll tx back; the stats are then zero.
//
// It returns merge's error as it is, and an error with code Invalid if
// merge returns a part whose ref CheckPartRefs would refuse; other faults
// of merge's parts (a ref twice, no bytes, a negative count) are errors
// without a code.
func UpdateParts(ctx context.Context, tx PartTx, now func() time.Time, name string, started time.Time, refs []dataset.PartRef, merge dataset.MergeFunc) (energy.ImportStats, error) {
	stored, err := tx.ReadParts(ctx, distinctRefs(refs))
	if err != nil {
		return energy.ImportStats{}, err
	}
	SortParts(stored)
	// The time of the write is known before the merge, which stamps the
	// records it publishes or revises with it.
	at := now()
	write, st, err := merge(stored, at)
	if err != nil {
		return energy.ImportStats{}, err
	}
	version, _, err := tx.Version(ctx)
	if err != nil {
		return energy.ImportStats{}, err
	}
	write, err = preparePartWrites(write, version+1)
	if err != nil {
		return energy.ImportStats{}, err
	}
	if len(write) > 0 {
		if err := tx.WriteParts(ctx, write, at); err != nil {
			return energy.ImportStats{}, err
		}
	}
	run := ImportRun{Dataset: name, Started: started, Finished: at, Stats: st, Version: version}
	if len(write) > 0 {
		run.Version++
	}
	for _, r := range distinctRefs(refs) {
		if r.Dataset == name {
			if run.FirstPart == "" {
				run.FirstPart = r.ID
			}
			run.LastPart = r.ID
		}
	}
	if err := tx.FinishImport(ctx, run, len(write) > 0); err != nil {
		return energy.ImportStats{}, err
	}
	return st, nil
}

// distinctRefs returns refs sorted, each once.
func distinctRefs(refs []dataset.PartRef) []dataset.PartRef {
	refs = slices.Clone(refs)
	slices.SortFunc(refs, compareRefs)
	return slices.Compact(refs)
}

// preparePartWrites checks the parts a merge returned and returns a copy,
// sorted by ref, with every Version set to version.
func preparePartWrites(write []dataset.StoredPart, version int64) ([]dataset.StoredPart, error) {
	return checkWrites(write, func(p *dataset.StoredPart) error {
		switch {
		case len(p.Data) == 0:
			return fmt.Errorf("merge returned part %s/%s without data", p.Dataset, p.ID)
		case p.Records < 0:
			return fmt.Errorf("merge returned part %s/%s with %d records", p.Dataset, p.ID, p.Records)
		}
		p.Version = version
		return nil
	}, func(r dataset.PartRef) error {
		return fmt.Errorf("merge returned part %s/%s twice", r.Dataset, r.ID)
	})
}

// checkWrites returns a copy of parts sorted by ref, after checking each
// one's ref (checkRef) and then the rest of it with check, which may set
// what the store adds; twice is the error for a ref given twice.
func checkWrites(parts []dataset.StoredPart, check func(p *dataset.StoredPart) error, twice func(dataset.PartRef) error) ([]dataset.StoredPart, error) {
	out := make([]dataset.StoredPart, len(parts))
	for i, p := range parts {
		if err := checkRef(p.PartRef); err != nil {
			return nil, err
		}
		if err := check(&p); err != nil {
			return nil, err
		}
		out[i] = p
	}
	SortParts(out)
	for i := 1; i < len(out); i++ {
		if out[i].PartRef == out[i-1].PartRef {
			return nil, twice(out[i].PartRef)
		}
	}
	return out, nil
}

// ChangedParts returns what dataset.PartSource.ChangedParts describes, read
// from snap: the data version and every stored part whose version differs
// from have's, sorted by ref. It reads the bytes of those parts only.
func ChangedParts(ctx context.Context, snap PartSnapshot, have map[dataset.PartRef]int64) (dataset.Changes, error) {
	var ch dataset.Changes
	var err error
	if ch.Version, ch.Updated, err = snap.Version(ctx); err != nil {
		return dataset.Changes{}, err
	}
	listed, err := snap.ListParts(ctx)
	if err != nil {
		return dataset.Changes{}, err
	}
	var refs []dataset.PartRef
	for _, p := range listed {
		if v, ok := have[p.PartRef]; !ok || v != p.Version {
			refs = append(refs, p.PartRef)
		}
	}
	if len(refs) == 0 {
		return ch, nil
	}
	if ch.Parts, err = snap.ReadParts(ctx, refs); err != nil {
		return dataset.Changes{}, err
	}
	if len(ch.Parts) != len(refs) {
		// One snapshot cannot lose a part between two queries.
		return dataset.Changes{}, fmt.Errorf("read %d of %d listed parts", len(ch.Parts), len(refs))
	}
	SortParts(ch.Parts)
	return ch, nil
}

// Span returns the span a store keeps for sp: NULL (nil) for a part
// without records.
func Span(sp dataset.StoredPart) (first, last any) {
	if sp.Records == 0 {
		return nil, nil
	}
	return sp.First, sp.Last
}

// ListParts returns what dataset.PartSource.ListParts describes, read from
// snap: the data version and every stored part without its Data, sorted by
// ref.
func ListParts(ctx context.Context, snap PartSnapshot) (dataset.Changes, error) {
	var ch dataset.Changes
	var err error
	if ch.Version, ch.Updated, err = snap.Version(ctx); err != nil {
		return dataset.Changes{}, err
	}
	if ch.Parts, err = snap.ListParts(ctx); err != nil {
		return dataset.Changes{}, err
	}
	SortParts(ch.Parts)
	return ch, nil
}

// SpanTx is the transaction of the migration that adds the spans of the
// stored parts (their first and last records' moments) to parts and
// part_history: FillSpans reads every stored version through it.
type SpanTx interface {
	// Versions returns the ref and version of every row of parts and
	// part_history.
	Versions(ctx context.Context) ([]dataset.StoredPart, error)
	// Data returns the bytes of one of them.
	Data(ctx context.Context, ref dataset.PartRef, version int64) ([]byte, error)
	// KeepSpan records the span of one of them in the migration's
	// part_spans table, which its SQL copies into the new columns.
	KeepSpan(ctx context.Context, ref dataset.PartRef, version, first, last int64) error
}

// spanQuerier is a SpanTx over a Querier, the same on both databases.
type spanQuerier struct{ q Querier }

func (s spanQuerier) Versions(ctx context.Context) ([]dataset.StoredPart, error) {
	return QueryAll(ctx, s.q, func(row Row) (sp dataset.StoredPart, err error) {
		err = row.Scan(&sp.Dataset, &sp.ID, &sp.Version)
		return sp, err
	}, `SELECT dataset, id, version FROM parts
		UNION ALL SELECT dataset, id, version FROM part_history`)
}

func (s spanQuerier) Data(ctx context.Context, ref dataset.PartRef, version int64) ([]byte, error) {
	var b []byte
	err := s.q.QueryRow(ctx, `SELECT data FROM parts WHERE dataset = ? AND id = ? AND version = ?
		UNION ALL SELECT data FROM part_history WHERE dataset = ? AND id = ? AND version = ? LIMIT 1`,
		ref.Dataset, ref.ID, version, ref.Dataset, ref.ID, version).Scan(&b)
	return b, err
}

func (s spanQuerier) KeepSpan(ctx context.Context, ref dataset.PartRef, version, first, last int64) error {
	_, err := s.q.Exec(ctx, `INSERT INTO part_spans (dataset, id, version, first_time, last_time)
		VALUES (?, ?, ?, ?, ?)`, ref.Dataset, ref.ID, version, first, last)
	return err
}

// FillSpans decodes every stored part version once, one at a time, and
// keeps its span through tx. A part without records, or whose bytes do not
// decode, keeps none: its span stays unknown (NULL), which reads as zero.
func FillSpans(ctx context.Context, tx SpanTx) error {
	versions, err := tx.Versions(ctx)
	if err != nil {
		return err
	}
	for _, v := range versions {
		b, err := tx.Data(ctx, v.PartRef, v.Version)
		if err != nil {
			return err
		}
		n, first, last, err := dataset.DecodeSpan(b)
		if err != nil || n == 0 {
			continue
		}
		if err := tx.KeepSpan(ctx, v.PartRef, v.Version, first, last); err != nil {
			return err
		}
	}
	return nil
}

// ReadPart is ReadPart of a store that lends its parts (LendPart): the
// lent bytes, copied for the caller to keep.
func ReadPart(ctx context.Context, s dataset.PartLender, ref dataset.PartRef, version int64) (dataset.StoredPart, error) {
	var out dataset.StoredPart
	err := s.LendPart(ctx, ref, version, func(sp dataset.StoredPart) error {
		out, out.Data = sp, slices.Clone(sp.Data)
		return nil
	})
	return out, err
}
