package dataset

import (
	"context"
	"hash/maphash"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// TestImportRefusesARecordTwice: an import holding two records of one
// natural key is refused with an Invalid error naming the record, and one
// of distinct keys is not, whether the keys' hashes differ or (forced
// here) all collide: two records sharing a hash are compared by their keys.
func TestImportRefusesARecordTwice(t *testing.T) {
	t.Parallel()
	d := testSeries()
	c := newTestCatalog(t, d)
	row := func(at, zone string, mw float64) Row {
		return Row{Time: rome(at), Text: []string{zone}, Num: []float64{mw, 0}}
	}
	distinct := []Row{row("2024-03-01 10:00", "North", 1), row("2024-03-01 10:00", "South", 2), row("2024-03-01 11:00", "North", 3)}
	twice := append(distinct[:3:3], row("2024-03-01 11:00", "North", 4))

	_, err := Import(context.Background(), NewMemory(), c, d, twice, time.Unix(1, 0))
	if energy.ErrorCode(err) != energy.Invalid || !strings.Contains(energy.ErrorMessage(err), "appears twice") {
		t.Errorf("a record twice: got %v, want Invalid, appears twice", err)
	}
	if _, err := Import(context.Background(), NewMemory(), c, d, distinct, time.Unix(1, 0)); err != nil {
		t.Errorf("distinct records: %v", err)
	}

	g := &importGroup{d: d, l: c.Layout(d)}
	collide := func(Row) uint64 { return 7 }
	if err := checkPart(g, distinct, map[uint64]int{}, collide); err != nil {
		t.Errorf("distinct keys sharing a hash: got %v, want none", err)
	}
	if err := checkPart(g, twice, map[uint64]int{}, collide); energy.ErrorCode(err) != energy.Invalid {
		t.Errorf("a record twice, keys sharing a hash: got %v, want Invalid", err)
	}
	// Of two keys each given twice, the first repeated in the rows' order is named.
	south, north := row("2024-03-01 12:00", "South", 5), row("2024-03-01 13:00", "North", 6)
	two := []Row{north, south, south, north}
	seed := maphash.MakeSeed()
	for name, hash := range map[string]func(Row) uint64{"by hash": func(r Row) uint64 { return g.l.keyHash(seed, d.Grain, r) }, "colliding": collide} {
		err := checkPart(g, two, map[uint64]int{}, hash)
		if want := d.DescribeKey(south); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want the record %s named", name, err, want)
		}
	}
}
