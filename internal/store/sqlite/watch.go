package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
)

var _ auth.ClientWatcher = (*Store)(nil)

// clientsWatchEvery is how often WatchClients reads the clients and
// revocations versions. SQLite cannot tell one process of another's
// commits, so a rotation made by `energyapi clients`, or a token revoked
// through another server, reaches a serving process through this read: two
// rows by primary key from a file in the page cache, under 30 µs even on a
// busy machine, so 50 reads a second cost about a thousandth of a CPU, and
// keep the old credentials' end well within 100 ms.
const clientsWatchEvery = 20 * time.Millisecond

// WatchClients calls changed whenever the clients or revocations version
// differs from the one it read before, until ctx ends, reading them every
// clientsWatchEvery. A failed read goes to onErr once, not again until a
// read has succeeded.
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
		v, err := readWatched(ctx, s.r)
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

// readWatched returns the sum of the clients and revocations versions: both
// only grow, so the sum changes whenever either does, and one read of two
// rows by primary key tells of both.
func readWatched(ctx context.Context, db *sql.DB) (int64, error) {
	var v int64
	err := db.QueryRowContext(ctx, `SELECT sum(version) FROM versions WHERE name IN ('clients', 'revocations')`).Scan(&v)
	return v, err
}
