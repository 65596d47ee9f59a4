package dataset

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// TestPartIDsAsPartID: partIDs names every moment's part as PartID does,
// asked in time order and out of it, of every grain, at the first and
// last seconds of months and years in Rome (a month's first hour is still
// the month before in UTC) and across both daylight-saving changes, and
// for years a part ID holds no span of.
func TestPartIDsAsPartID(t *testing.T) {
	t.Parallel()
	var moments []int64
	for y := 2019; y <= 2025; y++ {
		for m := time.January; m <= time.December; m++ {
			s := time.Date(y, m, 1, 0, 0, 0, 0, energy.Rome()).Unix()
			moments = append(moments, s-1, s, s+1, s+3600)
		}
	}
	for _, at := range []time.Time{time.Date(2024, 3, 31, 1, 0, 0, 0, time.UTC), time.Date(2024, 10, 27, 0, 0, 0, 0, time.UTC)} {
		for q := range 16 {
			moments = append(moments, at.Unix()+int64(q)*900)
		}
	}
	moments = append(moments, time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC).Unix(), time.Date(10000, 3, 1, 0, 0, 0, 0, time.UTC).Unix())
	slices.Sort(moments)
	shuffled := slices.Clone(moments)
	rand.New(rand.NewPCG(7, 8)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for g := QuarterHour; g <= Year; g++ {
		for _, order := range [][]int64{moments, shuffled} {
			ids := partIDs{grain: g}
			for _, m := range order {
				if got, want := ids.of(m), PartID(g, m); got != want {
					t.Fatalf("grain %d, %s: partIDs %q, PartID %q", g, time.Unix(m, 0).In(energy.Rome()), got, want)
				}
			}
		}
	}
}
