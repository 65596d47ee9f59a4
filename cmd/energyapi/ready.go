package main

import (
	"context"
	"log/slog"
	"sync/atomic"
)

// readiness is serve's /readyz check: the store's Ping, with an error in the
// log when the store stops answering (for SQLite: its file was removed,
// replaced or cannot be read) and a line when it answers again, rather than
// one line per probe.
type readiness struct {
	ping    func(context.Context) error
	log     *slog.Logger
	store   string
	failing atomic.Bool
}

func (r *readiness) check(ctx context.Context) error {
	err := r.ping(ctx)
	switch {
	case err != nil && !r.failing.Swap(true):
		r.log.ErrorContext(ctx, "store not ready: /readyz answers 503", "store", r.store, "err", err)
	case err == nil && r.failing.Swap(false):
		r.log.InfoContext(ctx, "store ready again", "store", r.store)
	}
	return err
}
