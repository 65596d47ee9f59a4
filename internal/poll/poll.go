// Package poll runs the server's background work that looks at the store
// again and again: new data, changed clients, new imports, signing keys.
// Every such loop goes through Every, so that each looks, stops and is
// woken early the same way.
package poll

import (
	"context"
	"time"
)

// Every calls fn each time interval passes, and at once whenever wake
// delivers (a nil wake never does), until ctx ends. The first call comes
// after the first interval or wake; a caller that wants one at once makes
// it before. Calls never overlap: one that outlasts the interval delays the
// next, and the ticks missed meanwhile are dropped, not made up.
func Every(ctx context.Context, interval time.Duration, wake <-chan struct{}, fn func(context.Context)) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-wake:
		}
		fn(ctx)
	}
}
