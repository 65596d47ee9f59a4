package auth

import (
	"log/slog"
	"net/http"
	"strconv"
	"time"
)

// TooManyFailures describes a refusal by the failed-authentication guard,
// at every path it guards.
const TooManyFailures = "Too many failed authentications; retry later"

// reasonGuardLimit is the log's reason for a refusal by the guard, at every
// path it guards.
const reasonGuardLimit = string(RateLimited) + ": " + TooManyFailures

// Attempts is the failed-authentication guard as every path that checks a
// credential meets it: the token endpoint and the endpoints that take the
// client's credentials as it does (/revoke, the developer's rotate-secret
// and delete), those that take the operator token (/introspect, the
// operator's), /register (an initial access token) and the sandbox's admin
// endpoints (its admin token). They share one FailureGuard, so that guesses
// spread over several paths count together.
//
// Data requests are not guarded: their bearer tokens are Ed25519-signed
// JWTs, which no one can guess, and they are the hot path. Nor is GET
// /developers/app, whose bearer token is such a JWT.
type Attempts struct {
	Guard FailureGuard // nil: no limit
	// Remote returns the caller's address, which the guard counts; nil: the
	// address is unknown, and not limited.
	Remote func(*http.Request) string
	// LogAttrs adds attributes to the request's log line; optional.
	LogAttrs func(r *http.Request, attrs ...slog.Attr)
	// Registry tells whether a client ID is registered, and so may be
	// logged as sent; nil: every client ID is logged as a fingerprint.
	Registry *Registry
}

// Allow reports whether the guard lets r try a credential for clientID
// ("" for a token that belongs to no client: the operator token, an
// initial access token, the sandbox admin token). If not, retryAfter is
// the Retry-After value, in whole seconds rounded up.
func (a Attempts) Allow(r *http.Request, clientID string) (retryAfter string, ok bool) {
	if a.Guard == nil {
		return "", true
	}
	wait, ok := a.Guard.Allow(clientID, a.remote(r))
	if ok {
		return "", true
	}
	return strconv.Itoa(int((wait + time.Second - 1) / time.Second)), false
}

// Failed counts a failed authentication of clientID from r's address.
func (a Attempts) Failed(r *http.Request, clientID string) {
	if a.Guard != nil {
		a.Guard.Failed(clientID, a.remote(r))
	}
}

func (a Attempts) remote(r *http.Request) string {
	if a.Remote == nil {
		return ""
	}
	return a.Remote(r)
}

// Note tells the request log why r was refused (never anything secret) and
// which client it named, if any. The ID is written as sent only when it
// names a registered client (registered says so, or the Registry does);
// any other ID appears as a short SHA-256 fingerprint, because what a
// caller sends as client_id may be a secret sent in the wrong field, and
// secrets never go into the log.
func (a Attempts) Note(r *http.Request, reason, clientID string, registered bool) {
	if a.LogAttrs == nil {
		return
	}
	attrs := []slog.Attr{slog.String("reason", reason)}
	switch {
	case clientID == "":
	case registered || (a.Registry != nil && a.Registry.Registered(clientID)):
		attrs = append(attrs, slog.String("client_id", clientID))
	default:
		attrs = append(attrs, slog.String("client_id_hash", Fingerprint(clientID)))
	}
	a.LogAttrs(r, attrs...)
}

// BearerCheck is how a guarded check of a bearer token ended.
type BearerCheck int

// Ends of a bearer token check.
const (
	// BearerAccepted: the token is one of those expected.
	BearerAccepted BearerCheck = iota
	// BearerRefused: no bearer token, or a wrong one (counted): answer 401.
	BearerRefused
	// BearerLimited: the guard refused r's address another guess, and
	// Retry-After is set: answer 429.
	BearerLimited
)

// Bearer checks that r carries one of tokens (an empty one is never
// accepted) as its bearer token, under the guard: a wrong token counts as
// a failure of no client from r's address, and an address past its limit
// is refused before its token is compared, so that the answer tells an
// attacker nothing. It notes why for the log: invalid_token: missing_token,
// invalid_token: wrong (such as wrong_operator_token), or the guard's
// refusal. The caller answers in its own error shape.
func (a Attempts) Bearer(w http.ResponseWriter, r *http.Request, wrong string, tokens ...string) BearerCheck {
	tok, ok := BearerToken(r.Header.Get("Authorization"))
	if !ok {
		// No guess was made: nothing to count.
		a.Note(r, "invalid_token: missing_token", "", false)
		return BearerRefused
	}
	if retry, ok := a.Allow(r, ""); !ok {
		w.Header().Set("Retry-After", retry)
		a.Note(r, reasonGuardLimit, "", false)
		return BearerLimited
	}
	for _, t := range tokens {
		if t != "" && sameSecret(tok, t) {
			return BearerAccepted
		}
	}
	a.Failed(r, "")
	a.Note(r, "invalid_token: "+wrong, "", false)
	return BearerRefused
}
