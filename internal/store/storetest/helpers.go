package storetest

import (
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// wantCode fails the test unless err carries the given code.
func wantCode(t testing.TB, what string, err error, code energy.Code) {
	t.Helper()
	if got := energy.ErrorCode(err); got != code {
		t.Fatalf("%s: got error %v (code %q), want code %q", what, err, got, code)
	}
}

// noErr fails the test if err is not nil.
func noErr(t testing.TB, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: got error %v, want nil", what, err)
	}
}

func dataVersion(t testing.TB, s PartStore) int64 {
	t.Helper()
	v, err := s.DataVersion(t.Context())
	noErr(t, "DataVersion", err)
	return v
}

// at parses an RFC 3339 instant written in a test table.
func at(t testing.TB, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatalf("bad instant in test table: %v", err)
	}
	return v
}

// loadAndPeakValley returns the catalogue's total-load and peak-valley,
// which peak-valley derives from.
func loadAndPeakValley(c *dataset.Catalog) (load, pv *dataset.Dataset) {
	load, _ = c.Lookup("total-load")
	pv, _ = c.Lookup("peak-valley")
	return load, pv
}
