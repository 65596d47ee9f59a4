package auth

import (
	"bytes"
	"context"
	"crypto/hmac"
	"net/mail"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/energyapi/energyapi/internal/energy"
)

// Registration is what self-service registration keeps of a client besides
// the client itself: who to contact, how it was registered and from where.
type Registration struct {
	ClientID string
	Contact  string // an email address
	Origin   string // OriginWeb or OriginDynamic
	// Addr is a Fingerprint of the address the registration came from: the
	// per-address limit counts these, and the store keeps no address.
	Addr    string
	Created time.Time
}

// How a client was registered.
const (
	OriginWeb     = "web"     // the developer page
	OriginDynamic = "rfc7591" // POST /register with an initial access token
)

// RevokedToken is an access token revoked before it expires (RFC 7009),
// named by its "jti".
type RevokedToken struct {
	ID       string
	ClientID string
	Expires  time.Time
	// Seq is the revocation's place in the store's log of revocations:
	// each one committed gets a Seq above those of every one committed
	// before it. RevokeToken ignores it; RevokedSince fills it in.
	Seq int64
}

// RegistrationStore keeps registrations and revoked tokens. The revoked
// tokens are a log that a replica follows by RevokedSince from the last
// Seq it read, so that one revocation costs each replica the rows it
// adds, not a reload of every client and every revoked token; a
// ClientWatcher tells of revocations as of changes to the clients.
type RegistrationStore interface {
	// CreateRegisteredClient stores c and reg in one transaction, unless
	// limit > 0 and limit registrations from reg.Addr were created in the
	// hour before reg.Created: then it stores nothing and returns false.
	// An error with code Conflict if the client ID exists.
	CreateRegisteredClient(ctx context.Context, c Client, reg Registration, limit int) (bool, error)
	// Registrations returns every registration, oldest first.
	Registrations(ctx context.Context) ([]Registration, error)
	// Registration returns the registration of one client; an error with
	// code NotFound if it has none.
	Registration(ctx context.Context, id string) (Registration, error)
	// RevokeToken records a revoked token, unless it is recorded already,
	// and drops those expired at now. It leaves ClientsVersion alone.
	// An error with code Invalid if t has no ID.
	RevokeToken(ctx context.Context, t RevokedToken, now time.Time) error
	// RevokedSince returns the revoked tokens whose Seq is above after and
	// that have not expired at now, in Seq order. Every revocation
	// committed after it answered has a Seq above those it returned, so a
	// caller that asks again from the largest Seq it has seen misses none.
	RevokedSince(ctx context.Context, after int64, now time.Time) ([]RevokedToken, error)
}

// pendingMark prefixes the stored secret hash of a client that awaits an
// operator's approval. Such a hash matches no secret, so every replica
// refuses the client with no state besides the hash; approval strips the
// mark through SetClientSecret, which every replica hears of as of a
// rotation.
var pendingMark = []byte("pending:")

// Pending reports whether the client awaits an operator's approval.
func (c Client) Pending() bool { return bytes.HasPrefix(c.SecretHash, pendingMark) }

// ReasonPendingClient: the right secret of a client not yet approved.
const ReasonPendingClient = "pending_client"

func seal(hash []byte) []byte { return append(append([]byte{}, pendingMark...), hash...) }

// Limits on what a person may enter when registering.
const (
	maxNameLen    = 100
	maxContactLen = 254 // RFC 5321's limit on a path
)

// CheckRegistration returns an error with code Invalid, whose message can
// be shown, unless name is a short line of text and contact, if not empty,
// one email address, neither holding a character of hiddenRune. Both
// registration paths, the developer page's and RFC 7591's, check here.
func CheckRegistration(name, contact string) error {
	name = strings.TrimSpace(name)
	switch {
	case name == "" || !utf8.ValidString(name) || utf8.RuneCountInString(name) > maxNameLen:
		return energy.Errorf(energy.Invalid, "The application name must be 1 to %d characters on one line", maxNameLen)
	case hiddenRune(name) >= 0:
		return energy.Errorf(energy.Invalid, "The application name holds U+%04X, a control or formatting character: it must be plain text on one line", hiddenRune(name))
	case contact == "":
		return nil
	case len(contact) > maxContactLen:
		return energy.Errorf(energy.Invalid, "The contact address is too long")
	case hiddenRune(contact) >= 0:
		return energy.Errorf(energy.Invalid, "The contact address holds U+%04X, a control or formatting character", hiddenRune(contact))
	}
	a, err := mail.ParseAddress(contact)
	if err != nil || a.Address != contact {
		return energy.Errorf(energy.Invalid, "The contact must be one email address, such as dev@example.com")
	}
	return nil
}

// hiddenRune returns the first character of s that would break a name
// out of its line or change how the text around it shows without being
// seen, or -1: a control character (Cc: tab, line feeds, C1), a line or
// paragraph separator (Zl, Zp), or a format character (Cf: the bidi
// marks, embeddings, overrides and isolates U+200E, U+200F, U+202A–U+202E
// and U+2066–U+2069, zero-width spaces, soft hyphens). The zero-width
// joiner and non-joiner (U+200D, U+200C) are kept: Persian and Indic
// scripts spell words with them, and emoji sequences join with them.
func hiddenRune(s string) rune {
	for _, r := range s {
		if r == '\u200c' || r == '\u200d' {
			continue
		}
		if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) {
			return r
		}
	}
	return -1
}

// Register creates a client for a registration, with a generated ID and
// secret, returning the secret once. A pending client exists but obtains
// no token until Approve. It returns an error with code Invalid for a bad
// name or contact, and false if reg.Addr already registered limit clients
// in the past hour (limit 0: no limit).
func (g *Registry) Register(ctx context.Context, name string, reg Registration, pending bool, limit int) (Client, string, bool, error) {
	if err := CheckRegistration(name, reg.Contact); err != nil {
		return Client{}, "", false, err
	}
	rs, ok := g.store.(RegistrationStore)
	if !ok {
		return Client{}, "", false, energy.Errorf(energy.Internal, "the store keeps no registrations")
	}
	c, secret, err := g.newClient(strings.TrimSpace(name))
	if err != nil {
		return Client{}, "", false, err
	}
	if pending {
		c.SecretHash = seal(c.SecretHash)
	}
	reg.ClientID, reg.Created = c.ID, c.Created
	admitted, err := rs.CreateRegisteredClient(ctx, c, reg, limit)
	if err != nil || !admitted {
		return Client{}, "", false, err
	}
	return c, secret, true, nil
}

// Approve lets a pending client obtain tokens, at once on every replica
// (as a rotation does). It returns an error with code NotFound if there is
// no such client and Conflict if it is revoked or not pending.
func (g *Registry) Approve(ctx context.Context, id string) error {
	c, err := g.store.Client(ctx, id)
	switch {
	case err != nil:
		return err
	case !c.Active():
		return energy.Errorf(energy.Conflict, "client %q is revoked", id)
	case !c.Pending():
		return energy.Errorf(energy.Conflict, "client %q is not awaiting approval", id)
	}
	if err := g.store.SetClientSecret(ctx, id, c.SecretHash[len(pendingMark):]); err != nil {
		return err
	}
	g.forget(id)
	return nil
}

// pendingMatch reports whether secret is the one a pending client will
// have once approved, compared in constant time.
func (g *Registry) pendingMatch(secret string, stored []byte) bool {
	return bytes.HasPrefix(stored, pendingMark) && hmac.Equal(g.hash(secret), stored[len(pendingMark):])
}

// Registrations returns every registration, or none if the store keeps none.
func (g *Registry) Registrations(ctx context.Context) ([]Registration, error) {
	rs, ok := g.store.(RegistrationStore)
	if !ok {
		return nil, nil
	}
	return rs.Registrations(ctx)
}

// RegistrationOf returns a client's registration; an error with code
// NotFound if it has none.
func (g *Registry) RegistrationOf(ctx context.Context, id string) (Registration, error) {
	rs, ok := g.store.(RegistrationStore)
	if !ok {
		return Registration{}, energy.Errorf(energy.NotFound, "client %q has no registration", id)
	}
	return rs.Registration(ctx, id)
}
