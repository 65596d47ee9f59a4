package auth

import (
	"context"
	"maps"
	"sync"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/poll"
)

// clientTable is the registry's in-memory copy of the store's clients, as of
// a clients version. The revoked tokens are kept apart (revokedSet), so that
// a revocation reloads no client.
type clientTable struct {
	version int64
	byID    map[string]tableClient
	// regs are the registrations of the clients registered through the
	// site or RFC 7591, by client ID, so that a developer's page reads its
	// client from memory.
	regs map[string]Registration
}

// tableClient is a client as the table holds it, with its secret generation
// worked out once per load rather than on every data request.
type tableClient struct {
	Client
	gen string
}

// Load brings the in-memory state up to the store: it reads the tokens
// revoked since the last load, and reloads the client table if the store's
// clients version differs from the loaded one. It reports whether it
// reloaded the client table.
func (g *Registry) Load(ctx context.Context) (changed bool, err error) {
	g.loadMu.Lock()
	defer g.loadMu.Unlock()
	if err := g.loadRevoked(ctx); err != nil {
		return false, err
	}
	return g.loadClients(ctx)
}

// loadClients reloads the client table if the clients version changed. The
// version is read before the clients, so a change made in between only
// causes one more load.
func (g *Registry) loadClients(ctx context.Context) (changed bool, err error) {
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
	regs, err := g.Registrations(ctx)
	if err != nil {
		return false, err
	}
	if g.loadWith != nil {
		if err := g.loadWith(ctx); err != nil {
			return false, err
		}
	}
	byID := make(map[string]tableClient, len(cs))
	for _, c := range cs {
		byID[c.ID] = tableClient{Client: c, gen: c.Generation()}
	}
	t := &clientTable{version: v, byID: byID, regs: make(map[string]Registration, len(regs))}
	for _, r := range regs {
		t.regs[r.ClientID] = r
	}
	g.table.Store(t)
	return true, nil
}

// held returns the client of this ID and its registration (zero if it has
// none) as the in-memory table holds them, and false if the table does not
// hold the client.
func (g *Registry) held(id string) (Client, Registration, bool) {
	t := g.table.Load()
	if t == nil {
		return Client{}, Registration{}, false
	}
	c, ok := t.byID[id]
	return c.Client, t.regs[id], ok
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
	g.table.Store(&clientTable{version: t.version, byID: byID, regs: t.regs})
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

// Changed tells the registry that the store's clients or revoked tokens may
// have changed, for example on a notification from the store: Sync loads at
// once rather than at its next poll. It never blocks.
func (g *Registry) Changed() {
	select {
	case g.changed <- struct{}{}:
	default: // a reload is already due
	}
}

// Sync keeps the in-memory client table and revoked tokens, which
// Authenticate and the tokens' Verify consult, in step with the store until
// ctx ends. It loads at once; then, if the store is a ClientWatcher, it loads
// as soon as the store tells of a change, and in any case every interval
// (the fallback should a notification be lost) and when Changed is called.
// A client revoked, a secret rotated or a token revoked through any process
// thus stops working here as soon as the store tells, and at the latest
// within about one interval. onErr receives failed loads; the previous state
// stays in use meanwhile.
func (g *Registry) Sync(ctx context.Context, interval time.Duration, onErr func(error)) {
	var wg sync.WaitGroup
	defer wg.Wait()
	if w, ok := g.store.(ClientWatcher); ok {
		wg.Go(func() { w.WatchClients(ctx, g.Changed, onErr) })
	}
	load := func() {
		if _, err := g.Load(ctx); err != nil && ctx.Err() == nil {
			onErr(err)
		}
	}
	load()
	poll.Every(ctx, interval, g.changed, func(context.Context) { load() })
}

// tokenCheckTimeout bounds the store lookup of tokenValid, so that data
// requests with such a token wait a bounded time for a store that hangs.
const tokenCheckTimeout = 2 * time.Second

// tokenValid reports whether a token issued to client id under its secret
// generation gen may still be used: the client exists, is active and still
// has that secret. final reports that a refusal will not change: the client
// was revoked or its secret changed since the token was issued, and neither
// is ever undone for a generated secret.
//
// It costs one map lookup when the in-memory table holds the client with
// that generation. When the table disagrees with the token it may be behind
// it (a rotation elsewhere that a newer token already reflects), so the store
// decides, and the table is reloaded. If the store cannot answer, the table
// decides: a token that disagrees with it is refused, one for a client it
// does not hold yet is accepted, as it was signed by these keys.
func (g *Registry) tokenValid(ctx context.Context, id, gen string) (ok, final bool) {
	var held tableClient
	found := false
	if t := g.table.Load(); t != nil {
		held, found = t.byID[id]
	}
	switch {
	case found && !held.Active():
		return false, true
	case found && held.gen == gen:
		return true, false
	}
	ctx, cancel := context.WithTimeout(ctx, tokenCheckTimeout)
	defer cancel()
	c, err := g.store.Client(ctx, id)
	switch {
	case energy.ErrorCode(err) == energy.NotFound:
		return false, true
	case err != nil:
		return !found, false
	case !c.Active() || c.Generation() != gen:
		return false, true
	}
	// The table is behind the store. Load it now rather than in the
	// background, so that this request already meets the client with what
	// is loaded with it (its plan: LoadWith), as every later one will.
	if _, err := g.Load(ctx); err != nil {
		g.Changed()
	}
	return true, false
}

// generation returns c.Generation(), from the table when it holds c with
// the same secret hash (a SHA-256 the token endpoint then does not compute
// again for every token).
func (g *Registry) generation(c Client) string {
	if t := g.table.Load(); t != nil {
		if held, ok := t.byID[c.ID]; ok && string(held.SecretHash) == string(c.SecretHash) {
			return held.gen
		}
	}
	return c.Generation()
}
