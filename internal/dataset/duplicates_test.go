package dataset

import (
	"context"
	"hash/maphash"
	"math/rand/v2"
	"slices"
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
	if err := checkPart(g, distinct, collide); err != nil {
		t.Errorf("distinct keys sharing a hash: got %v, want none", err)
	}
	if err := checkPart(g, twice, collide); energy.ErrorCode(err) != energy.Invalid {
		t.Errorf("a record twice, keys sharing a hash: got %v, want Invalid", err)
	}
	// Of two keys each given twice, the first repeated in the rows' order is named.
	south, north := row("2024-03-01 12:00", "South", 5), row("2024-03-01 13:00", "North", 6)
	two := []Row{north, south, south, north}
	seed := maphash.MakeSeed()
	for name, hash := range map[string]func(Row) uint64{"by hash": func(r Row) uint64 { return g.l.keyHash(seed, d.Grain, r) }, "colliding": collide} {
		err := checkPart(g, two, hash)
		if want := d.DescribeKey(south); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want the record %s named", name, err, want)
		}
	}
}

// TestDuplicatesFoundMomentByMoment: rows in time order are checked moment
// by moment, a moment holding the key fields of the one before skipped;
// over random hourly and daily series (several hours of a day are one
// daily moment), whose moments mostly repeat the series before, sometimes
// in another order, with fewer, or with one twice (as many or one more),
// the check finds a repeated key exactly when the check of every row's
// hash does, and names the same record.
func TestDuplicatesFoundMomentByMoment(t *testing.T) {
	t.Parallel()
	hourly, daily, c := hourlyAndDaily(t)
	seed := maphash.MakeSeed()
	rng := rand.New(rand.NewPCG(9, 10))
	zones := []string{"North", "South", "Sicily", "Centre-North"}
	found := 0
	for round := range 400 {
		g := &importGroup{d: hourly, l: c.Layout(hourly)}
		if round%2 == 1 {
			g.d = daily
		}
		var rows []Row
		series := zones[:2+rng.IntN(3)]
		for hour := range 30 {
			at := zones
			switch rng.IntN(80) {
			case 0: // another order
				at = slices.Clone(series)
				rng.Shuffle(len(at), func(i, j int) { at[i], at[j] = at[j], at[i] })
			case 1: // a series twice
				at = append(slices.Clone(series), series[rng.IntN(len(series))])
			case 2: // one fewer
				at = series[1:]
			case 3: // as many, one of them twice
				at = slices.Clone(series)
				at[0] = series[1]
			default:
				at = series
			}
			for _, z := range at {
				rows = append(rows, Row{Time: rome("2024-03-01 00:00") + int64(hour)*3600, Text: []string{z}, Num: []float64{float64(len(rows)), 0}})
			}
		}
		hash := func(r Row) uint64 { return g.l.keyHash(seed, g.d.Grain, r) }
		got := checkPart(g, rows, hash)
		want := checkHashes(g, rows, map[uint64]int{}, hash)
		if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
			t.Fatalf("round %d (grain %d): moment by moment %v, by every hash %v", round, g.d.Grain, got, want)
		}
		if got != nil && g.d == hourly {
			found++
		}
	}
	if found < 20 || found > 180 {
		t.Fatalf("%d of 200 hourly rounds held a key twice: the rounds do not test both answers", found)
	}
}

// hourlyAndDaily returns the test series, hourly, the same daily, and a
// catalogue of the hourly one: the two share a layout.
func hourlyAndDaily(t *testing.T) (hourly, daily *Dataset, c *Catalog) {
	hourly, daily = testSeries(), testSeries()
	daily.Grain = Day
	return hourly, daily, newTestCatalog(t, hourly)
}
