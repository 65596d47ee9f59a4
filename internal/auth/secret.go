package auth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// secretBytes is the entropy of a generated client secret: 256 bits, so that a
// fast keyed hash protects it as well as a slow password hash would protect a
// weaker one, and the token endpoint is not capped by hashing cost.
const secretBytes = 32

// hashKeyName names the server-wide HMAC key in the KeyStore.
const hashKeyName = "client-secret-hmac-sha256"

// hashScheme prefixes stored hashes so a later scheme can coexist with this one.
var hashScheme = []byte("h1:")

// Registry creates, authenticates, rotates and revokes API clients.
//
// A serving process keeps a copy of the client table in memory (see Sync),
// so that a token request that succeeds, and the check of a token's client
// on every data request, cost no store lookup.
type Registry struct {
	store ClientStore
	key   []byte // HMAC key for secret hashes
	now   func() time.Time
	rand  io.Reader

	table     atomic.Pointer[clientTable] // nil until loaded
	loadMu    sync.Mutex                  // serialises loads
	changed   chan struct{}               // asks Sync to reload (see Changed)
	revoked   atomic.Pointer[revokedSet]  // nil until loaded or a token revoked here
	revokedMu sync.Mutex                  // serialises changes to revoked
	// loadWith is loaded with the clients, before the table is published
	// (see LoadWith); nil: nothing else.
	loadWith func(context.Context) error

	// hashers reuses keyed HMAC states: a new one costs two allocations
	// and two hash blocks for the key on every token request.
	hashers sync.Pool
}

// RegistryOption configures a Registry at construction.
type RegistryOption func(*Registry)

// LoadWith makes the registry call load each time it loads the clients,
// after reading them and before the table that holds them is published:
// what load reads (the clients' plans) is then never older than the
// clients a request can meet, so a client is never seen without the plan
// it was created with. A failed load keeps the previous table.
func LoadWith(load func(context.Context) error) RegistryOption {
	return func(g *Registry) { g.loadWith = load }
}

// NewRegistry returns a Registry whose secret-hashing key is kept in keys
// (created on first use), so every replica sharing the store agrees on it.
func NewRegistry(ctx context.Context, store ClientStore, keys KeyStore, now func() time.Time, random io.Reader, opts ...RegistryOption) (*Registry, error) {
	key, err := keys.ServerSecret(ctx, hashKeyName, func() ([]byte, error) {
		b := make([]byte, 32)
		_, err := io.ReadFull(random, b)
		return b, err
	})
	if err != nil {
		return nil, fmt.Errorf("auth: hashing key: %w", err)
	}
	g := &Registry{store: store, key: key, now: now, rand: random, changed: make(chan struct{}, 1)}
	for _, o := range opts {
		o(g)
	}
	return g, nil
}

func (g *Registry) hash(secret string) []byte {
	m, _ := g.hashers.Get().(hash.Hash)
	if m == nil {
		m = hmac.New(sha256.New, g.key)
	}
	m.Reset()
	io.WriteString(m, secret)
	sum := m.Sum(append(make([]byte, 0, len(hashScheme)+sha256.Size), hashScheme...))
	g.hashers.Put(m)
	return sum
}

// matches compares in constant time so response timing reveals nothing about
// how much of a guessed secret was right.
func (g *Registry) matches(secret string, stored []byte) bool {
	return hmac.Equal(g.hash(secret), stored)
}

func (g *Registry) randomString(n int, enc func([]byte) string) (string, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(g.rand, b); err != nil {
		return "", fmt.Errorf("auth: random: %w", err)
	}
	return enc(b), nil
}

func (g *Registry) newSecret() (string, error) {
	return g.randomString(secretBytes, base64.RawURLEncoding.EncodeToString)
}

// Create registers a new client with a generated ID and secret. The secret is
// returned once and stored only as a hash.
func (g *Registry) Create(ctx context.Context, name string) (Client, string, error) {
	return g.CreateOnPlan(ctx, name, "")
}

// CreateOnPlan registers a new client as Create does, on the named plan
// ("": the default) in the same transaction.
func (g *Registry) CreateOnPlan(ctx context.Context, name, plan string) (Client, string, error) {
	c, secret, err := g.newClient(name)
	if err != nil {
		return Client{}, "", err
	}
	c.Plan = plan
	if err := g.store.CreateClient(ctx, c); err != nil {
		return Client{}, "", err
	}
	return c, secret, nil
}

// newClient returns a client not yet stored, with a generated ID and
// secret, and the secret.
func (g *Registry) newClient(name string) (Client, string, error) {
	id, err := g.randomString(16, hex.EncodeToString)
	if err != nil {
		return Client{}, "", err
	}
	secret, err := g.newSecret()
	if err != nil {
		return Client{}, "", err
	}
	return Client{ID: id, Name: name, SecretHash: g.hash(secret), Created: g.now().UTC()}, secret, nil
}

// Ensure makes sure a client with this ID exists, is active and accepts this
// secret, creating it, giving it this secret or restoring it as needed: a
// client revoked (or given another secret) since is made active again with
// this secret, at once in this process and, in the others, as soon as their
// Sync hears of the change. It serves operator-set clients such as the demo
// one, whose secrets are chosen by a person and so carry far less entropy
// than generated ones; the fast hash does not protect those.
func (g *Registry) Ensure(ctx context.Context, id, name, secret string) error {
	c, err := g.store.Client(ctx, id)
	if energy.ErrorCode(err) == energy.NotFound {
		err = g.store.CreateClient(ctx, Client{ID: id, Name: name, SecretHash: g.hash(secret), Created: g.now().UTC()})
		if energy.ErrorCode(err) != energy.Conflict {
			return err
		}
		// Another process (a replica starting at the same time) created it
		// first: check what it stored like any existing client.
		c, err = g.store.Client(ctx, id)
	}
	switch {
	case err != nil:
		return err
	case c.Active() && g.matches(secret, c.SecretHash):
		return nil
	}
	if err := g.store.RestoreClient(ctx, id, g.hash(secret)); err != nil {
		return err
	}
	g.forget(id)
	return nil
}

// Rotate gives the client a new generated secret. The old one, and the tokens
// issued with it, stop working at once in this process and, in the others,
// as soon as their Sync hears of the change (see Sync). A client awaiting
// approval keeps waiting with its new secret.
func (g *Registry) Rotate(ctx context.Context, id string) (Client, string, error) {
	c, err := g.store.Client(ctx, id)
	if err != nil {
		return Client{}, "", err
	}
	secret, err := g.newSecret()
	if err != nil {
		return Client{}, "", err
	}
	h := g.hash(secret)
	if c.Pending() {
		h = seal(h)
	}
	if err := g.store.SetClientSecret(ctx, id, h); err != nil {
		return Client{}, "", err
	}
	g.forget(id)
	return c, secret, nil
}

// Revoke stops the client from obtaining tokens, at once in this process and,
// in the others, as soon as their Sync hears of the change; they refuse its
// outstanding tokens from then on too.
func (g *Registry) Revoke(ctx context.Context, id string) error {
	if err := g.store.RevokeClient(ctx, id, g.now().UTC()); err != nil {
		return err
	}
	g.forget(id)
	return nil
}

// List returns every client.
func (g *Registry) List(ctx context.Context) ([]Client, error) { return g.store.Clients(ctx) }

// errBadClient is the one answer to an unknown client, a wrong secret and a
// revoked client, so that the endpoint does not reveal which IDs exist.
var errBadClient = energy.Errorf(energy.Unauthorized, "client authentication failed")

// Reasons a client authentication fails, for the server's own log only: the
// caller is told errBadClient whatever the reason.
const (
	ReasonUnknownClient = "unknown_client"
	ReasonWrongSecret   = "wrong_secret"
	ReasonRevokedClient = "revoked_client"
)

// authError is a failed client authentication: errBadClient to callers (code
// Unauthorized, one message), with the reason kept for the log.
type authError struct{ reason string }

func (e *authError) Error() string { return "client authentication failed: " + e.reason }
func (e *authError) Unwrap() error { return errBadClient }

// FailureReason returns why Authenticate refused a client (ReasonUnknownClient,
// ReasonWrongSecret, ReasonRevokedClient or ReasonPendingClient), or "" if
// err is not such a refusal.
func FailureReason(err error) string {
	var ae *authError
	if errors.As(err, &ae) {
		return ae.reason
	}
	return ""
}

// Authenticate checks a client's credentials. It returns an error with code
// Unauthorized (and a FailureReason) if the client is unknown or revoked or
// the secret is wrong, and any other error if the store fails.
//
// Success is decided from the in-memory table when it holds the client, active,
// with this secret: no store lookup. Everything else is decided by the store,
// so that a client created or a secret rotated through any process works at
// once. A revocation or rotation made by another process therefore stops the
// old credentials once the table reloads: as soon as Sync hears of it.
func (g *Registry) Authenticate(ctx context.Context, id, secret string) (Client, error) {
	h := g.hash(secret)
	if t := g.table.Load(); t != nil {
		if c, ok := t.byID[id]; ok && c.Active() && hmac.Equal(h, c.SecretHash) {
			return c.Client, nil
		}
	}
	c, err := g.store.Client(ctx, id)
	if energy.ErrorCode(err) == energy.NotFound {
		return Client{}, &authError{ReasonUnknownClient}
	}
	if err != nil {
		return Client{}, err
	}
	// Compared in constant time (and before the revocation check) so that
	// response timing reveals nothing about how much of a guessed secret was right.
	ok := hmac.Equal(h, c.SecretHash)
	switch {
	case !c.Active():
		return Client{}, &authError{ReasonRevokedClient}
	case !ok && g.pendingMatch(secret, c.SecretHash):
		return Client{}, &authError{ReasonPendingClient}
	case !ok:
		return Client{}, &authError{ReasonWrongSecret}
	}
	return c, nil
}
