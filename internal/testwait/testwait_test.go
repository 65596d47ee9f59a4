package testwait

import (
	"testing"
	"time"
)

func TestScaleFollowsTheEnvironment(t *testing.T) {
	t.Setenv(envScale, "")
	if got := Scale(time.Second); got != time.Second {
		t.Errorf("unset: got %s, want 1s", got)
	}
	t.Setenv(envScale, "2.5")
	if got := Scale(time.Second); got != 2500*time.Millisecond {
		t.Errorf("2.5: got %s, want 2.5s", got)
	}
}

func TestMalformedFactorPanics(t *testing.T) {
	for _, v := range []string{"x", "0", "-1"} {
		t.Run(v, func(t *testing.T) {
			t.Setenv(envScale, v)
			defer func() {
				if recover() == nil {
					t.Errorf("%q: no panic, want one naming the variable", v)
				}
			}()
			Factor()
		})
	}
}

func TestForStopsOnceTheConditionHolds(t *testing.T) {
	t.Setenv(envScale, "")
	n := 0
	For(t, time.Minute, "the third look", func() bool { n++; return n == 3 })
	if n != 3 {
		t.Errorf("looked %d times, want 3", n)
	}
}
