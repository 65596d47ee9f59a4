package dataset

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"slices"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// PartRef names a stored part.
type PartRef struct {
	Dataset string
	ID      string
}

// StoredPart is a part as a store keeps it: encoded, with the data version
// of the import that last wrote it and its number of records, which the
// store keeps beside the bytes for operators (it cannot read Data).
type StoredPart struct {
	PartRef
	Version int64
	Written time.Time // when that import wrote it; every record it published is stamped with it
	Records int
	// First and Last are the moments (Unix seconds) of the part's first
	// and last records, which the store keeps beside the bytes so that a
	// server can tell which parts a query covers without reading them;
	// zero for a part without records.
	First, Last int64
	Data        []byte
}

// Changes is what changed in a store since a reader's last look, read in
// one consistent snapshot of the store.
type Changes struct {
	Version int64     // the store's data version
	Updated time.Time // when it last changed; zero before the first import
	Parts   []StoredPart
}

// PartSource is what a server loads its data from.
type PartSource interface {
	// DataVersion returns a number that changes whenever an import commits a change.
	DataVersion(ctx context.Context) (int64, error)
	// ChangedParts returns every stored part whose version differs from
	// have[ref] (all parts for an empty have), with the data version, read in
	// one snapshot: an import that commits meanwhile is wholly in the result
	// or not at all.
	ChangedParts(ctx context.Context, have map[PartRef]int64) (Changes, error)
	// ListParts returns every stored part without its Data, with the data
	// version, read in one snapshot as ChangedParts is.
	ListParts(ctx context.Context) (Changes, error)
	// ReadPart returns the version of ref that was written with version,
	// with its Data: the current part or, in a store that keeps history, a
	// replaced one. It returns an error with code NotFound if the store
	// holds no such version.
	ReadPart(ctx context.Context, ref PartRef, version int64) (StoredPart, error)
}

// PartLender is a PartSource that can lend a part's bytes rather than copy
// them: a cold read is then one copy of the part's bytes fewer, which on a
// server reading cold parts all day is garbage its collector does not
// have to keep up with.
type PartLender interface {
	// LendPart calls fn with what ReadPart returns for ref and version;
	// its Data are valid only until fn returns. LendPart returns fn's
	// error, or ReadPart's.
	LendPart(ctx context.Context, ref PartRef, version int64, fn func(StoredPart) error) error
}

// MergeFunc computes an import's new parts from the stored ones. It gets
// the stored parts it asked for (absent ones are missing from the slice)
// and the time at which the store will write the parts it returns, which
// stamps the records they publish or revise; it returns the parts to
// write, whose Version and Written the store sets, and the import's counts.
type MergeFunc func(stored []StoredPart, at time.Time) (write []StoredPart, st energy.ImportStats, err error)

// ImportEvent is a committed import as the updates feed shows it.
type ImportEvent struct {
	ID       int64 // increases with every import, in commit order
	Dataset  string
	Started  time.Time
	Finished time.Time // when it committed; the time its records carry
	Stats    energy.ImportStats
	// Version is the data version once it committed; FirstPart and
	// LastPart the first and last part IDs of Dataset it covered. Imports
	// recorded before stores kept them have neither (0, "").
	Version             int64
	FirstPart, LastPart string
}

// EventSource is a store that lists its imports.
type EventSource interface {
	// ImportEvents returns at most limit imports with an ID above after
	// that finished after since (when not zero), oldest first.
	ImportEvents(ctx context.Context, after int64, since time.Time, limit int) ([]ImportEvent, error)
}

// PartHistory is a PartSource that keeps every part an import replaced
// (a store's part_history), so that the data as they stood at an earlier
// time can be read again.
type PartHistory interface {
	// PartVersionAt returns the version of ref that was current at t among
	// those an import has replaced since, without its Data; ok is false if
	// none was (the current part, or none, was current at t).
	PartVersionAt(ctx context.Context, ref PartRef, t time.Time) (sp StoredPart, ok bool, err error)
	// ReadPartVersion returns a replaced version of ref, with its Data. It
	// returns an error with code NotFound if the store holds no such version.
	ReadPartVersion(ctx context.Context, ref PartRef, version int64) (StoredPart, error)
}

// PartWriter is what an import writes through.
type PartWriter interface {
	// UpdateParts runs one import in one write transaction, serialised with
	// every other import from any process: it reads the parts refs names,
	// calls merge, writes the parts merge returns with the next data version
	// (advancing it only if merge returned any), records the import run of
	// dataset with started and merge's counts, and commits. On any error,
	// merge's included, nothing changes.
	UpdateParts(ctx context.Context, dataset string, started time.Time, refs []PartRef, merge MergeFunc) (energy.ImportStats, error)
}

// PartFiller is a store that can hold parts written without an import:
// the demo data, whose parts are the same whichever store holds them and
// whenever they are written (see DemoSource). Filling a part changes
// nothing a client sees, so it records no import run and does not advance
// the data version.
type PartFiller interface {
	// FillParts writes, in one transaction serialised with every import,
	// each of parts that the store does not hold, with its own Version,
	// Written, Records, First, Last and Data, and returns how many it
	// wrote; a part the store holds (imported, or filled before, by this
	// or another process) stays as it is. If the data version is below
	// floor, it raises it to floor, so that the next import's version is
	// above that of every part filled. It records no import run and keeps
	// no history. On error nothing changes.
	FillParts(ctx context.Context, floor int64, parts []StoredPart) (int, error)
}

// Import upserts rows into dataset d of c through w, all or nothing: rows
// are grouped into parts, merged with the stored parts on their natural
// key, and the changed parts are written in one transaction. rows must be
// canonical (as a parser returns them) and have distinct keys; Import
// returns an error with code Invalid naming the first repeated key.
func Import(ctx context.Context, w PartWriter, c *Catalog, d *Dataset, rows []Row, started time.Time) (energy.ImportStats, error) {
	return ImportBatches(ctx, w, c, []Batch{{d, rows}}, started)
}

// Batch is the records of one dataset in an import.
type Batch struct {
	Dataset *Dataset
	Rows    []Row
}

// ImportBatches is Import for the records of several datasets at once, in
// one transaction, recorded as one import run of the first batch's
// dataset. Its counts are those of the first batch.
func ImportBatches(ctx context.Context, w PartWriter, c *Catalog, batches []Batch, started time.Time) (energy.ImportStats, error) {
	return importBatches(ctx, w, c, batches, started, false)
}

// ErrAllStored is ImportMissing's error when the store holds every part
// the records fall in: nothing was written and no import recorded.
var ErrAllStored = errors.New("import: every part is stored already")

// ImportMissing is Import that writes only the parts the store does not
// hold, all or nothing: a stored part stays as it is, whatever rows say,
// so that what an import wrote keeps winning over generated records. Its
// counts cover the parts it writes. It returns ErrAllStored if it has
// nothing to write.
func ImportMissing(ctx context.Context, w PartWriter, c *Catalog, d *Dataset, rows []Row, started time.Time) (energy.ImportStats, error) {
	return importBatches(ctx, w, c, []Batch{{d, rows}}, started, true)
}

// importBatches is ImportBatches, or ImportMissing's rule for every batch
// if missingOnly.
func importBatches(ctx context.Context, w PartWriter, c *Catalog, batches []Batch, started time.Time, missingOnly bool) (energy.ImportStats, error) {
	if len(batches) == 0 {
		return energy.ImportStats{}, errors.New("import: no records")
	}
	im, err := groupBatches(c, batches)
	if err != nil {
		return energy.ImportStats{}, err
	}
	if err := im.checkDuplicates(); err != nil {
		return energy.ImportStats{}, err
	}
	im.missingOnly = missingOnly
	return w.UpdateParts(ctx, im.first, started, im.refs, im.merge)
}

// BatchRefs returns the parts the records of batches fall in, sorted: those
// an import of them reads and writes.
func BatchRefs(c *Catalog, batches []Batch) ([]PartRef, error) {
	im, err := groupBatches(c, batches)
	if err != nil {
		return nil, err
	}
	return im.refs, nil
}

// importPlan is an import's records grouped by dataset and part, ready to
// be merged with the stored parts.
type importPlan struct {
	groups      map[string]*importGroup // by dataset name
	refs        []PartRef               // the parts the records fall in, sorted
	first       string                  // the dataset the import run is recorded for, and counted
	missingOnly bool                    // write only the parts the store lacks
}

// importGroup is one dataset's records by part ID.
type importGroup struct {
	d      *Dataset
	l      *Layout
	byPart map[string][]Row
}

// groupBatches groups the batches' rows by dataset and part. It returns an
// error for a dataset the catalogue lacks or given twice, and for a row of
// the wrong shape.
func groupBatches(c *Catalog, batches []Batch) (*importPlan, error) {
	im := &importPlan{groups: map[string]*importGroup{}, first: batches[0].Dataset.Name}
	for _, b := range batches {
		d := b.Dataset
		l := c.layoutOf(d)
		if l == nil {
			return nil, fmt.Errorf("import: dataset %s is not in the catalogue", d.Name)
		}
		if im.groups[d.Name] != nil {
			return nil, fmt.Errorf("import: dataset %s in two batches", d.Name)
		}
		g := &importGroup{d: d, l: l, byPart: map[string][]Row{}}
		im.groups[d.Name] = g
		if err := im.addRows(g, b.Rows); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(im.refs, compareRef)
	return im, nil
}

// addRows adds rows to g by part, and the parts first seen to im.refs.
//
// A part's rows usually come in one run (generators and files go in time
// order): the run is kept as a window on rows, capacity capped so that a
// later row of the same part copies it, rather than copying every row.
func (im *importPlan) addRows(g *importGroup, rows []Row) error {
	d, l := g.d, g.l
	start, runID, ids := 0, "", partIDs{grain: d.Grain}
	for i, r := range rows {
		if len(r.Text) != l.NText || len(r.Num) != l.NNum {
			return fmt.Errorf("import %s: a row has %d text and %d number values, want %d and %d", d.Name, len(r.Text), len(r.Num), l.NText, l.NNum)
		}
		id := ids.of(r.Time)
		if i > 0 && id == runID {
			continue
		}
		if i > 0 {
			g.add(runID, rows[start:i:i])
		}
		if _, ok := g.byPart[id]; !ok {
			im.refs = append(im.refs, PartRef{d.Name, id})
		}
		start, runID = i, id
	}
	if len(rows) > 0 {
		g.add(runID, rows[start:len(rows):len(rows)])
	}
	return nil
}

// add appends a run of rows to part id's.
func (g *importGroup) add(id string, run []Row) {
	if prev, ok := g.byPart[id]; ok {
		run = append(prev, run...) // prev's capacity is capped: this copies
	}
	g.byPart[id] = run
}

// checkDuplicates returns an error with code Invalid naming the first
// record whose key appears twice.
//
// Duplicates are looked for part by part (a key belongs to one part): one
// set of keys the size of a part, not of the import, keeps a
// two-million-row import from holding two million keys at once. The set
// holds a hash of each key rather than the key written out (a string a
// record was most of the check's cost); two records whose hashes match
// are compared by their keys, and a part where two different keys share
// a hash is checked again by the keys themselves.
func (im *importPlan) checkDuplicates() error {
	seed := maphash.MakeSeed()
	for _, ref := range im.refs {
		g := im.groups[ref.Dataset]
		hash := func(r Row) uint64 { return g.l.keyHash(seed, g.d.Grain, r) }
		if err := checkPart(g, g.byPart[ref.ID], hash); err != nil {
			return err
		}
	}
	return nil
}

// checkPart is checkDuplicates for one part's rows, by the hashes of their
// keys: moment by moment when the rows are in time order, else all at
// once, in a set the size of the part made only then.
func checkPart(g *importGroup, rows []Row, hash func(Row) uint64) error {
	if ok, err := checkMoments(g, rows, hash); ok {
		return err
	}
	return checkHashes(g, rows, make(map[uint64]int, len(rows)), hash)
}

// checkMoments is checkPart for rows in time order, as generators and
// files most often come, moment by moment (by the bucket of the dataset's
// grain that a key holds: rows of two moments never share a key). A
// moment whose rows hold the key fields of the moment before, in the same
// order, holds no key twice, as that one did not, and is not looked at
// again: most moments of a generated series. ok is false, and nothing is
// checked, when the rows are not in time order.
func checkMoments(g *importGroup, rows []Row, hash func(Row) uint64) (ok bool, err error) {
	if !timesInOrder(rows) {
		return false, nil
	}
	var last []Row // the moment checked last
	var seen map[uint64]int
	for start, end := 0, 0; start < len(rows); start = end {
		bucket := Bucket(g.d.Grain, rows[start].Time)
		for end = start + 1; end < len(rows) && (rows[end].Time == rows[end-1].Time || Bucket(g.d.Grain, rows[end].Time) == bucket); end++ {
		}
		moment := rows[start:end]
		if !sameFields(moment, last, g.l.key) {
			if seen == nil {
				seen = make(map[uint64]int, len(moment))
			}
			clear(seen)
			if err := checkHashes(g, moment, seen, hash); err != nil {
				return true, err
			}
		}
		last = moment
	}
	return true, nil
}

// checkHashes is checkPart by the hashes of every row's key, seen empty (a
// key's hash: the first record with it).
func checkHashes(g *importGroup, rows []Row, seen map[uint64]int, hash func(Row) uint64) error {
	for i, r := range rows {
		h := hash(r)
		j, ok := seen[h]
		if !ok {
			seen[h] = i
			continue
		}
		if g.l.keyOf(g.d.Grain, rows[j]) == g.l.keyOf(g.d.Grain, r) {
			return duplicate(g.d, r)
		}
		return checkKeys(g, rows) // two keys share a hash
	}
	return nil
}

// checkKeys is checkDuplicates for one part's rows, by their keys.
func checkKeys(g *importGroup, rows []Row) error {
	seen := make(map[string]bool, len(rows))
	for _, r := range rows {
		k := g.l.keyOf(g.d.Grain, r)
		if seen[k] {
			return duplicate(g.d, r)
		}
		seen[k] = true
	}
	return nil
}

func duplicate(d *Dataset, r Row) error {
	return energy.Errorf(energy.Invalid, "%s: the record %s appears twice", d.Name, d.DescribeKey(r))
}

// merge is the import's MergeFunc: it merges each part's records with the
// stored part and returns the parts that changed, counting the first
// dataset's records.
func (im *importPlan) merge(stored []StoredPart, at time.Time) ([]StoredPart, energy.ImportStats, error) {
	old, held, err := im.decodeStored(stored)
	if err != nil {
		return nil, energy.ImportStats{}, err
	}
	var total energy.ImportStats
	var write []StoredPart
	for _, ref := range im.refs {
		g := im.groups[ref.Dataset]
		if im.missingOnly && held[ref] {
			continue
		}
		p, st, changed, err := Merge(g.l, g.d.Grain, ref.ID, old[ref], g.byPart[ref.ID], at.UnixMicro())
		if err != nil {
			return nil, total, err
		}
		if ref.Dataset == im.first {
			total.Read += st.Read
			total.Inserted += st.Inserted
			total.Updated += st.Updated
			total.Unchanged += st.Unchanged
		}
		if !changed {
			continue
		}
		b, err := p.Encode()
		if err != nil {
			return nil, total, err
		}
		write = append(write, p.Stored(ref, b))
	}
	if im.missingOnly && len(write) == 0 {
		// Failing rolls the transaction back: no import run is recorded.
		return nil, total, ErrAllStored
	}
	return write, total, nil
}

// decodeStored returns the stored parts of the import's datasets, decoded,
// and which parts the store holds. With missingOnly it decodes none: a
// held part is left as it is.
func (im *importPlan) decodeStored(stored []StoredPart) (old map[PartRef]*Part, held map[PartRef]bool, err error) {
	old, held = map[PartRef]*Part{}, map[PartRef]bool{}
	for _, sp := range stored {
		g := im.groups[sp.Dataset]
		if g == nil {
			continue
		}
		if held[sp.PartRef] = true; im.missingOnly {
			continue
		}
		p, err := DecodePart(g.l, sp)
		if err != nil {
			return nil, nil, fmt.Errorf("%s part %s: %w", sp.Dataset, sp.ID, err)
		}
		old[sp.PartRef] = p
	}
	return old, held, nil
}

// DescribeKey returns a record's key for messages: its moment and key fields.
func (d *Dataset) DescribeKey(r Row) string {
	s := time.Unix(r.Time, 0).In(energy.Rome()).Format("2006-01-02 15:04:05 -07:00")
	if d.Grain == Year {
		s = s[:4]
	}
	i := 0
	for _, f := range d.Fields {
		if f.Kind != Text {
			continue
		}
		if slices.Contains(d.keyNames(), f.Name) {
			s += fmt.Sprintf(" %s=%q", f.Name, r.Text[i])
		}
		i++
	}
	return s
}

func (d *Dataset) keyNames() []string {
	if len(d.Key) > 0 {
		return d.Key
	}
	return d.TextFields()
}
