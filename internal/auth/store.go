// Package auth implements OAuth 2.0 client credentials for the API: the client
// registry, secret hashing, signed access tokens (RFC 9068 JWTs, Ed25519),
// their verification on every data request, and the token endpoint.
package auth

import (
	"context"
	"crypto/ed25519"
	"time"
)

// Client is a registered API client. Its secret is kept only as a hash.
type Client struct {
	ID         string
	Name       string
	SecretHash []byte
	Created    time.Time
	Revoked    time.Time // zero while the client is active
	// Plan is the plan CreateClient gives the client in the transaction
	// that creates it ("": the default), so that no process ever sees the
	// client without it. Reads leave it empty: plans are the limits'.
	Plan string
}

// Active reports whether the client may obtain and use tokens.
func (c Client) Active() bool { return c.Revoked.IsZero() }

// Generation identifies the client's current secret: a fingerprint of its
// stored hash, which every token issued to the client carries, so that a
// replica refuses the tokens issued before a rotation by comparing it with
// the client's current one. Derived from the hash, it needs nothing stored
// besides; a rotation always changes it, because a generated secret never
// comes back. It reveals nothing of the secret: the hash is keyed, and this
// is a one-way digest of it.
func (c Client) Generation() string { return Fingerprint(string(c.SecretHash)) }

// SigningKey is an Ed25519 key that signs access tokens. Every replica that
// shares a store shares its keys, so a token from one verifies on all.
type SigningKey struct {
	ID      string // the JWT "kid"
	Private ed25519.PrivateKey
	Created time.Time
}

// ClientStore keeps the client registry.
type ClientStore interface {
	// CreateClient stores a new client, with its plan if it names one; an
	// error with code Conflict if the ID exists, NotFound if the plan does not.
	CreateClient(ctx context.Context, c Client) error
	// Client returns one client; an error with code NotFound if there is none.
	Client(ctx context.Context, id string) (Client, error)
	// Clients returns every client, revoked ones included, oldest first.
	Clients(ctx context.Context) ([]Client, error)
	// RevokeClient marks the client revoked at the given time; revoking a revoked
	// client keeps the first time. An error with code NotFound if there is none.
	RevokeClient(ctx context.Context, id string, at time.Time) error
	// SetClientSecret replaces the client's secret hash. NotFound if there is no
	// such client, Conflict if it is revoked.
	SetClientSecret(ctx context.Context, id string, hash []byte) error
	// RestoreClient makes the client active again, clearing its revocation if
	// it has one, with the given secret hash; on an active client it only
	// replaces the hash. It changes the clients version as SetClientSecret
	// does. An error with code NotFound if there is no such client.
	RestoreClient(ctx context.Context, id string, hash []byte) error
	// ClientsVersion returns a number that changes whenever any client changes.
	ClientsVersion(ctx context.Context) (int64, error)
}

// ClientWatcher is a ClientStore that can tell of changes to the clients made
// by any process soon after they commit, sooner than polling ClientsVersion
// every poll interval would. Registry.Sync uses it when its store has it.
type ClientWatcher interface {
	// WatchClients calls changed soon after each committed change to the
	// clients or revocation of a token (RegistrationStore.RevokeToken), and
	// whenever a change may have been missed, until ctx ends. Failures go
	// to onErr; it keeps trying meanwhile.
	WatchClients(ctx context.Context, changed func(), onErr func(error))
}

// KeyStore keeps the token signing keys and the server's hashing key.
type KeyStore interface {
	// SigningKeys returns every stored signing key, newest first.
	SigningKeys(ctx context.Context) ([]SigningKey, error)
	// AddSigningKey stores a new key; Conflict if its ID exists.
	AddSigningKey(ctx context.Context, k SigningKey) error
	// DeleteSigningKeysBefore removes keys created before t.
	DeleteSigningKeysBefore(ctx context.Context, t time.Time) error
	// ServerSecret returns the named server-wide secret, creating it from gen
	// on first use. Concurrent first uses from several processes agree on one value.
	ServerSecret(ctx context.Context, name string, gen func() ([]byte, error)) ([]byte, error)
}
