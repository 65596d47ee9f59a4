package postgres

import (
	"context"
	"testing"
	"time"
)

// TestClientNotificationsResumeAfterTheConnectionDrops ends the listening
// connection from the server's side, as a restart or a network failure
// would, and checks that WatchClients reports it, listens again, tells of a
// change it may have missed meanwhile, and of the changes after.
func TestClientNotificationsResumeAfterTheConnectionDrops(t *testing.T) {
	dsn := cluster.Database(t)
	s, other := openStore(t, dsn), openStore(t, dsn)
	ctx, cancel := context.WithCancel(t.Context())
	told := make(chan struct{}, 1)
	failed := make(chan error, 10)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.WatchClients(ctx, func() {
			select {
			case told <- struct{}{}:
			default:
			}
		}, func(err error) {
			select {
			case failed <- err:
			default:
			}
		})
	}()
	defer func() { cancel(); <-done }()
	wait := func(what string) {
		t.Helper()
		select {
		case <-told:
		case <-time.After(10 * time.Second):
			t.Fatalf("not told %s within 10s", what)
		}
	}
	wait("when listening starts")

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
	wait("when listening resumes")
	if err := other.CreateClient(ctx, newTestClient("after")); err != nil {
		t.Fatal(err)
	}
	wait("of a change after listening resumed")
}
