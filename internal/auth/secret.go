package auth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
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
type Registry struct {
	store ClientStore
	key   []byte // HMAC key for secret hashes
	now   func() time.Time
	rand  io.Reader
}

// NewRegistry returns a Registry whose secret-hashing key is kept in keys
// (created on first use), so every replica sharing the store agrees on it.
func NewRegistry(ctx context.Context, store ClientStore, keys KeyStore, now func() time.Time, random io.Reader) (*Registry, error) {
	key, err := keys.ServerSecret(ctx, hashKeyName, func() ([]byte, error) {
		b := make([]byte, 32)
		_, err := io.ReadFull(random, b)
		return b, err
	})
	if err != nil {
		return nil, fmt.Errorf("auth: hashing key: %w", err)
	}
	return &Registry{store: store, key: key, now: now, rand: random}, nil
}

func (g *Registry) hash(secret string) []byte {
	m := hmac.New(sha256.New, g.key)
	m.Write([]byte(secret))
	return m.Sum(append([]byte(nil), hashScheme...))
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
	id, err := g.randomString(16, hex.EncodeToString)
	if err != nil {
		return Client{}, "", err
	}
	secret, err := g.newSecret()
	if err != nil {
		return Client{}, "", err
	}
	c := Client{ID: id, Name: name, SecretHash: g.hash(secret), Created: g.now().UTC()}
	if err := g.store.CreateClient(ctx, c); err != nil {
		return Client{}, "", err
	}
	return c, secret, nil
}

// Ensure makes sure a client with this ID exists, is active and accepts this
// secret, creating or updating it as needed. It serves operator-set clients such
// as the demo one, whose secrets are chosen by a person and so carry far less
// entropy than generated ones; the fast hash does not protect those.
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
	case !c.Active():
		return energy.Errorf(energy.Conflict, "client %q is revoked", id)
	case g.matches(secret, c.SecretHash):
		return nil
	}
	return g.store.SetClientSecret(ctx, id, g.hash(secret))
}

// Rotate gives the client a new generated secret; the old one stops working at once.
func (g *Registry) Rotate(ctx context.Context, id string) (Client, string, error) {
	c, err := g.store.Client(ctx, id)
	if err != nil {
		return Client{}, "", err
	}
	secret, err := g.newSecret()
	if err != nil {
		return Client{}, "", err
	}
	if err := g.store.SetClientSecret(ctx, id, g.hash(secret)); err != nil {
		return Client{}, "", err
	}
	return c, secret, nil
}

// Revoke stops the client from obtaining tokens at once; verifiers refuse its
// outstanding tokens once they next poll the registry.
func (g *Registry) Revoke(ctx context.Context, id string) error {
	return g.store.RevokeClient(ctx, id, g.now().UTC())
}

// List returns every client.
func (g *Registry) List(ctx context.Context) ([]Client, error) { return g.store.Clients(ctx) }

// errBadClient is the one answer to an unknown client, a wrong secret and a
// revoked client, so that the endpoint does not reveal which IDs exist.
var errBadClient = energy.Errorf(energy.Unauthorized, "client authentication failed")

// Authenticate checks a client's credentials against the store (no cache, so a
// revocation or rotation through any process applies to the next request).
func (g *Registry) Authenticate(ctx context.Context, id, secret string) (Client, error) {
	c, err := g.store.Client(ctx, id)
	if energy.ErrorCode(err) == energy.NotFound {
		g.matches(secret, nil) // spend the same work as for a known client
		return Client{}, errBadClient
	}
	if err != nil {
		return Client{}, err
	}
	if !g.matches(secret, c.SecretHash) || !c.Active() {
		return Client{}, errBadClient
	}
	return c, nil
}
