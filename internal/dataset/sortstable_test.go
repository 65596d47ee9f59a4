package dataset

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortStableAsAStableSort: sortStable orders rows as a stable sort by
// Layout.compare does, rows that compare equal kept in the order they
// came, over two order fields (the second sorted first) whose values
// include a prefix of another and bytes above ASCII, in any order or in
// two runs each in order; it never reorders its argument, and returns
// rows already in order as they are.
func TestSortStableAsAStableSort(t *testing.T) {
	t.Parallel()
	l := &Layout{NText: 3, NNum: 1, order: []int{2, 0}}
	values := []string{"", "A", "AB", "B", "Nord", "Sud", "Été", "a"}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 50 {
		rows := make([]Row, 1+rng.IntN(400))
		for i := range rows {
			rows[i] = Row{
				Time: int64(rng.IntN(6)) * 900,
				Text: []string{values[rng.IntN(len(values))], "x", values[rng.IntN(3+round%5)]},
				Num:  []float64{float64(i)}, // which row it was: ties must keep their order
			}
		}
		if round%2 == 1 { // two runs in order, as a stored part and an import's rows
			half := len(rows) / 2
			slices.SortStableFunc(rows[:half], l.compare)
			slices.SortStableFunc(rows[half:], l.compare)
		}
		before := slices.Clone(rows)
		want := slices.Clone(rows)
		slices.SortStableFunc(want, l.compare)
		got := sortStable(l, rows)
		if !slices.EqualFunc(got, want, sameRow) {
			t.Fatalf("round %d: sortStable differs from a stable sort", round)
		}
		if !slices.EqualFunc(rows, before, sameRow) {
			t.Fatalf("round %d: sortStable reordered its argument", round)
		}
		if again := sortStable(l, got); &again[0] != &got[0] {
			t.Fatalf("round %d: rows in order were copied", round)
		}
	}
}

// TestSortStableOfManyOrderFields: when the order fields take too many
// values for one rank to order them (eight fields of 850 values each, at
// moments out of order), sortStable compares their text instead, and still
// sorts as a stable sort does.
func TestSortStableOfManyOrderFields(t *testing.T) {
	t.Parallel()
	l := &Layout{NText: 8, NNum: 1, order: []int{7, 6, 5, 4, 3, 2, 1, 0}}
	rng := rand.New(rand.NewPCG(3, 4))
	rows := make([]Row, 1700)
	for i, p := range rng.Perm(len(rows)) {
		text := make([]string, 8)
		for f := range text {
			text[f] = fmt.Sprint(p / 2 * (f + 1)) // two rows of each: ties
		}
		rows[i] = Row{Time: 900 * int64(rng.IntN(3)), Text: text, Num: []float64{float64(i)}}
	}
	if orderRanks(l, rows) != nil || timesInOrder(rows) {
		t.Fatal("the ranks of eight fields of 850 values fit, or the moments are in order: the test does not reach the text compare")
	}
	want := slices.Clone(rows)
	slices.SortStableFunc(want, l.compare)
	if got := sortStable(l, rows); !slices.EqualFunc(got, want, sameRow) {
		t.Error("sortStable differs from a stable sort")
	}
}

// TestSortStableWithinMoments: rows whose moments are in order but whose
// series come in another order at each moment (as generators make them),
// the same order at most moments and another at some, ties included, are
// sorted as a stable sort does.
func TestSortStableWithinMoments(t *testing.T) {
	t.Parallel()
	l := &Layout{NText: 2, NNum: 1, order: []int{1, 0}}
	series := [][]string{{"Sud", "B"}, {"Nord", "B"}, {"Nord", "A"}, {"Centro", "A"}, {"Nord", "B"}}
	rng := rand.New(rand.NewPCG(5, 6))
	var rows []Row
	for moment := range 40 {
		at := series
		if rng.IntN(4) == 0 { // another order at this moment, or fewer series
			at = slices.Clone(series)
			rng.Shuffle(len(at), func(i, j int) { at[i], at[j] = at[j], at[i] })
			at = at[:1+rng.IntN(len(at))]
		}
		for _, s := range at {
			rows = append(rows, Row{Time: int64(moment) * 3600, Text: slices.Clone(s), Num: []float64{float64(len(rows))}})
		}
	}
	if !timesInOrder(rows) {
		t.Fatal("the rows do not reach the sort within moments")
	}
	want := slices.Clone(rows)
	slices.SortStableFunc(want, l.compare)
	if got := sortStable(l, rows); !slices.EqualFunc(got, want, sameRow) {
		t.Error("sortStable differs from a stable sort")
	}
}
