package dataset

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// TestWallClockAsAppendFormat checks that appendWallTime and appendOffset
// write what time.Time.AppendFormat writes with their layouts: every
// quarter hour of the years around each clock change Rome has had since
// 2000, and random moments from 1800 (Rome's local mean time, offset
// +00:49:56) to 2200, in Rome and UTC.
func TestWallClockAsAppendFormat(t *testing.T) {
	t.Parallel()
	// The check runs two million times: its buffers are reused, and it
	// calls no t.Helper, whose stack walk was a fifth of the test.
	var got, want []byte
	check := func(t *testing.T, at time.Time) {
		_, off := at.Zone()
		if got, want = appendWallTime(append(got[:0], 'x'), at, off), at.AppendFormat(append(want[:0], 'x'), wallLayout); !bytes.Equal(got, want) {
			t.Fatalf("wall time of %d in %s: got %q, want %q", at.Unix(), at.Location(), got, want)
		}
		if got, want = appendOffset(append(got[:0], 'x'), off), at.AppendFormat(append(want[:0], 'x'), offsetLayout); !bytes.Equal(got, want) {
			t.Fatalf("offset of %d in %s: got %q, want %q", at.Unix(), at.Location(), got, want)
		}
	}
	zones := []*time.Location{energy.Rome(), time.UTC}
	for _, z := range zones {
		start := time.Date(2000, 1, 1, 0, 0, 0, 0, z)
		for at := start; at.Year() < 2027; at = at.Add(15 * time.Minute) {
			check(t, at)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	lo, hi := time.Date(1800, 1, 1, 0, 0, 0, 0, time.UTC).Unix(), time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	for range 200_000 {
		sec := lo + rng.Int64N(hi-lo)
		for _, z := range zones {
			check(t, time.Unix(sec, 0).In(z))
		}
	}
}

// TestAppendPadded checks the zero padding of appendPadded, and that a
// value wider than its width is written whole.
func TestAppendPadded(t *testing.T) {
	for _, c := range []struct {
		v, width int
		want     string
	}{{0, 2, "00"}, {7, 2, "07"}, {59, 2, "59"}, {7, 4, "0007"}, {2025, 4, "2025"}, {12345, 4, "12345"}, {0, 1, "0"}} {
		if got := string(appendPadded(nil, c.v, c.width)); got != c.want {
			t.Errorf("appendPadded(%d, %d): got %q, want %q", c.v, c.width, got, c.want)
		}
	}
}
