package auth

import (
	"context"
	"maps"
	"time"
)

// clientTable is the registry's in-memory copy of the store's clients, as of
// a clients version.
type clientTable struct {
	version int64
	byID    map[string]Client
}

// Load reloads the in-memory client table if the store's clients version
// differs from the loaded one, and reports whether it did. The version is read
// before the clients, so a change made in between only causes one more load.
func (g *Registry) Load(ctx context.Context) (changed bool, err error) {
	g.loadMu.Lock()
	defer g.loadMu.Unlock()
	v, err := g.store.ClientsVersion(ctx)
	if err != nil {
		return false, err
	}
	if t := g.table.Load(); t != nil && t.version == v {
		return false, nil
	}
	cs, err := g.store.Clients(ctx)
	if err != nil {
		return false, err
	}
	byID := make(map[string]Client, len(cs))
	for _, c := range cs {
		byID[c.ID] = c
	}
	g.table.Store(&clientTable{version: v, byID: byID})
	return true, nil
}

// forget drops a client from the in-memory table, so that this process asks
// the store about it until the next load.
func (g *Registry) forget(id string) {
	g.loadMu.Lock()
	defer g.loadMu.Unlock()
	t := g.table.Load()
	if t == nil {
		return
	}
	if _, ok := t.byID[id]; !ok {
		return
	}
	byID := maps.Clone(t.byID)
	delete(byID, id)
	g.table.Store(&clientTable{version: t.version, byID: byID})
}

// Registered reports whether the in-memory table holds a client with this
// ID, revoked or not. It never asks the store: it serves the log, which names
// registered clients and only fingerprints other IDs (they may be misplaced secrets).
func (g *Registry) Registered(id string) bool {
	t := g.table.Load()
	if t == nil {
		return false
	}
	_, ok := t.byID[id]
	return ok
}

// revoked returns the revoked clients of the in-memory table.
func (g *Registry) revoked() map[string]time.Time {
	out := map[string]time.Time{}
	if t := g.table.Load(); t != nil {
		for id, c := range t.byID {
			if !c.Active() {
				out[id] = c.Revoked
			}
		}
	}
	return out
}

// Sync keeps the in-memory client table, and the revoked clients whose tokens
// tokens refuses, in step with the store until ctx ends: it loads at once,
// then checks the clients version every interval and reloads when it
// changed. A client revoked or a secret rotated through any process thus
// stops working here within about one interval. onErr receives failed loads;
// the previous table stays in use meanwhile.
func (g *Registry) Sync(ctx context.Context, interval time.Duration, tokens *Tokens, onErr func(error)) {
	load := func() {
		changed, err := g.Load(ctx)
		if err != nil {
			if ctx.Err() == nil {
				onErr(err)
			}
			return
		}
		if changed && tokens != nil {
			tokens.SetRevoked(g.revoked())
		}
	}
	load()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			load()
		}
	}
}
