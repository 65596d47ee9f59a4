package poll

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestEveryCallsOnTickAndWakeUntilCancelled checks the three things the
// loops rely on: fn runs every interval, a wake runs it before the next tick,
// and Every returns once ctx ends.
func TestEveryCallsOnTickAndWakeUntilCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var calls atomic.Int64
	called := make(chan struct{}, 16)
	wake := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		Every(ctx, time.Hour, wake, func(context.Context) { calls.Add(1); called <- struct{}{} })
	}()
	wake <- struct{}{}
	select {
	case <-called:
	case <-time.After(10 * time.Second):
		t.Fatal("a wake did not call fn")
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Every did not return after its context ended")
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("calls: got %d, want 1 (an hour's interval never ticked)", n)
	}

	ticks := make(chan struct{}, 16)
	tctx, tcancel := context.WithCancel(context.Background())
	defer tcancel()
	go Every(tctx, time.Millisecond, nil, func(context.Context) {
		select {
		case ticks <- struct{}{}:
		default: // the test has seen enough
		}
	})
	for i := range 3 {
		select {
		case <-ticks:
		case <-time.After(10 * time.Second):
			t.Fatalf("tick %d never called fn", i+1)
		}
	}
}
