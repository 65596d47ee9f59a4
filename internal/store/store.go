// Package store holds what the SQLite and PostgreSQL stores (the sqlite and
// postgres packages below it) share and what needs no database: the rules on
// the values a store keeps, parsing embedded migrations, the steps of a part
// import and of a read of changed parts (parts.go), and moving the records
// of the per-dataset tables of schemas 1 and 2 into parts (legacy.go), and
// the methods whose SQL is the same on both databases (DB, sqldb.go and the
// sql_*.go files), which each store embeds. Each store keeps only the SQL
// that differs and its driver specifics, so that the two cannot
// drift apart in what they accept or how they count; internal/store/storetest
// checks the behaviour that results.
package store

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
)

// ValidText reports whether s is text that every store can keep: UTF-8
// without NUL bytes. PostgreSQL's text type holds nothing else. SQLite would
// keep any bytes, but applies the same rule, so that both stores refuse the
// same input and data can move from one to the other.
func ValidText(s string) bool {
	return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0
}

// CheckClient returns an error with code Invalid if c cannot be stored: its
// ID is empty, or its ID or name is not ValidText.
func CheckClient(c auth.Client) error {
	switch {
	case c.ID == "":
		return energy.Errorf(energy.Invalid, "client ID is empty")
	case !ValidText(c.ID) || !ValidText(c.Name):
		return energy.Errorf(energy.Invalid, "client ID and name must be UTF-8 text without NUL bytes")
	}
	return nil
}

// ClientNotFound returns the error for a client that does not exist.
func ClientNotFound(id string) error {
	return energy.Errorf(energy.NotFound, "client %q not found", id)
}

// CheckRevocation returns an error with code Invalid if at cannot be a
// revocation time: the zero time stands for "not revoked".
func CheckRevocation(at time.Time) error {
	if at.IsZero() {
		return energy.Errorf(energy.Invalid, "revocation time is zero")
	}
	return nil
}

// CheckSigningKey returns an error with code Invalid if k cannot be stored:
// its ID is empty or not ValidText, or its key is not an Ed25519 private key.
func CheckSigningKey(k auth.SigningKey) error {
	switch {
	case k.ID == "":
		return energy.Errorf(energy.Invalid, "key ID is empty")
	case !ValidText(k.ID):
		return energy.Errorf(energy.Invalid, "key ID must be UTF-8 text without NUL bytes")
	case len(k.Private) != ed25519.PrivateKeySize:
		return energy.Errorf(energy.Invalid, "key %q is not an Ed25519 private key", k.ID)
	}
	return nil
}

// CheckSecretName returns an error with code Invalid if name cannot name a
// server secret: it is empty or not ValidText.
func CheckSecretName(name string) error {
	switch {
	case name == "":
		return energy.Errorf(energy.Invalid, "secret name is empty")
	case !ValidText(name):
		return energy.Errorf(energy.Invalid, "secret name must be UTF-8 text without NUL bytes")
	}
	return nil
}

// StoredHash returns hash as a store binds it: an empty hash for nil, since
// the secret_hash column is NOT NULL and both drivers bind a nil slice as
// NULL.
func StoredHash(hash []byte) []byte {
	if hash == nil {
		return []byte{}
	}
	return hash
}

// NewSecret returns a new value for a server secret from gen, or an error if
// gen fails or returns an empty secret.
func NewSecret(gen func() ([]byte, error)) ([]byte, error) {
	v, err := gen()
	if err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	if len(v) == 0 {
		return nil, errors.New("generator returned an empty secret")
	}
	return v, nil
}
