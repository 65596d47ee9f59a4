package storetest

import (
	"bytes"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// testPartListing checks ListParts and ReadPart: the listing carries what a
// server serves from without reading a part (version, written time, record
// count, the moments of the first and last records), and ReadPart returns
// the bytes of the current or of a replaced version.
func testPartListing(t *testing.T, open func(t *testing.T) Store) {
	ctx := t.Context()
	s := open(t)
	c, d := sensorCatalog(t)
	empty, err := s.ListParts(ctx)
	noErr(t, "ListParts of a new store", err)
	if empty.Version != 0 || len(empty.Parts) != 0 {
		t.Fatalf("ListParts of a new store: got version %d, %d parts; want 0, none", empty.Version, len(empty.Parts))
	}
	_, err = importRows(ctx, s, c, d, slices.Concat(readings(2024, time.March, "A", 1), readings(2024, time.April, "B", 2)))
	noErr(t, "first import", err)
	march := dataset.PartRef{Dataset: d.Name, ID: "2024-03"}
	before := readPart(t, s, march, 1)
	_, err = importRows(ctx, s, c, d, []dataset.Row{reading(t, "2024-03-31T21:30:00Z", "C", 3)})
	noErr(t, "second import", err)

	list, err := s.ListParts(ctx)
	noErr(t, "ListParts", err)
	full := changedParts(t, s, nil)
	if list.Version != full.Version || !list.Updated.Equal(full.Updated) || len(list.Parts) != len(full.Parts) {
		t.Fatalf("ListParts: got version %d, updated %v, %d parts; want %d, %v, %d", list.Version, list.Updated, len(list.Parts),
			full.Version, full.Updated, len(full.Parts))
	}
	lay := c.Layout(d)
	for i, sp := range list.Parts {
		want := full.Parts[i]
		p, err := dataset.DecodePart(lay, want)
		noErr(t, "DecodePart", err)
		first, last := p.Span()
		if sp.PartRef != want.PartRef || sp.Version != want.Version || !sp.Written.Equal(want.Written) ||
			sp.Records != p.Len() || sp.First != first || sp.Last != last || sp.Data != nil {
			t.Errorf("ListParts part %d: got %+v, want %v version %d written %v, %d records from %d to %d, no data",
				i, sp, want.PartRef, want.Version, want.Written, p.Len(), first, last)
		}
		got := readPart(t, s, sp.PartRef, sp.Version)
		if !bytes.Equal(got.Data, want.Data) || got.Records != sp.Records || got.First != first || got.Last != last || !got.Written.Equal(sp.Written) {
			t.Errorf("ReadPart %v version %d: got %d bytes, %+v; want the current part", sp.PartRef, sp.Version, len(got.Data), got.PartRef)
		}
	}
	old := readPart(t, s, march, 1)
	if !bytes.Equal(old.Data, before.Data) || old.Records != before.Records || old.First != before.First || old.Last != before.Last {
		t.Errorf("ReadPart of a replaced version: got %d bytes, %d records, %d..%d; want %d bytes, %d records, %d..%d",
			len(old.Data), old.Records, old.First, old.Last, len(before.Data), before.Records, before.First, before.Last)
	}
	if _, err := s.ReadPart(ctx, march, 7); energy.ErrorCode(err) != energy.NotFound {
		t.Errorf("ReadPart of a version never written: got %v, want NotFound", err)
	}
	if lender, ok := s.(dataset.PartLender); ok {
		testLendPart(t, lender, march, before, readPart(t, s, march, 2))
	}
}

// testLendPart checks that a store lends the bytes ReadPart returns, of
// the current and of a replaced version, and NotFound as ReadPart does.
func testLendPart(t *testing.T, s dataset.PartLender, ref dataset.PartRef, versions ...dataset.StoredPart) {
	for _, want := range versions {
		err := s.LendPart(t.Context(), ref, want.Version, func(got dataset.StoredPart) error {
			if got.PartRef != want.PartRef || got.Version != want.Version || !got.Written.Equal(want.Written) || got.Records != want.Records ||
				got.First != want.First || got.Last != want.Last || !bytes.Equal(got.Data, want.Data) {
				t.Errorf("LendPart %v version %d: got %d bytes, %+v; want what ReadPart returns", ref, want.Version, len(got.Data), got.PartRef)
			}
			return nil
		})
		noErr(t, "LendPart", err)
	}
	called := false
	err := s.LendPart(t.Context(), ref, 7, func(dataset.StoredPart) error { called = true; return nil })
	if energy.ErrorCode(err) != energy.NotFound || called {
		t.Errorf("LendPart of a version never written: got %v (fn called: %v), want NotFound", err, called)
	}
	sentinel := errors.New("fn failed")
	if err := s.LendPart(t.Context(), ref, versions[0].Version, func(dataset.StoredPart) error { return sentinel }); !errors.Is(err, sentinel) {
		t.Errorf("LendPart returned %v, want fn's error", err)
	}
}

func readPart(t *testing.T, s Store, ref dataset.PartRef, version int64) dataset.StoredPart {
	t.Helper()
	sp, err := s.ReadPart(t.Context(), ref, version)
	noErr(t, "ReadPart", err)
	if sp.PartRef != ref || sp.Version != version || len(sp.Data) == 0 {
		t.Fatalf("ReadPart %v version %d: got %v version %d with %d bytes", ref, version, sp.PartRef, sp.Version, len(sp.Data))
	}
	return sp
}

// EncodedPart returns the bytes of a part with a few records of a test
// dataset, and the moments of its first and last, for tests that write
// parts as an older program did (without their spans) and check that a
// migration fills them in.
func EncodedPart(t testing.TB) (data []byte, records int, first, last int64) {
	t.Helper()
	c, d := sensorCatalog(t)
	rows := []dataset.Row{reading(t, "2024-03-10T10:00:00Z", "A", 1), reading(t, "2024-03-12T10:00:00Z", "B", 2)}
	rows[0].Pub, rows[0].Rev, rows[1].Pub, rows[1].Rev = 1, 1, 1, 1
	p := dataset.BuildPart(c.Layout(d), "2024-03", rows)
	b, err := p.Encode()
	noErr(t, "Encode", err)
	return b, p.Len(), rows[0].Time, rows[1].Time
}
