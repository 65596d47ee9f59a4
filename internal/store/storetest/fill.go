package storetest

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// FillStore is a store that fills parts, keeps the parts imports replace
// and lists its imports: every store, and dataset.Memory.
type FillStore interface {
	PartStore
	dataset.PartFiller
	dataset.PartHistory
	dataset.EventSource
}

// RunFill tests dataset.PartFiller. open must return a new, empty store
// whose clock is now (dataset.Memory writes its imports at their start,
// which the tests set to now as well) and whose ChangedParts come by
// dataset, then ID, as the stores' do.
func RunFill(t *testing.T, open func(t *testing.T, now func() time.Time) FillStore) {
	t.Run("AsGiven", func(t *testing.T) { testFillAsGiven(t, open) })
	t.Run("HeldStays", func(t *testing.T) { testFillHeldStays(t, open) })
	t.Run("ImportAfter", func(t *testing.T) { testFillImportAfter(t, open) })
	t.Run("Once", func(t *testing.T) { testFillOnce(t, open) })
	t.Run("Concurrent", func(t *testing.T) {
		s := open(t, time.Now)
		fillsTakeTurns(t, []FillStore{s, s, s, s})
	})
	t.Run("Refused", func(t *testing.T) { testFillRefused(t, open) })
}

// encodedParts returns the parts of sensor() that rows make, as an import
// would store them (bytes, record count and span), at version 1.
func encodedParts(t testing.TB, rows []dataset.Row) []dataset.StoredPart {
	t.Helper()
	c, d := sensorCatalog(t)
	m := dataset.NewMemory()
	_, err := dataset.Import(t.Context(), m, c, d, rows, t0())
	noErr(t, "Import into memory", err)
	ch, err := m.ChangedParts(t.Context(), nil)
	noErr(t, "ChangedParts of memory", err)
	sortParts(ch.Parts)
	return ch.Parts
}

// filling returns sp as a part to fill: with version and written.
func filling(sp dataset.StoredPart, version int64, written time.Time) dataset.StoredPart {
	sp.Version, sp.Written = version, written
	return sp
}

func sortParts(ps []dataset.StoredPart) {
	slices.SortFunc(ps, func(a, b dataset.StoredPart) int {
		return cmp.Or(cmp.Compare(a.Dataset, b.Dataset), cmp.Compare(a.ID, b.ID))
	})
}

// listParts returns s's ListParts, its parts sorted by ref.
func listParts(t testing.TB, s PartStore) dataset.Changes {
	t.Helper()
	ch, err := s.ListParts(t.Context())
	noErr(t, "ListParts", err)
	sortParts(ch.Parts)
	return ch
}

// sameMeta reports whether a and b are the same part but for their bytes.
func sameMeta(a, b dataset.StoredPart) bool {
	return a.PartRef == b.PartRef && a.Version == b.Version && a.Written.Equal(b.Written) &&
		a.Records == b.Records && a.First == b.First && a.Last == b.Last
}

func describe(p dataset.StoredPart) string {
	return fmt.Sprintf("%s/%s v%d written %s, %d records from %d to %d, %d bytes",
		p.Dataset, p.ID, p.Version, p.Written.UTC().Format(time.RFC3339Nano), p.Records, p.First, p.Last, len(p.Data))
}

// wantStored fails the test unless s lists want as it is and returns its
// bytes from ReadPart, and from LendPart if it lends them.
func wantStored(t testing.TB, s PartStore, want dataset.StoredPart) {
	t.Helper()
	ch := listParts(t, s)
	i := slices.IndexFunc(ch.Parts, func(p dataset.StoredPart) bool { return p.PartRef == want.PartRef })
	if i < 0 {
		t.Fatalf("ListParts: got no part %s/%s, want %s", want.Dataset, want.ID, describe(want))
	}
	if got := ch.Parts[i]; !sameMeta(got, want) {
		t.Fatalf("ListParts:\ngot  %s\nwant %s", describe(got), describe(want))
	}
	got, err := s.ReadPart(t.Context(), want.PartRef, want.Version)
	noErr(t, "ReadPart", err)
	if !sameMeta(got, want) || !bytes.Equal(got.Data, want.Data) {
		t.Fatalf("ReadPart:\ngot  %s, bytes %q\nwant %s, bytes %q", describe(got), got.Data, describe(want), want.Data)
	}
	l, ok := s.(dataset.PartLender)
	if !ok {
		return
	}
	err = l.LendPart(t.Context(), want.PartRef, want.Version, func(got dataset.StoredPart) error {
		if !sameMeta(got, want) || !bytes.Equal(got.Data, want.Data) {
			return fmt.Errorf("got %s, bytes %q; want %s, bytes %q", describe(got), got.Data, describe(want), want.Data)
		}
		return nil
	})
	noErr(t, "LendPart", err)
}

// importEvents returns every import s lists.
func importEvents(t testing.TB, s dataset.EventSource) []dataset.ImportEvent {
	t.Helper()
	es, err := s.ImportEvents(t.Context(), 0, time.Time{}, 1000)
	noErr(t, "ImportEvents", err)
	return es
}

// fillState is everything a fill may change, and what it must not.
type fillState struct {
	state
	listed dataset.Changes
	events []dataset.ImportEvent
}

func readFillState(t testing.TB, s FillStore) fillState {
	t.Helper()
	return fillState{state: readState(t, s), listed: listParts(t, s), events: importEvents(t, s)}
}

// wantSameFillState fails the test unless nothing changed between before
// and after.
func wantSameFillState(t testing.TB, after, before fillState) {
	t.Helper()
	wantSameState(t, after.state, before.state)
	if !after.listed.Updated.Equal(before.listed.Updated) {
		t.Fatalf("ListParts: got updated %v, want %v as before", after.listed.Updated, before.listed.Updated)
	}
	if !slices.EqualFunc(after.listed.Parts, before.listed.Parts, sameMeta) {
		t.Fatalf("ListParts: got parts %v, want %v as before", refsOf(after.listed.Parts), refsOf(before.listed.Parts))
	}
	wantNoNewEvents(t, after.events, before.events)
}

func wantNoNewEvents(t testing.TB, after, before []dataset.ImportEvent) {
	t.Helper()
	if len(after) != len(before) {
		t.Fatalf("ImportEvents: got %d imports, want %d as before: a fill is no import", len(after), len(before))
	}
}

// importedJanuary returns a store opened with open whose clock reads
// *clock, into which an import at that time wrote January 2024 of sensor
// a.
func importedJanuary(t *testing.T, open func(t *testing.T, now func() time.Time) FillStore) (clock *time.Time, s FillStore) {
	t.Helper()
	now := at(t, "2024-06-01T10:00:00Z")
	s = open(t, func() time.Time { return now })
	c, d := sensorCatalog(t)
	_, err := dataset.Import(t.Context(), s, c, d, readings(2024, time.January, "a", 1), now)
	noErr(t, "Import", err)
	return &now, s
}

// fill fills parts into s with floor and asserts that it wrote want of
// them, for the reason why gives.
func fill(t *testing.T, s FillStore, floor int64, want int, why string, parts ...dataset.StoredPart) {
	t.Helper()
	n, err := s.FillParts(t.Context(), floor, parts)
	noErr(t, "FillParts", err)
	if n != want {
		t.Fatalf("FillParts: got %d parts written, want %d%s", n, want, why)
	}
}

// testFillAsGiven fills parts into a store that an import wrote to, and
// reads them back as given. The data version is raised to the floor only
// if it is below; a fill records no import.
func testFillAsGiven(t *testing.T, open func(t *testing.T, now func() time.Time) FillStore) {
	ctx := t.Context()
	clock, s := importedJanuary(t, open)
	imported := listParts(t, s).Parts
	if len(imported) != 1 {
		t.Fatalf("after the import: got parts %v, want one", refsOf(imported))
	}
	jan, err := s.ReadPart(ctx, imported[0].PartRef, imported[0].Version)
	noErr(t, "ReadPart", err)
	enc := encodedParts(t, slices.Concat(readings(2024, time.February, "a", 2), readings(2024, time.March, "b", 3),
		readings(2024, time.April, "c", 4)))
	feb := filling(enc[0], 3, at(t, "2024-03-01T00:00:00.000123Z"))
	mar := filling(enc[1], 4, at(t, "2024-04-01T00:00:00Z"))
	apr := filling(enc[2], 2, at(t, "2024-05-01T00:00:00Z"))
	// Bytes the store cannot read are stored all the same; a part without
	// records has no span.
	empty := dataset.StoredPart{PartRef: dataset.PartRef{Dataset: sensorName, ID: "2023-01"}, Version: 1,
		Written: at(t, "2024-02-01T12:00:00.5Z"), Data: []byte{0, 1, 2, 0xff}}
	other := dataset.StoredPart{PartRef: dataset.PartRef{Dataset: "fill-other", ID: "x"}, Version: 2,
		Written: at(t, "2024-02-02T12:00:00Z"), Records: 7, First: 100, Last: 200, Data: []byte("seven records")}
	steps := []struct {
		name    string
		floor   int64
		parts   []dataset.StoredPart
		n       int   // parts written
		version int64 // the data version after
	}{
		{"below floor", 4, []dataset.StoredPart{feb, empty, other}, 3, 4},
		{"at floor", 4, []dataset.StoredPart{mar}, 1, 4},
		{"above floor", 2, []dataset.StoredPart{apr}, 1, 4},
		{"no parts below floor", 6, nil, 0, 6},
		{"no parts above floor", 5, nil, 0, 6},
	}
	var filled []dataset.StoredPart
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			*clock = clock.Add(time.Hour)
			before := readFillState(t, s)
			n, err := s.FillParts(ctx, step.floor, step.parts)
			noErr(t, "FillParts", err)
			if n != step.n {
				t.Fatalf("FillParts: got %d parts written, want %d", n, step.n)
			}
			after := listParts(t, s)
			if after.Version != step.version {
				t.Fatalf("ListParts: got version %d, want %d", after.Version, step.version)
			}
			if v := dataVersion(t, s); v != step.version {
				t.Fatalf("DataVersion: got %d, want %d", v, step.version)
			}
			switch raised := step.version != before.listed.Version; {
			case raised && (after.Updated.IsZero() || after.Updated.Before(before.listed.Updated)):
				t.Fatalf("Updated: got %v after the version was raised, want a time not before %v", after.Updated, before.listed.Updated)
			case !raised && !after.Updated.Equal(before.listed.Updated):
				t.Fatalf("Updated: got %v, want %v as before", after.Updated, before.listed.Updated)
			}
			filled = append(filled, step.parts...)
			if len(after.Parts) != 1+len(filled) {
				t.Fatalf("ListParts: got parts %v, want the imported one and %v", refsOf(after.Parts), refsOf(filled))
			}
			for _, sp := range append([]dataset.StoredPart{jan}, filled...) {
				wantStored(t, s, sp)
			}
			wantNoNewEvents(t, importEvents(t, s), before.events)
			if totals := readState(t, s).totals; !slices.EqualFunc(totals, before.totals, func(a, b energy.ImportTotal) bool {
				return a.Dataset == b.Dataset && a.Runs == b.Runs && a.Rows == b.Rows && a.Last.Equal(b.Last)
			}) {
				t.Fatalf("ImportTotals: got %+v, want %+v as before", totals, before.totals)
			}
		})
	}
}

// testFillHeldStays fills a part an import wrote, and one it did not: the
// import's stays as it was, with no history, and only the other counts.
func testFillHeldStays(t *testing.T, open func(t *testing.T, now func() time.Time) FillStore) {
	ctx := t.Context()
	clock, s := importedJanuary(t, open)
	ref := dataset.PartRef{Dataset: sensorName, ID: "2024-01"}
	held, err := s.ReadPart(ctx, ref, 1)
	noErr(t, "ReadPart", err)
	events := importEvents(t, s)

	*clock = clock.Add(time.Hour)
	enc := encodedParts(t, slices.Concat(readings(2024, time.January, "b", 9), readings(2024, time.February, "b", 9)))
	janFill := filling(enc[0], 2, at(t, "2024-02-01T00:00:00Z"))
	febFill := filling(enc[1], 3, at(t, "2024-03-01T00:00:00Z"))
	fill(t, s, 3, 1, " (January is held)", janFill, febFill)
	wantStored(t, s, held)
	wantStored(t, s, febFill)
	if v := dataVersion(t, s); v != 3 {
		t.Fatalf("DataVersion: got %d, want 3", v)
	}
	if _, err := s.ReadPart(ctx, ref, janFill.Version); energy.ErrorCode(err) != energy.NotFound {
		t.Fatalf("ReadPart of the version of January not filled: got error %v, want code %q", err, energy.NotFound)
	}
	if _, err := s.ReadPartVersion(ctx, ref, held.Version); energy.ErrorCode(err) != energy.NotFound {
		t.Fatalf("ReadPartVersion of the held January: got error %v, want code %q: nothing replaced it", err, energy.NotFound)
	}
	for _, when := range []time.Time{janFill.Written, held.Written, *clock} {
		if sp, ok, err := s.PartVersionAt(ctx, ref, when); err != nil || ok {
			t.Fatalf("PartVersionAt %v: got %s, %v, %v; want none: nothing replaced January", when, describe(sp), ok, err)
		}
	}
	wantNoNewEvents(t, importEvents(t, s), events)
}

// testFillImportAfter fills parts with a floor above the data version,
// then imports into one of them: the import's version is above the
// floor, its merge reads the filled part, and the filled part is kept in
// the history with the time it was written.
func testFillImportAfter(t *testing.T, open func(t *testing.T, now func() time.Time) FillStore) {
	ctx := t.Context()
	clock := at(t, "2024-06-01T10:00:00Z")
	s := open(t, func() time.Time { return clock })
	c, d := sensorCatalog(t)
	enc := encodedParts(t, slices.Concat(readings(2024, time.January, "a", 1), readings(2024, time.February, "a", 1)))
	jan := filling(enc[0], 5, at(t, "2024-04-01T00:00:00Z"))
	feb := filling(enc[1], 3, at(t, "2024-03-01T00:00:00Z"))
	fill(t, s, 7, 2, "", jan, feb)
	if v := dataVersion(t, s); v != 7 {
		t.Fatalf("DataVersion after the fill: got %d, want the floor 7", v)
	}

	clock = at(t, "2024-07-01T10:00:00Z")
	st, err := dataset.Import(ctx, s, c, d, readings(2024, time.January, "a", 2), clock)
	noErr(t, "Import", err)
	if want := (energy.ImportStats{Read: 744, Updated: 744}); st != want {
		t.Fatalf("Import into the filled January: got %+v, want %+v", st, want)
	}
	if v := dataVersion(t, s); v != 8 {
		t.Fatalf("DataVersion after the import: got %d, want 8, above the floor", v)
	}
	ch := listParts(t, s)
	if len(ch.Parts) != 2 || ch.Parts[0].Version != 8 || !ch.Parts[0].Written.Equal(clock) {
		t.Fatalf("ListParts after the import: got %v, want January at version 8 written %v, and February", refsOf(ch.Parts), clock)
	}
	wantStored(t, s, feb)

	ref := jan.PartRef
	sp, ok, err := s.PartVersionAt(ctx, ref, at(t, "2024-05-01T00:00:00Z"))
	noErr(t, "PartVersionAt", err)
	if !ok || sp.Version != jan.Version || !sp.Written.Equal(jan.Written) || sp.Records != jan.Records {
		t.Fatalf("PartVersionAt between the fill and the import: got %s, %v; want %s", describe(sp), ok, describe(jan))
	}
	if sp, ok, err := s.PartVersionAt(ctx, ref, at(t, "2024-03-15T00:00:00Z")); err != nil || ok {
		t.Fatalf("PartVersionAt before the filled part was written: got %s, %v, %v; want none", describe(sp), ok, err)
	}
	old, err := s.ReadPartVersion(ctx, ref, jan.Version)
	noErr(t, "ReadPartVersion", err)
	if old.Version != jan.Version || !old.Written.Equal(jan.Written) || old.Records != jan.Records || !bytes.Equal(old.Data, jan.Data) {
		t.Fatalf("ReadPartVersion: got %s, want %s with its bytes", describe(old), describe(jan))
	}
	old, err = s.ReadPart(ctx, ref, jan.Version)
	noErr(t, "ReadPart of the replaced version", err)
	if !bytes.Equal(old.Data, jan.Data) {
		t.Fatalf("ReadPart of the replaced version: got other bytes than were filled")
	}
	es := importEvents(t, s)
	if len(es) != 1 || es[0].Version != 8 {
		t.Fatalf("ImportEvents: got %+v, want the one import, at version 8", es)
	}
}

// testFillOnce fills the same parts again, and parts some of which are
// held: only those the store does not hold are written.
func testFillOnce(t *testing.T, open func(t *testing.T, now func() time.Time) FillStore) {
	ctx := t.Context()
	clock := at(t, "2024-06-01T10:00:00Z")
	s := open(t, func() time.Time { return clock })
	enc := encodedParts(t, slices.Concat(readings(2024, time.January, "a", 1), readings(2024, time.February, "a", 2),
		readings(2024, time.March, "a", 3), readings(2024, time.April, "a", 4)))
	written := at(t, "2024-05-01T00:00:00Z")
	parts := []dataset.StoredPart{filling(enc[0], 1, written), filling(enc[1], 2, written), filling(enc[2], 2, written)}
	n, err := s.FillParts(ctx, 2, parts)
	noErr(t, "FillParts", err)
	if n != 3 {
		t.Fatalf("first FillParts: got %d parts written, want 3", n)
	}
	first := readFillState(t, s)

	clock = clock.Add(time.Hour)
	again := slices.Clone(parts)
	for i := range again {
		again[i].Written = again[i].Written.Add(time.Minute) // what differs must not be written
	}
	n, err = s.FillParts(ctx, 2, again)
	noErr(t, "FillParts again", err)
	if n != 0 {
		t.Fatalf("FillParts again: got %d parts written, want 0", n)
	}
	wantSameFillState(t, readFillState(t, s), first)

	apr := filling(enc[3], 1, written)
	n, err = s.FillParts(ctx, 2, []dataset.StoredPart{again[2], apr})
	noErr(t, "FillParts of March and April", err)
	if n != 1 {
		t.Fatalf("FillParts of March and April: got %d parts written, want 1", n)
	}
	for _, sp := range append(parts, apr) {
		wantStored(t, s, sp)
	}
	if got := listParts(t, s); len(got.Parts) != 4 || got.Version != 2 {
		t.Fatalf("ListParts: got %v at version %d, want four parts at version 2", refsOf(got.Parts), got.Version)
	}
}

// fillsTakeTurns has each of stores (the same store several times, or
// stores of one database) fill the same parts at once, in rounds: every
// fill succeeds, and each part is written by one of them.
func fillsTakeTurns(t *testing.T, stores []FillStore) {
	ctx := t.Context()
	const rounds = 3
	for round := range rounds {
		var rows []dataset.Row
		for m := time.January; m <= time.December; m++ {
			rows = append(rows, readings(2030+round, m, "a", float64(round))...)
		}
		enc := encodedParts(t, rows)
		written := at(t, "2024-05-01T00:00:00Z")
		var parts []dataset.StoredPart
		for i, sp := range enc {
			parts = append(parts, filling(sp, int64(i%3+1), written.Add(time.Duration(i)*time.Second)))
		}
		counts := make([]int, len(stores))
		errs := make([]error, len(stores))
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i, s := range stores {
			wg.Go(func() {
				<-start
				counts[i], errs[i] = s.FillParts(ctx, 3, parts)
			})
		}
		close(start)
		wg.Wait()
		total := 0
		for i, err := range errs {
			noErr(t, fmt.Sprintf("round %d: FillParts through store %d", round, i), err)
			total += counts[i]
		}
		if total != len(parts) {
			t.Fatalf("round %d: FillParts wrote %v parts, %d in all; want %d in all", round, counts, total, len(parts))
		}
		year := fmt.Sprint(2030+round, "-")
		var got []dataset.StoredPart
		for _, p := range listParts(t, stores[0]).Parts {
			if strings.HasPrefix(p.ID, year) {
				got = append(got, p)
			}
		}
		if len(got) != len(parts) {
			t.Fatalf("round %d: got parts %v, want %v", round, refsOf(got), refsOf(parts))
		}
		for _, sp := range parts {
			wantStored(t, stores[0], sp)
		}
		if v := dataVersion(t, stores[0]); v != 3 {
			t.Fatalf("round %d: DataVersion: got %d, want 3", round, v)
		}
	}
	if es := importEvents(t, stores[0]); len(es) != 0 {
		t.Fatalf("ImportEvents: got %d imports, want none", len(es))
	}
}

// testFillRefused fills parts that cannot be filled: each fill fails with
// code Invalid and writes nothing, the parts it could have filled
// included, and raises no version.
func testFillRefused(t *testing.T, open func(t *testing.T, now func() time.Time) FillStore) {
	ctx := t.Context()
	clock := at(t, "2024-06-01T10:00:00Z")
	s := open(t, func() time.Time { return clock })
	seed(t, s)
	clock = clock.Add(time.Hour)
	good := filling(encodedParts(t, readings(2025, time.February, "a", 1))[0], 1, at(t, "2024-05-01T00:00:00Z"))
	bad := func(change func(sp *dataset.StoredPart)) dataset.StoredPart {
		sp := dataset.StoredPart{PartRef: dataset.PartRef{Dataset: sensorName, ID: "2025-03"}, Version: 2,
			Written: at(t, "2024-05-01T00:00:00Z"), Records: 1, First: 1, Last: 1, Data: []byte("part")}
		change(&sp)
		return sp
	}
	const floor = 9 // above the data version: a fill that did not roll back would raise it
	cases := []struct {
		name  string
		parts []dataset.StoredPart
	}{
		{"empty data", []dataset.StoredPart{good, bad(func(sp *dataset.StoredPart) { sp.Data = nil })}},
		{"version 0", []dataset.StoredPart{good, bad(func(sp *dataset.StoredPart) { sp.Version = 0 })}},
		{"negative version", []dataset.StoredPart{good, bad(func(sp *dataset.StoredPart) { sp.Version = -1 })}},
		{"version above floor", []dataset.StoredPart{good, bad(func(sp *dataset.StoredPart) { sp.Version = floor + 1 })}},
		{"negative records", []dataset.StoredPart{good, bad(func(sp *dataset.StoredPart) { sp.Records = -1 })}},
		{"ref twice", []dataset.StoredPart{good, bad(func(sp *dataset.StoredPart) { sp.PartRef = good.PartRef })}},
		{"empty dataset name", []dataset.StoredPart{good, bad(func(sp *dataset.StoredPart) { sp.Dataset = "" })}},
		{"empty ID", []dataset.StoredPart{good, bad(func(sp *dataset.StoredPart) { sp.ID = "" })}},
		{"bad part first", []dataset.StoredPart{bad(func(sp *dataset.StoredPart) { sp.Version = 0 }), good}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := readFillState(t, s)
			n, err := s.FillParts(ctx, floor, c.parts)
			wantCode(t, "FillParts", err, energy.Invalid)
			if n != 0 {
				t.Fatalf("FillParts: got %d parts written, want 0 with an error", n)
			}
			wantSameFillState(t, readFillState(t, s), before)
		})
	}
	t.Run("cancelled", func(t *testing.T) {
		before := readFillState(t, s)
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := s.FillParts(cctx, floor, []dataset.StoredPart{good}); err == nil {
			t.Fatalf("FillParts with a cancelled context: got nil error, want one")
		}
		wantSameFillState(t, readFillState(t, s), before)
	})
	// The good part alone fills.
	n, err := s.FillParts(ctx, floor, []dataset.StoredPart{good})
	noErr(t, "FillParts of the good part", err)
	if n != 1 {
		t.Fatalf("FillParts of the good part: got %d parts written, want 1", n)
	}
	wantStored(t, s, good)
}

// testFillDriver runs RunFill against the stores d opens, and the tests
// of filling that need a store's clock, its tables or two stores on one
// database.
func testFillDriver(t *testing.T, d Driver) {
	RunFill(t, func(t *testing.T, now func() time.Time) FillStore { return d.open(t, d.NewDB(t), now) })
	t.Run("Tables", func(t *testing.T) { testFillTables(t, d) })
	t.Run("NotText", func(t *testing.T) { testFillNotText(t, d) })
	t.Run("FailingMidway", func(t *testing.T) { testFillFailingMidway(t, d) })
	t.Run("TwoStores", func(t *testing.T) {
		loc := d.NewDB(t)
		a, b := d.open(t, loc, nil), d.open(t, loc, nil)
		fillsTakeTurns(t, []FillStore{a, b, a, b})
	})
}

// testFillTables checks what a fill writes into the tables: each new part
// with its own version and written time, a NULL span for a part without
// records, no part_history and no import_runs row, and a raised data
// version stamped with the store's clock.
func testFillTables(t *testing.T, d Driver) {
	ctx := t.Context()
	loc := d.NewDB(t)
	imported := time.Date(2025, 1, 1, 0, 0, 0, 1000, time.UTC)
	clock := imported
	s := d.open(t, loc, func() time.Time { return clock })
	db := d.Raw(t, loc)
	_, err := s.UpdateParts(ctx, "test", clock, nil, WritePart("test", "2023"))
	noErr(t, "UpdateParts", err)

	clock = time.Date(2025, 1, 2, 0, 0, 0, 2000, time.UTC)
	ref := func(id string) dataset.PartRef { return dataset.PartRef{Dataset: "test", ID: id} }
	n, err := s.FillParts(ctx, 4, []dataset.StoredPart{
		{PartRef: ref("2025"), Version: 1, Written: time.Date(2024, 12, 1, 0, 0, 0, 5000, time.UTC), Records: 3, First: 10, Last: 20, Data: []byte("three")},
		{PartRef: ref("2023"), Version: 4, Written: time.Date(2024, 12, 2, 0, 0, 0, 0, time.UTC), Records: 2, Data: []byte("held")},
		{PartRef: ref("2024"), Version: 2, Written: time.Date(2024, 12, 3, 0, 0, 0, 0, time.UTC), First: 30, Last: 40, Data: []byte("none")},
	})
	noErr(t, "FillParts", err)
	if n != 2 {
		t.Fatalf("FillParts: got %d parts written, want 2", n)
	}
	clock = time.Date(2025, 1, 3, 0, 0, 0, 3000, time.UTC)
	_, err = s.FillParts(ctx, 3, nil) // the version is above: no change
	noErr(t, "FillParts", err)
	cases := []struct {
		query string
		want  []string
	}{
		{`SELECT dataset, id, version, ` + d.Micros("written") + `, records, coalesce(first_time, -1), coalesce(last_time, -1), data
			FROM parts ORDER BY id`,
			[]string{
				"test 2023 1 1735689600000001 1 0 0 part 2023",
				"test 2024 2 1733184000000000 0 -1 -1 none",
				"test 2025 1 1733011200000005 3 10 20 three",
			}},
		{`SELECT count(*) FROM part_history`, []string{"0"}},
		{`SELECT count(*), max(version) FROM import_runs`, []string{"1 1"}},
		{`SELECT version, ` + d.Micros("updated") + ` FROM versions WHERE name = 'data'`, []string{"4 1735776000000002"}},
	}
	for _, c := range cases {
		if got := db.Query(t, c.query); !slices.Equal(got, c.want) {
			t.Errorf("%s:\ngot  %q\nwant %q", c.query, got, c.want)
		}
	}
	ch := listParts(t, s)
	if want := time.Date(2025, 1, 2, 0, 0, 0, 2000, time.UTC); ch.Version != 4 || !ch.Updated.Equal(want) {
		t.Fatalf("ListParts: got version %d updated %v, want 4 updated %v", ch.Version, ch.Updated, want)
	}
}

// testFillNotText fills parts whose names a store does not keep.
func testFillNotText(t *testing.T, d Driver) {
	s := d.open(t, d.NewDB(t), nil)
	seed(t, s)
	good := dataset.StoredPart{PartRef: dataset.PartRef{Dataset: "test", ID: "2025"}, Version: 1, Records: 1, Data: []byte("good")}
	for _, ref := range []dataset.PartRef{{Dataset: "test\x00", ID: "2025"}, {Dataset: "test", ID: "20\xff25"}} {
		t.Run(fmt.Sprintf("%q", ref.Dataset+"/"+ref.ID), func(t *testing.T) {
			before := readFillState(t, s)
			n, err := s.FillParts(t.Context(), 5, []dataset.StoredPart{good, {PartRef: ref, Version: 1, Records: 1, Data: []byte("bad")}})
			wantCode(t, "FillParts", err, energy.Invalid)
			if n != 0 {
				t.Fatalf("FillParts: got %d parts written, want 0 with an error", n)
			}
			wantSameFillState(t, readFillState(t, s), before)
		})
	}
}

// testFillFailingMidway makes the database refuse a part once a fill has
// written another in its transaction: neither is kept, nor is the data
// version raised.
func testFillFailingMidway(t *testing.T, d Driver) {
	loc := d.NewDB(t)
	s := d.open(t, loc, nil)
	ctx := t.Context()
	_, err := s.UpdateParts(ctx, "test", t0(), nil, WritePart("test", "2023"))
	noErr(t, "UpdateParts", err)
	before := readFillState(t, s)
	undo := d.Refuse(t, s, "parts", 2)
	ref := func(id string) dataset.PartRef { return dataset.PartRef{Dataset: "test", ID: id} }
	_, err = s.FillParts(ctx, 5, []dataset.StoredPart{
		{PartRef: ref("2024"), Version: 1, Written: t0(), Records: 1, Data: []byte("one")},
		{PartRef: ref("2025"), Version: 1, Written: t0(), Records: 1, Data: []byte("two")},
	})
	undo()
	if err == nil || !strings.Contains(err.Error(), Refusal) {
		t.Fatalf("FillParts: got error %v, want the database's refusal", err)
	}
	wantSameFillState(t, readFillState(t, s), before)
	if got := d.Raw(t, loc).Query(t, `SELECT count(*) FROM parts`); !slices.Equal(got, []string{"1"}) {
		t.Fatalf("parts: got %q rows, want 1", got)
	}
}
