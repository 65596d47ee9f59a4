package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
)

var _ auth.ClientWatcher = (*Store)(nil)

// clientsWatchEvery is how often WatchClients reads the clients version.
// SQLite cannot tell one process of another's commits, so a rotation made by
// `energyapi clients` reaches a serving process through this read: one row
// by primary key from a file in the page cache, under 30 µs even on a busy
// machine, so 50 reads a second cost about a thousandth of a CPU, and keep
// the old credentials' end well within 100 ms.
const clientsWatchEvery = 20 * time.Millisecond

// WatchClients calls changed whenever the clients version differs from the
// one it read before, until ctx ends, reading it every clientsWatchEvery.
// A failed read goes to onErr once, not again until a read has succeeded.
func (s *Store) WatchClients(ctx context.Context, changed func(), onErr func(error)) {
	tick := time.NewTicker(clientsWatchEvery)
	defer tick.Stop()
	last, failing := int64(-1), false
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		v, err := readVersion(ctx, s.r, "clients")
		switch {
		case err != nil && ctx.Err() != nil:
			return
		case err != nil:
			if !failing {
				onErr(fmt.Errorf("sqlite: watch clients: %w", err))
			}
			failing = true
		case v != last: // the first read too: a change may precede it
			changed()
			last, failing = v, false
		default:
			failing = false
		}
	}
}
