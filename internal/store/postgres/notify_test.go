package postgres

import (
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/store/storetest"
)

// TestClientNotificationsResumeAfterTheConnectionDrops ends the listening
// connection from the server's side, as a restart or a network failure
// would, and checks that WatchClients reports it, listens again, tells of a
// change it may have missed meanwhile, and of the changes after.
func TestClientNotificationsResumeAfterTheConnectionDrops(t *testing.T) {
	dsn := cluster.Database(t)
	s, other := openStore(t, dsn), openStore(t, dsn)
	ctx := t.Context()
	failed := make(chan error, 10)
	told := storetest.WatchClients(t, s, func(err error) {
		select {
		case failed <- err:
		default:
		}
	})
	storetest.WaitTold(t, told, "listening starting")

	var ended int
	err := other.pool.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND query = 'LISTEN `+clientsChannel+`'`).Scan(&ended)
	if err != nil || ended != 1 {
		t.Fatalf("ending the listening connection: got %d ended (%v), want 1", ended, err)
	}
	select {
	case err := <-failed:
		t.Logf("reported: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("the lost connection: not reported within 10s")
	}
	storetest.WaitTold(t, told, "listening resuming")
	if err := other.CreateClient(ctx, newTestClient("after")); err != nil {
		t.Fatal(err)
	}
	storetest.WaitTold(t, told, "a change after listening resumed")
}
