package storetest

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// seed gives a store parts of two datasets, so that a failed import has
// something to leave alone.
func seed(t testing.TB, s PartStore) {
	t.Helper()
	c, d := sensorCatalog(t)
	_, err := importRows(t.Context(), s, c, d, append(readings(2023, time.December, "seed", 1), readings(2024, time.March, "seed", 2)...))
	noErr(t, "Import", err)
	_, err = s.UpdateParts(t.Context(), "seed", t0(), nil, func([]dataset.StoredPart, time.Time) ([]dataset.StoredPart, energy.ImportStats, error) {
		return []dataset.StoredPart{{PartRef: dataset.PartRef{Dataset: "seed", ID: "2020"}, Records: 1, Data: []byte("seed")}},
			energy.ImportStats{Read: 1, Inserted: 1}, nil
	})
	noErr(t, "UpdateParts", err)
}

// state is everything an import may change.
type state struct {
	parts   dataset.Changes // every part
	version int64
	totals  []energy.ImportTotal
}

// readState reads the state of s, its import totals if it keeps them
// (every store does; dataset.Memory does not).
func readState(t testing.TB, s PartStore) state {
	t.Helper()
	st := state{parts: changedParts(t, s, nil), version: dataVersion(t, s)}
	if h, ok := s.(energy.ImportHistory); ok {
		var err error
		st.totals, err = h.ImportTotals(t.Context())
		noErr(t, "ImportTotals", err)
	}
	return st
}

// wantSameState fails the test unless nothing changed between before and after.
func wantSameState(t testing.TB, after, before state) {
	t.Helper()
	wantSameChanges(t, after.parts, before.parts)
	if after.version != before.version {
		t.Fatalf("DataVersion: got %d, want %d as before", after.version, before.version)
	}
	if !slices.EqualFunc(after.totals, before.totals, func(a, b energy.ImportTotal) bool {
		return a.Dataset == b.Dataset && a.Runs == b.Runs && a.Rows == b.Rows && a.Last.Equal(b.Last)
	}) {
		t.Fatalf("ImportTotals: got %+v, want %+v as before", after.totals, before.totals)
	}
}

// cancelAfter is a context that cancels itself the n-th time its Done channel
// is asked for. database/sql and drivers ask before and during every
// statement, so different n stop an import at different points; which points
// depends on the store, so each test run tries many n.
type cancelAfter struct {
	context.Context
	cancel context.CancelFunc
	left   atomic.Int64
}

func newCancelAfter(parent context.Context, n int64) *cancelAfter {
	ctx, cancel := context.WithCancel(parent)
	c := &cancelAfter{Context: ctx, cancel: cancel}
	c.left.Store(n)
	return c
}

func (c *cancelAfter) Done() <-chan struct{} {
	if c.left.Add(-1) == 0 {
		c.cancel()
	}
	return c.Context.Done()
}

// CancelAfter returns a context that cancels itself the n-th time its Done
// channel is asked for, to stop a store's work at some point within it:
// different n stop it at different points. Call cancel when done with it.
func CancelAfter(parent context.Context, n int64) (ctx context.Context, cancel context.CancelFunc) {
	c := newCancelAfter(parent, n)
	return c, c.cancel
}
