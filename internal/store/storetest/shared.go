package storetest

import (
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// RunShared runs the tests of two stores open on one database at once, as a
// server and a command-line import, or two replicas, would have it. open
// must return two stores over one new, empty database, each as its own
// process would open it, and close them when the test ends.
func RunShared(t *testing.T, open func(t *testing.T) (Store, Store)) {
	t.Run("ImportsTakeTurns", func(t *testing.T) { testImportsTakeTurns(t, open) })
	t.Run("ServerSecretAgrees", func(t *testing.T) { testServerSecretAgrees(t, open) })
	t.Run("VersionsSeenAcrossProcesses", func(t *testing.T) { testVersionsSeen(t, open) })
	t.Run("PartImportsTakeTurns", func(t *testing.T) {
		a, b := open(t)
		partImportsTakeTurns(t, []Store{a, b, a, b})
	})
}

// testImportsTakeTurns has both stores import overlapping Italy load for the
// same two days, so that each import's counts and derived days depend on
// whether it saw the other's rows: exact only if the imports take turns.
func testImportsTakeTurns(t *testing.T, open func(t *testing.T) (Store, Store)) {
	a, b := open(t)
	const batches = 5
	first := time.Date(2024, 3, 1, 0, 0, 0, 0, energy.Rome()) // two 24-hour days
	var wg sync.WaitGroup
	stats := make([][]energy.ImportStats, 2)
	for i, s := range []Store{a, b} {
		wg.Go(func() {
			for j := range batches {
				var pts []energy.LoadPoint
				for k := range 192 {
					pts = append(pts, energy.LoadPoint{At: first.Add(time.Duration(k) * 15 * time.Minute),
						Zone: energy.Italy, TotalMW: float64(1000*i + j), ForecastMW: math.NaN()})
				}
				st, err := s.ImportTotalLoad(t.Context(), pts)
				if err != nil {
					t.Errorf("store %d batch %d: %v", i, j, err)
					return
				}
				stats[i] = append(stats[i], st)
			}
		})
	}
	wg.Wait()
	var inserted, updated int
	for _, ss := range stats {
		for _, st := range ss {
			inserted += st.Inserted
			updated += st.Updated
		}
	}
	// The first import inserts the 192 points; each of the other nine
	// changes every value, since no two batches share one.
	if inserted != 192 || updated != 9*192 {
		t.Fatalf("over all imports: got %d inserted and %d updated, want 192 and %d", inserted, updated, 9*192)
	}
	da, db := readData(t, a), readData(t, b)
	if da.Version != 2*batches || db.Version != da.Version {
		t.Fatalf("versions: got %d and %d, want %d in both", da.Version, db.Version, 2*batches)
	}
	// Whichever import committed last, its value is every point's, and the
	// derived days agree with it.
	if len(da.PeakValley) != 2 || da.PeakValley[0].Peak.GW != da.PeakValley[0].Valley.GW ||
		da.PeakValley[1].Peak.GW != da.PeakValley[0].Peak.GW {
		t.Fatalf("derived days: got %+v, want two days each of one value", da.PeakValley)
	}
}

func testServerSecretAgrees(t *testing.T, open func(t *testing.T) (Store, Store)) {
	a, b := open(t)
	var got [2][]byte
	var errs [2]error
	var wg sync.WaitGroup
	for i, s := range []Store{a, b} {
		wg.Go(func() {
			got[i], errs[i] = s.ServerSecret(t.Context(), "hash-key", func() ([]byte, error) {
				return []byte(fmt.Sprint("from store ", i)), nil
			})
		})
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("ServerSecret: got errors %v, %v", errs[0], errs[1])
	}
	if string(got[0]) != string(got[1]) {
		t.Fatalf("ServerSecret: store 0 got %q, store 1 got %q, want one value", got[0], got[1])
	}
}

// testVersionsSeen checks that a change through one store moves the version
// that the other polls.
func testVersionsSeen(t *testing.T, open func(t *testing.T) (Store, Store)) {
	a, b := open(t)
	before, err := b.ClientsVersion(t.Context())
	noErr(t, "ClientsVersion", err)
	noErr(t, "CreateClient", a.CreateClient(t.Context(), newClient("shared", t0())))
	after, err := b.ClientsVersion(t.Context())
	noErr(t, "ClientsVersion", err)
	if after == before {
		t.Fatalf("ClientsVersion in the other store: got %d before and after, want a change", after)
	}

	dBefore := dataVersion(t, b)
	_, err = a.ImportPeakValley(t.Context(), []energy.DayExtremes{{
		Day:    day(t, 2024, 5, 1),
		Peak:   energy.Extreme{At: at(t, "2024-05-01T12:00:00+02:00"), GW: 30},
		Valley: energy.Extreme{At: at(t, "2024-05-01T04:00:00+02:00"), GW: 18},
	}})
	noErr(t, "ImportPeakValley", err)
	if dAfter := dataVersion(t, b); dAfter == dBefore {
		t.Fatalf("DataVersion in the other store: got %d before and after, want a change", dAfter)
	}
}
