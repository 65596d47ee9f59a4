package dataset

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/energyapi/energyapi/internal/energy"
)

// TestMergeAsUpsertByKey: Merge upserts rows into a stored part by natural
// key (the moment's bucket and the key fields) whatever the rows' span:
// before, inside, across or after the stored records, of an hourly and a
// daily dataset (whose key holds the day, so another hour of a stored day
// replaces its record). Against a model, a map by key: the records, their
// publication and revision times, and the counts.
func TestMergeAsUpsertByKey(t *testing.T) {
	t.Parallel()
	hourly := testSeries()
	daily := testSeries()
	daily.Grain = Day
	c := newTestCatalog(t, hourly)
	l := c.layoutOf(hourly)
	rng := rand.New(rand.NewPCG(11, 12))
	zones := []string{"North", "South", "Sicily"}
	type stamped struct {
		Row
		pub, rev int64
	}
	// random returns distinct keys' rows, at hours of the days lo to hi of March 2024.
	random := func(g Grain, lo, hi, n int) []Row {
		seen := map[string]bool{}
		var rows []Row
		for range n {
			r := Row{Time: rome(fmt.Sprintf("2024-03-%02d %02d:00", lo+rng.IntN(hi-lo+1), rng.IntN(24))), Text: []string{zones[rng.IntN(len(zones))]}, Num: []float64{float64(rng.IntN(3)), 0}}
			if k := l.keyOf(g, r); !seen[k] {
				seen[k] = true
				rows = append(rows, r)
			}
		}
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		return rows
	}
	for round := range 200 {
		g := []Grain{Hour, Day}[round%2]
		old, _, _, err := Merge(l, g, "2024-03", nil, random(g, 10, 20, 60), 1000)
		if err != nil {
			t.Fatal(err)
		}
		lo := 1 + rng.IntN(28)
		rows := random(g, lo, min(31, lo+rng.IntN(8)), 1+rng.IntN(40))

		model := map[string]stamped{}
		for i := range old.Len() {
			r := old.Row(i)
			model[l.keyOf(g, r)] = stamped{r, old.Published(i), old.Revised(i)}
		}
		var want energy.ImportStats
		want.Read = len(rows)
		for _, r := range rows {
			k := l.keyOf(g, r)
			s, ok := model[k]
			switch {
			case !ok:
				want.Inserted++
				model[k] = stamped{r, 2000, 2000}
			case sameRow(s.Row, r):
				want.Unchanged++
			default:
				want.Updated++
				model[k] = stamped{r, s.pub, 2000}
			}
		}
		p, st, changed, err := Merge(l, g, "2024-03", old, rows, 2000)
		if err != nil || st != want || changed != (want.Inserted+want.Updated > 0) {
			t.Fatalf("round %d: got %+v changed %v err %v, want %+v", round, st, changed, err, want)
		}
		if !changed {
			p = old
		}
		wantRows := slices.Collect(func(yield func(stamped) bool) {
			for _, s := range model {
				if !yield(s) {
					return
				}
			}
		})
		slices.SortFunc(wantRows, func(a, b stamped) int { return cmp.Or(l.compare(a.Row, b.Row), cmp.Compare(a.Num[0], b.Num[0])) })
		if p.Len() != len(wantRows) {
			t.Fatalf("round %d: %d records, want %d", round, p.Len(), len(wantRows))
		}
		if _, st, changed, err := Merge(l, g, "2024-03", p, nil, 3000); changed || err != nil || st != (energy.ImportStats{}) {
			t.Fatalf("round %d, no rows: got %+v changed %v err %v, want nothing", round, st, changed, err)
		}
		for i, w := range wantRows {
			if got := (stamped{p.Row(i), p.Published(i), p.Revised(i)}); !sameRow(got.Row, w.Row) || got.pub != w.pub || got.rev != w.rev {
				t.Fatalf("round %d, record %d: got %+v, want %+v", round, i, got, w)
			}
		}
	}
}
