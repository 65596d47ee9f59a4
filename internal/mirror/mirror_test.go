package mirror

import (
	"testing"
	"time"
)

// TestJitterIsBounded: a wait comes back within a quarter of itself and
// at most 30 s late, so a wait for the day's reset ends near 00:00 UTC.
func TestJitterIsBounded(t *testing.T) {
	for _, d := range []time.Duration{0, time.Second, 8 * time.Second, 20 * time.Hour} {
		for range 200 {
			got := jitter(d)
			if got < d || got > d+min(d/4, 30*time.Second) {
				t.Fatalf("jitter(%v) = %v", d, got)
			}
		}
	}
}

// TestUntilNextDay: the daily quota's reset is 00:00 UTC, whatever the
// zone of the clock's time.
func TestUntilNextDay(t *testing.T) {
	rome, err := time.LoadLocation("Europe/Rome")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		now  time.Time
		want time.Duration
	}{
		{time.Date(2025, 1, 10, 23, 30, 0, 0, time.UTC), 30 * time.Minute},
		{time.Date(2025, 1, 11, 0, 30, 0, 0, rome), 30 * time.Minute}, // 23:30 UTC
		{time.Date(2025, 1, 10, 0, 0, 0, 0, time.UTC), 24 * time.Hour},
	} {
		if got := untilNextDay(tc.now); got != tc.want {
			t.Errorf("untilNextDay(%v) = %v, want %v", tc.now, got, tc.want)
		}
	}
}
