package auth_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"maps"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
)

// memStore is an in-memory ClientStore, KeyStore and RegistrationStore for
// the auth package's own tests; the real stores pass the shared contract
// suite in storetest.
type memStore struct {
	mu         sync.Mutex
	clients    map[string]auth.Client
	keys       []auth.SigningKey
	secrets    map[string][]byte
	version    int64
	regs       map[string]auth.Registration
	revoked    []auth.RevokedToken // the log, in Seq order
	revokedIDs map[string]bool
	revSeq     int64 // the last Seq given
}

func newMemStore() *memStore {
	return &memStore{clients: map[string]auth.Client{}, secrets: map[string][]byte{}, regs: map[string]auth.Registration{}, revokedIDs: map[string]bool{}}
}

var _ auth.RegistrationStore = (*memStore)(nil)

func (m *memStore) CreateRegisteredClient(ctx context.Context, c auth.Client, reg auth.Registration, limit int) (bool, error) {
	m.mu.Lock()
	n := 0
	for _, r := range m.regs {
		if r.Addr == reg.Addr && r.Created.After(reg.Created.Add(-time.Hour)) {
			n++
		}
	}
	m.mu.Unlock()
	if limit > 0 && n >= limit {
		return false, nil
	}
	if err := m.CreateClient(ctx, c); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.regs[c.ID] = reg
	return true, nil
}

func (m *memStore) Registrations(context.Context) ([]auth.Registration, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return byID(m.regs), nil
}

func (m *memStore) Registration(_ context.Context, id string) (auth.Registration, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return found(m.regs, id, "no registration")
}

// byID returns the values of m sorted by their keys, the client IDs.
func byID[V any](m map[string]V) []V {
	var out []V
	for _, id := range slices.Sorted(maps.Keys(m)) {
		out = append(out, m[id])
	}
	return out
}

// found returns the value of m at id, or an error with code NotFound that
// says none.
func found[V any](m map[string]V, id, none string) (V, error) {
	v, ok := m[id]
	if !ok {
		return v, energy.Errorf(energy.NotFound, "%s", none)
	}
	return v, nil
}

// RevokeToken keeps expired tokens, which RevokedSince leaves out: what a
// store drops is its own affair.
func (m *memStore) RevokeToken(_ context.Context, t auth.RevokedToken, _ time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.revSeq++
	if m.revokedIDs[t.ID] {
		return nil
	}
	t.Seq = m.revSeq
	m.revoked = append(m.revoked, t)
	m.revokedIDs[t.ID] = true
	return nil
}

func (m *memStore) RevokedSince(_ context.Context, after int64, now time.Time) ([]auth.RevokedToken, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []auth.RevokedToken
	for _, r := range m.revoked {
		if r.Seq > after && now.Before(r.Expires) {
			out = append(out, r)
		}
	}
	return out, nil
}

func (m *memStore) CreateClient(_ context.Context, c auth.Client) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.clients[c.ID]; ok {
		return energy.Errorf(energy.Conflict, "client exists")
	}
	m.clients[c.ID] = c
	m.version++
	return nil
}

func (m *memStore) Client(_ context.Context, id string) (auth.Client, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return found(m.clients, id, "no client")
}

func (m *memStore) Clients(context.Context) ([]auth.Client, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return byID(m.clients), nil
}

func (m *memStore) RevokeClient(_ context.Context, id string, at time.Time) error {
	return m.change(id, func(c *auth.Client) bool {
		if !c.Active() {
			return false
		}
		c.Revoked = at
		return true
	})
}

func (m *memStore) SetClientSecret(_ context.Context, id string, hash []byte) error {
	return m.change(id, func(c *auth.Client) bool {
		c.SecretHash = bytes.Clone(hash)
		return true
	})
}

// change applies fn to client id and, if fn reports a change, stores it
// and advances the clients version. It returns an error with code
// NotFound if there is no such client.
func (m *memStore) change(id string, fn func(c *auth.Client) bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, err := found(m.clients, id, "no client")
	if err != nil {
		return err
	}
	if fn(&c) {
		m.clients[id] = c
		m.version++
	}
	return nil
}

func (m *memStore) RestoreClient(_ context.Context, id string, hash []byte) error {
	return m.change(id, func(c *auth.Client) bool {
		c.Revoked, c.SecretHash = time.Time{}, bytes.Clone(hash)
		return true
	})
}

func (m *memStore) ClientsVersion(context.Context) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.version, nil
}

func (m *memStore) SigningKeys(context.Context) ([]auth.SigningKey, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := append([]auth.SigningKey(nil), m.keys...)
	sort.Slice(out, func(i, j int) bool { return out[i].Created.After(out[j].Created) })
	return out, nil
}

func (m *memStore) AddSigningKey(_ context.Context, k auth.SigningKey) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.keys = append(m.keys, k)
	return nil
}

func (m *memStore) DeleteSigningKeysBefore(_ context.Context, t time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	kept := m.keys[:0]
	for _, k := range m.keys {
		if !k.Created.Before(t) {
			kept = append(kept, k)
		}
	}
	m.keys = kept
	return nil
}

func (m *memStore) ServerSecret(_ context.Context, name string, gen func() ([]byte, error)) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.secrets[name]; ok {
		return v, nil
	}
	v, err := gen()
	if err != nil {
		return nil, err
	}
	m.secrets[name] = v
	return v, nil
}

// env is a wired auth stack on a memStore and a settable clock.
type env struct {
	store  *memStore
	clock  *apitest.Clock
	reg    *auth.Registry
	keys   *auth.Keyring
	tokens *auth.Tokens
}

var keyCfg = auth.KeyringConfig{Rotation: 24 * time.Hour, Activation: 2 * time.Minute, TokenTTL: 300 * time.Second}

// tokensOf returns tokens issued and verified over e's keys with the
// clients of reg, as a replica whose registry reg is holds them.
func (e *env) tokensOf(reg *auth.Registry) *auth.Tokens {
	return auth.NewTokens(e.keys, reg, auth.DefaultIssuer, 300*time.Second, e.clock.Now, rand.Reader)
}

func newEnv(tb testing.TB) *env {
	tb.Helper()
	ctx := context.Background()
	e := &env{store: newMemStore(), clock: apitest.NewClock(time.Date(2024, 10, 27, 1, 30, 0, 0, time.UTC))}
	var err error
	if e.reg, err = auth.NewRegistry(ctx, e.store, e.store, e.clock.Now, rand.Reader); err != nil {
		tb.Fatal(err)
	}
	if e.keys, err = auth.NewKeyring(ctx, e.store, keyCfg, e.clock.Now, rand.Reader); err != nil {
		tb.Fatal(err)
	}
	e.tokens = e.tokensOf(e.reg)
	return e
}

// racingStore makes the client look absent to the first lookup while another
// process creates it, as when two replicas start at once.
type racingStore struct {
	*memStore
	raced bool
}

func (r *racingStore) Client(ctx context.Context, id string) (auth.Client, error) {
	if !r.raced {
		r.raced = true
		return auth.Client{}, energy.Errorf(energy.NotFound, "no client")
	}
	return r.memStore.Client(ctx, id)
}
