package auth

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// KeyringConfig sets how signing keys rotate.
type KeyringConfig struct {
	// Rotation is how long a key signs before a new one takes over.
	Rotation time.Duration
	// Activation is how long a new key waits before it signs, so that every
	// replica has loaded it (they reload at least this often) before tokens
	// signed with it reach them.
	Activation time.Duration
	// TokenTTL bounds how long a retired key must still verify.
	TokenTTL time.Duration
}

type keyset struct {
	signing SigningKey
	public  map[string]ed25519.PublicKey
	all     []SigningKey
}

// Keyring holds the signing keys in memory and keeps them in step with the store.
type Keyring struct {
	store KeyStore
	cfg   KeyringConfig
	now   func() time.Time
	rand  io.Reader

	set atomic.Pointer[keyset]

	mu          sync.Mutex // serialises reloads
	lastUnknown time.Time  // last reload caused by an unknown kid
}

// NewKeyring loads the keys, creating the first one if the store has none.
func NewKeyring(ctx context.Context, store KeyStore, cfg KeyringConfig, now func() time.Time, random io.Reader) (*Keyring, error) {
	k := &Keyring{store: store, cfg: cfg, now: now, rand: random}
	if err := k.Refresh(ctx); err != nil {
		return nil, err
	}
	return k, nil
}

// Refresh reloads the keys from the store, adds a key when the newest is due
// for rotation, and drops keys that can no longer have live tokens.
func (k *Keyring) Refresh(ctx context.Context) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.refreshLocked(ctx)
}

func (k *Keyring) refreshLocked(ctx context.Context) error {
	now := k.now()
	keys, err := k.store.SigningKeys(ctx)
	if err != nil {
		return fmt.Errorf("auth: load signing keys: %w", err)
	}
	if len(keys) == 0 || now.Sub(keys[0].Created) >= k.cfg.Rotation {
		// Several replicas may do this at once; each adds its own key, which is
		// harmless: every key verifies, and the newest active one signs.
		nk, err := k.generate(now)
		if err != nil {
			return err
		}
		if err := k.store.AddSigningKey(ctx, nk); err != nil {
			return fmt.Errorf("auth: add signing key: %w", err)
		}
		if keys, err = k.store.SigningKeys(ctx); err != nil {
			return fmt.Errorf("auth: load signing keys: %w", err)
		}
	}
	// A key retired at Created+Rotation(+Activation) signs tokens that live TokenTTL longer.
	horizon := now.Add(-(2*k.cfg.Rotation + k.cfg.Activation + k.cfg.TokenTTL))
	if keys[len(keys)-1].Created.Before(horizon) {
		if err := k.store.DeleteSigningKeysBefore(ctx, horizon); err != nil {
			return fmt.Errorf("auth: delete old signing keys: %w", err)
		}
	}
	ks := &keyset{public: make(map[string]ed25519.PublicKey, len(keys)), all: keys}
	for _, key := range keys {
		if key.Created.Before(horizon) {
			continue
		}
		ks.public[key.ID] = key.Private.Public().(ed25519.PublicKey)
	}
	// Sign with the newest key old enough for every replica to know it; a
	// lone fresh key (first start) signs at once.
	ks.signing = keys[0]
	for _, key := range keys {
		if now.Sub(key.Created) >= k.cfg.Activation {
			ks.signing = key
			break
		}
	}
	k.set.Store(ks)
	return nil
}

func (k *Keyring) generate(now time.Time) (SigningKey, error) {
	_, priv, err := ed25519.GenerateKey(k.rand)
	if err != nil {
		return SigningKey{}, fmt.Errorf("auth: generate signing key: %w", err)
	}
	kid := make([]byte, 12)
	if _, err := io.ReadFull(k.rand, kid); err != nil {
		return SigningKey{}, fmt.Errorf("auth: random: %w", err)
	}
	return SigningKey{ID: base64.RawURLEncoding.EncodeToString(kid), Private: priv, Created: now.UTC()}, nil
}

// signing returns the key that signs new tokens.
func (k *Keyring) signing() SigningKey { return k.set.Load().signing }

// public returns the verification key for kid. An unknown kid may come from a
// key another replica has just created, so it reloads the store, but at most
// once a second, so that forged kids cannot turn into a flood of queries.
func (k *Keyring) public(ctx context.Context, kid string) (ed25519.PublicKey, bool) {
	if pk, ok := k.set.Load().public[kid]; ok {
		return pk, true
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if pk, ok := k.set.Load().public[kid]; ok {
		return pk, true
	}
	if now := k.now(); now.Sub(k.lastUnknown) >= time.Second {
		k.lastUnknown = now
		if err := k.refreshLocked(ctx); err != nil {
			return nil, false
		}
	}
	pk, ok := k.set.Load().public[kid]
	return pk, ok
}

// JWK is one public key in a JSON Web Key Set (RFC 7517, RFC 8037).
type JWK struct {
	KeyType   string `json:"kty"`
	Curve     string `json:"crv"`
	X         string `json:"x"`
	KeyID     string `json:"kid"`
	Use       string `json:"use"`
	Algorithm string `json:"alg"`
}

// JWKS returns the public keys that verify tokens, for /.well-known/jwks.json.
func (k *Keyring) JWKS() []JWK {
	ks := k.set.Load()
	out := make([]JWK, 0, len(ks.all))
	for _, key := range ks.all {
		pk, ok := ks.public[key.ID]
		if !ok {
			continue
		}
		out = append(out, JWK{KeyType: "OKP", Curve: "Ed25519", X: base64.RawURLEncoding.EncodeToString(pk), KeyID: key.ID, Use: "sig", Algorithm: "EdDSA"})
	}
	return out
}
