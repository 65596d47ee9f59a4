package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

func testImportTotals(t *testing.T, open func(t *testing.T) Store) {
	s := open(t)
	type total struct {
		Dataset    string
		Runs, Rows int64
	}
	pv := func(d energy.Date) energy.DayExtremes {
		return energy.DayExtremes{Day: d,
			Peak:   energy.Extreme{At: d.Start().Add(12 * time.Hour), GW: 40},
			Valley: energy.Extreme{At: d.Start().Add(4 * time.Hour), GW: 20}}
	}
	steps := []struct {
		name    string
		do      func() error
		dataset string // whose Last may move
		want    []total
	}{
		{"thermoelectric", func() error {
			_, err := s.ImportThermoelectric(t.Context(), manyThermo(2023, 3, 1))
			return err
		}, "thermoelectric", []total{{"thermoelectric", 1, 3}}},
		{"thermoelectric unchanged", func() error {
			_, err := s.ImportThermoelectric(t.Context(), manyThermo(2023, 3, 1))
			return err
		}, "thermoelectric", []total{{"thermoelectric", 2, 6}}},
		{"thermoelectric refused", func() error {
			recs := manyThermo(2023, 3, 1)
			recs[2].ProductionGWh = nan()
			return failsWith(energy.Invalid, func() error { _, err := s.ImportThermoelectric(t.Context(), recs); return err }())
		}, "", []total{{"thermoelectric", 2, 6}}},
		{"total load", func() error {
			_, err := s.ImportTotalLoad(t.Context(), italyDays(day(t, 2024, 1, 1), 1, 1)[:5])
			return err
		}, "total-load", []total{{"thermoelectric", 2, 6}, {"total-load", 1, 5}}},
		{"peak valley empty", func() error {
			_, err := s.ImportPeakValley(t.Context(), nil)
			return err
		}, "peak-valley", []total{{"peak-valley", 1, 0}, {"thermoelectric", 2, 6}, {"total-load", 1, 5}}},
		{"peak valley", func() error {
			_, err := s.ImportPeakValley(t.Context(), []energy.DayExtremes{pv(day(t, 2024, 1, 1)), pv(day(t, 2024, 1, 2))})
			return err
		}, "peak-valley", []total{{"peak-valley", 2, 2}, {"thermoelectric", 2, 6}, {"total-load", 1, 5}}},
	}

	got, err := s.ImportTotals(t.Context())
	noErr(t, "ImportTotals", err)
	if len(got) != 0 {
		t.Fatalf("ImportTotals of a new store: got %+v, want none", got)
	}
	prev := map[string]energy.ImportTotal{}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			noErr(t, step.name, step.do())
			totals, err := s.ImportTotals(t.Context())
			noErr(t, "ImportTotals", err)
			var gotTotals []total
			for _, x := range totals {
				gotTotals = append(gotTotals, total{x.Dataset, x.Runs, x.Rows})
			}
			if fmt.Sprint(gotTotals) != fmt.Sprint(step.want) {
				t.Fatalf("ImportTotals: got %+v, want %+v", gotTotals, step.want)
			}
			for _, x := range totals {
				p, seen := prev[x.Dataset]
				switch {
				case x.Last.IsZero():
					t.Fatalf("%s: Last is zero, want the time of the last run", x.Dataset)
				case seen && x.Dataset != step.dataset && !x.Last.Equal(p.Last):
					t.Fatalf("%s: Last moved from %v to %v without a run", x.Dataset, p.Last, x.Last)
				case seen && x.Last.Before(p.Last):
					t.Fatalf("%s: Last went back from %v to %v", x.Dataset, p.Last, x.Last)
				}
				prev[x.Dataset] = x
			}
		})
	}
}

// testConsistentSnapshot reads while imports commit. Every batch the importer
// writes keeps invariants that half an import, or tables read from different
// moments, would break: batch i sets every thermoelectric record to i, then
// Italy's load over two days (across the spring DST change) to i GW.
func testConsistentSnapshot(t *testing.T, open func(t *testing.T) Store) {
	s := open(t)
	const (
		batches = 15
		records = 300
		readers = 3
	)
	first := day(t, 2024, 3, 30)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(done)
		for i := 1; i <= batches; i++ {
			if _, err := s.ImportThermoelectric(t.Context(), manyThermo(2023, records, float64(i))); err != nil {
				t.Errorf("ImportThermoelectric batch %d: %v", i, err)
				return
			}
			if _, err := s.ImportTotalLoad(t.Context(), italyDays(first, 2, float64(i)*1000)); err != nil {
				t.Errorf("ImportTotalLoad batch %d: %v", i, err)
				return
			}
		}
	})
	for r := range readers {
		wg.Go(func() {
			var last int64
			for reads := 0; ; reads++ {
				finished := false
				select {
				case <-done:
					finished = true // one more read after the importer ends
				default:
				}
				d, err := s.ReadData(t.Context())
				if err != nil {
					t.Errorf("reader %d: ReadData: %v", r, err)
					return
				}
				if d.Version < last {
					t.Errorf("reader %d: version went back from %d to %d", r, last, d.Version)
				}
				last = d.Version
				if problem := snapshotProblem(d, records); problem != "" {
					t.Errorf("reader %d, read %d, version %d: %s", r, reads, d.Version, problem)
					return
				}
				if finished {
					t.Logf("reader %d: %d reads", r, reads+1)
					return
				}
			}
		})
	}
	wg.Wait()

	d := readData(t, s)
	if p := snapshotProblem(d, records); p != "" {
		t.Fatalf("after the imports: %s", p)
	}
	if len(d.Thermo) == 0 || d.Thermo[0].ProductionGWh != batches || len(d.PeakValley) == 0 || d.PeakValley[0].Peak.GW != batches {
		t.Fatalf("after the imports: got %d records and %d days, want batch %d everywhere", len(d.Thermo), len(d.PeakValley), batches)
	}
}

// snapshotProblem describes how d breaks testConsistentSnapshot's invariants,
// or returns "".
func snapshotProblem(d energy.Data, records int) string {
	var thermoBatch float64
	switch {
	case len(d.Thermo) == 0:
	case len(d.Thermo) != records:
		return fmt.Sprintf("got %d thermoelectric records, want 0 or %d", len(d.Thermo), records)
	default:
		thermoBatch = d.Thermo[0].ProductionGWh
		for _, r := range d.Thermo {
			if r.ProductionGWh != thermoBatch {
				return fmt.Sprintf("thermoelectric records from batches %v and %v", thermoBatch, r.ProductionGWh)
			}
		}
	}
	var loadBatch float64
	switch {
	case len(d.PeakValley) == 0:
	case len(d.PeakValley) != 2:
		return fmt.Sprintf("got %d peak-valley days, want 0 or 2", len(d.PeakValley))
	default:
		loadBatch = d.PeakValley[0].Peak.GW
		for _, pv := range d.PeakValley {
			if pv.Peak.GW != loadBatch || pv.Valley.GW != loadBatch {
				return fmt.Sprintf("load from batches %v and %v/%v", loadBatch, pv.Peak.GW, pv.Valley.GW)
			}
		}
	}
	// Batch i writes thermoelectric before load, so a snapshot may be between
	// the two imports of one batch but no further apart.
	if gap := thermoBatch - loadBatch; gap != 0 && gap != 1 {
		return fmt.Sprintf("thermoelectric from batch %v with load from batch %v", thermoBatch, loadBatch)
	}
	return ""
}
