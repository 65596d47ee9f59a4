package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/jackc/pgx/v5"
)

var _ auth.ClientWatcher = (*Store)(nil)

// clientsChannel is the NOTIFY channel of client changes. Notifications stay
// within one database, so the name needs no more than the program's.
const clientsChannel = "energyapi_clients"

const (
	// listenIdle is how long the listening connection waits for a
	// notification before it checks that the server still answers: a
	// connection that died without a word (a server stopped hard, a
	// network gone) would otherwise wait forever while polls carry on.
	listenIdle = 30 * time.Second
	// listenPingTimeout bounds that check.
	listenPingTimeout = 5 * time.Second
	// relistenFirst and relistenMax bound the wait before listening again
	// after a failure; it doubles from one to the other while failures go on.
	relistenFirst = 100 * time.Millisecond
	relistenMax   = 10 * time.Second
)

// notifySQL queues a notification on the channel $1, which PostgreSQL
// delivers to every listening replica when the transaction commits, and
// never if it rolls back.
const notifySQL = `SELECT pg_notify($1, '')`

// WatchClients calls changed for each change to the clients or revocation
// of a token that any process commits, moments after the commit, until ctx
// ends. It listens on a connection of its own, outside the pool, so that it
// never holds a connection requests need; if the connection fails it
// reports the error to onErr and connects again, calling changed once
// listening resumes, since a change may have committed while no one
// listened.
func (s *Store) WatchClients(ctx context.Context, changed func(), onErr func(error)) {
	wait := relistenFirst
	for {
		listened, err := s.listen(ctx, changed)
		if ctx.Err() != nil {
			return
		}
		onErr(fmt.Errorf("postgres: client notifications: %w", err))
		if listened {
			wait = relistenFirst
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, relistenMax)
	}
}

// listen connects, listens for client changes and calls changed for each
// until the connection fails or ctx ends. listened reports whether it got as
// far as listening.
func (s *Store) listen(ctx context.Context, changed func()) (listened bool, err error) {
	conn, err := pgx.ConnectConfig(ctx, s.pool.Config().ConnConfig)
	if err != nil {
		return false, err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), listenPingTimeout)
		defer cancel()
		_ = conn.Close(cctx) // the error that ended listening is the one worth reporting
	}()
	if _, err := conn.Exec(ctx, "LISTEN "+clientsChannel); err != nil {
		return false, err
	}
	changed() // whatever committed before LISTEN took effect
	for {
		wctx, cancel := context.WithTimeout(ctx, listenIdle)
		_, err := conn.WaitForNotification(wctx)
		cancel()
		switch {
		case err == nil:
			changed()
		case ctx.Err() != nil:
			return true, ctx.Err()
		case errors.Is(err, context.DeadlineExceeded):
			if err := s.ping(ctx, conn); err != nil {
				return true, err
			}
		default:
			return true, err
		}
	}
}

// ping checks that the listening connection still reaches the server.
func (s *Store) ping(ctx context.Context, conn *pgx.Conn) error {
	pctx, cancel := context.WithTimeout(ctx, listenPingTimeout)
	defer cancel()
	return conn.Ping(pctx)
}
