package auth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// RegistrationMode says who may register a client through the site and
// POST /register.
type RegistrationMode string

// Registration modes.
const (
	// RegistrationOff: no registration path exists (404).
	RegistrationOff RegistrationMode = "off"
	// RegistrationApproval: a registered client obtains no token until an
	// operator approves it.
	RegistrationApproval RegistrationMode = "approval"
	// RegistrationOpen: a registered client works at once.
	RegistrationOpen RegistrationMode = "open"
)

// ParseRegistrationMode returns the mode s names, or false.
func ParseRegistrationMode(s string) (RegistrationMode, bool) {
	switch m := RegistrationMode(s); m {
	case RegistrationOff, RegistrationApproval, RegistrationOpen:
		return m, true
	}
	return "", false
}

// DefaultRegistrationsPerHour is how many clients one address may register
// in an hour unless configured otherwise.
const DefaultRegistrationsPerHour = 5

// maxRegistrationRequest bounds the JSON bodies of the registration
// endpoints: a few names and addresses.
const maxRegistrationRequest = 16 << 10

// SelfService serves self-service registration, its operator side, and the
// standard endpoints for machines (RFC 7591, 7009, 7662, 8414).
type SelfService struct {
	Mode     RegistrationMode
	Registry *Registry
	Tokens   *Tokens
	Log      *slog.Logger
	// OperatorToken authenticates the operator's page and API and the
	// operator's gateway at the introspection endpoint; "" disables them.
	OperatorToken string
	// InitialTokens are the initial access tokens (RFC 7591 section 3)
	// that POST /register accepts besides OperatorToken.
	InitialTokens []string
	// PerHour bounds the registrations from one address in an hour; 0 for no bound.
	PerHour int
	// Remote returns the caller's address; it defaults to the connection's peer.
	Remote func(*http.Request) string
	// AddrKey returns the unit of addresses that PerHour counts, such as
	// the IPv6 /64 an address belongs to; nil counts each address alone.
	AddrKey func(addr string) string
	// Guard limits failed authentications at the endpoints that check a
	// credential (the client's, the operator token, an initial access
	// token); it is the token endpoint's, so that guesses count together
	// wherever they are made (Attempts). Nil: no limit.
	Guard FailureGuard
	// LogAttrs adds attributes to the request's log line: why an
	// authentication was refused, and the client it named; optional.
	LogAttrs func(r *http.Request, attrs ...slog.Attr)
	// Reserved are the IDs of clients whose secret is public, such as the
	// demo client: anyone may sign in with them, so the developer endpoints
	// that change a client (rotating its secret, deleting it) refuse them
	// with 403. They obtain tokens like any client; only the operator
	// changes them.
	Reserved []string
	// Origin is where clients reach the server, which the metadata's
	// absolute URLs start with; its Issuer is the one Tokens names.
	Origin Origin
	// Pace applies the caller's limits to a signed-in client's call that
	// changes nothing (GET /developers/app), as to its other calls; it
	// answers a refusal itself and returns false. Nil: no limit.
	Pace func(w http.ResponseWriter, r *http.Request, clientID string) bool
}

// Registering reports whether registration paths exist.
func (s *SelfService) Registering() bool {
	return s.Mode == RegistrationApproval || s.Mode == RegistrationOpen
}

// Operated reports whether the operator endpoints exist.
func (s *SelfService) Operated() bool { return s.OperatorToken != "" }

// sameSecret compares two secrets in constant time, whatever their lengths.
func sameSecret(a, b string) bool {
	ha, hb := sha256.Sum256([]byte(a)), sha256.Sum256([]byte(b))
	return subtle.ConstantTimeCompare(ha[:], hb[:]) == 1
}

// attempts is the guard of the endpoints that check a credential.
func (s *SelfService) attempts() Attempts {
	return Attempts{Guard: s.Guard, Remote: s.Remote, LogAttrs: s.LogAttrs, Registry: s.Registry}
}

// bearerIs reports whether r carries one of tokens as its bearer token,
// under the guard (Attempts.Bearer; wrong is the log's reason for a wrong
// token). Otherwise it answers 401 with the RFC 6750 challenge, or 429
// with Retry-After when the guard refuses r's address another guess.
func (s *SelfService) bearerIs(w http.ResponseWriter, r *http.Request, wrong string, tokens ...string) bool {
	switch s.attempts().Bearer(w, r, wrong, tokens...) {
	case BearerAccepted:
		return true
	case BearerLimited:
		writeJSON(w, http.StatusTooManyRequests, oauthError{Error: "invalid_token", Description: TooManyFailures})
		return false
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="`+Realm+`", error="invalid_token"`)
	writeJSON(w, http.StatusUnauthorized, oauthError{Error: "invalid_token", Description: "A valid operator-issued token is required"})
	return false
}

// Reasons a bearer token is refused, for the log.
const (
	reasonWrongOperatorToken = "wrong_operator_token"
	reasonWrongInitialToken  = "wrong_initial_access_token"
)

// noStore marks an answer that carries or speaks of credentials.
func noStore(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
}

// fail answers with an OAuth-shaped error.
func (s *SelfService) fail(w http.ResponseWriter, r *http.Request, err error) {
	if bodyTooLarge(w, err) {
		return
	}
	status, code := http.StatusInternalServerError, "server_error"
	msg := "The server could not process the request"
	var e *energy.Error
	if errors.As(err, &e) {
		switch e.Code {
		case energy.Invalid:
			status, code, msg = http.StatusBadRequest, "invalid_request", e.Message
		case energy.NotFound:
			status, code, msg = http.StatusNotFound, "not_found", e.Message
		case energy.Conflict:
			status, code, msg = http.StatusConflict, "conflict", e.Message
		case energy.Unavailable:
			status, code, msg = http.StatusServiceUnavailable, "temporarily_unavailable", "The store does not answer; retry later"
			w.Header().Set("Retry-After", "1")
		}
	}
	if status == http.StatusInternalServerError {
		s.Log.ErrorContext(r.Context(), "registration", "err", err)
	}
	writeJSON(w, status, oauthError{Error: code, Description: msg})
}

// remote returns the fingerprint of the unit (AddrKey) of r's address: the
// per-address limit counts fingerprints, and no address is stored.
func (s *SelfService) remote(r *http.Request) string {
	addr := r.RemoteAddr
	if s.Remote != nil {
		addr = s.Remote(r)
	}
	if s.AddrKey != nil {
		addr = s.AddrKey(addr)
	}
	return Fingerprint(addr)
}

// clientStatus names a client's state for the pages.
func clientStatus(c Client) string {
	switch {
	case !c.Active():
		return "revoked"
	case c.Pending():
		return "pending"
	}
	return "active"
}

type registrationRequest struct {
	Name    string `json:"name"`
	Contact string `json:"contact"`
}

type appJSON struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret,omitempty"`
	Name         string `json:"name"`
	Contact      string `json:"contact,omitempty"`
	Created      string `json:"created,omitempty"`
	Status       string `json:"status"`
	Origin       string `json:"origin,omitempty"`
}

func newAppJSON(c Client, reg Registration, secret string) appJSON {
	return appJSON{ClientID: c.ID, ClientSecret: secret, Name: c.Name, Contact: reg.Contact,
		Created: c.Created.UTC().Format(time.RFC3339), Status: clientStatus(c), Origin: reg.Origin}
}

// HandleRegister serves the developer page's registration: a name and a
// contact address in, a client ID and a secret, shown once, out.
func (s *SelfService) HandleRegister() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		noStore(w)
		var req registrationRequest
		if err := decodeJSON(w, r, &req); err != nil {
			s.fail(w, r, err)
			return
		}
		if req.Contact == "" {
			s.fail(w, r, energy.Errorf(energy.Invalid, "A contact address is required"))
			return
		}
		reg := Registration{Contact: req.Contact, Origin: OriginWeb, Addr: s.remote(r)}
		c, secret, ok, err := s.Registry.Register(r.Context(), req.Name, reg, s.Mode == RegistrationApproval, s.PerHour)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if !ok {
			s.tooMany(w)
			return
		}
		s.Log.InfoContext(r.Context(), "client registered", "client_id", c.ID, "status", clientStatus(c))
		writeJSON(w, http.StatusCreated, newAppJSON(c, reg, secret))
	})
}

// tooMany answers a registration over the per-address limit: 429, to be
// retried within the hour.
func (s *SelfService) tooMany(w http.ResponseWriter) {
	w.Header().Set("Retry-After", strconv.Itoa(int(time.Hour/time.Second)))
	writeJSON(w, http.StatusTooManyRequests, oauthError{Error: "too_many_requests",
		Description: fmt.Sprintf("At most %d registrations an hour from one address; retry later", s.PerHour)})
}

// HandleApp answers a signed-in developer (a bearer token) with their application.
func (s *SelfService) HandleApp() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		noStore(w)
		id, ok := bearerClient(w, r, s.Tokens, func(w http.ResponseWriter, r *http.Request, err error) {
			writeJSON(w, http.StatusUnauthorized, oauthError{Error: "invalid_token", Description: "Sign in again: the access token is missing, expired or revoked"})
		})
		if !ok || (s.Pace != nil && !s.Pace(w, r, id)) {
			return
		}
		// From memory: the client and its registration as the registry
		// holds them, which a token of a client it did not hold has
		// just made it load (tokenValid).
		if c, reg, held := s.Registry.held(id); held {
			writeJSON(w, http.StatusOK, newAppJSON(c, reg, ""))
			return
		}
		s.writeApp(w, r, id, "")
	})
}

func (s *SelfService) writeApp(w http.ResponseWriter, r *http.Request, id, secret string) {
	c, err := s.Registry.store.Client(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	reg, err := s.Registry.RegistrationOf(r.Context(), id)
	if err != nil && energy.ErrorCode(err) != energy.NotFound {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, newAppJSON(c, reg, secret))
}

// clientAuth authenticates the client of r by its credentials, as the token
// endpoint does (HTTP Basic or the form) and under its guard, or answers
// 401 invalid_client (429 when the guard refuses another guess).
func (s *SelfService) clientAuth(w http.ResponseWriter, r *http.Request) (Client, bool) {
	r.Body = http.MaxBytesReader(w, r.Body, MaxTokenRequest)
	if err := r.ParseForm(); err != nil {
		if !bodyTooLarge(w, err) {
			writeJSON(w, http.StatusBadRequest, oauthError{Error: "invalid_request", Description: "The request body is not a valid form"})
		}
		return Client{}, false
	}
	id, secret, basic, msg := clientCredentials(r, r.PostForm)
	if msg != "" {
		writeJSON(w, http.StatusBadRequest, oauthError{Error: "invalid_request", Description: msg})
		return Client{}, false
	}
	a := s.attempts()
	if retry, ok := a.Allow(r, id); !ok {
		w.Header().Set("Retry-After", retry)
		a.Note(r, reasonGuardLimit, id, false)
		writeJSON(w, http.StatusTooManyRequests, oauthError{Error: "invalid_client", Description: TooManyFailures})
		return Client{}, false
	}
	c, err := s.Registry.Authenticate(r.Context(), id, secret)
	if energy.ErrorCode(err) == energy.Unauthorized {
		a.Failed(r, id)
		why := FailureReason(err)
		a.Note(r, string(InvalidClient)+": "+why, id, why != ReasonUnknownClient)
		if basic {
			w.Header().Set("WWW-Authenticate", `Basic realm="`+Realm+`"`)
		}
		writeJSON(w, http.StatusUnauthorized, oauthError{Error: "invalid_client", Description: "Client authentication failed"})
		return Client{}, false
	}
	if err != nil {
		s.fail(w, r, err)
		return Client{}, false
	}
	return c, true
}

// ownClient is the start of a developer's change to their own client: the
// answer is not to be stored, the client authenticates by its credentials
// (clientAuth) and must not be Reserved (refuseReserved). It reports false
// when it has answered.
func (s *SelfService) ownClient(w http.ResponseWriter, r *http.Request, change string) (Client, bool) {
	noStore(w)
	c, ok := s.clientAuth(w, r)
	if !ok || s.refuseReserved(w, r, c, change) {
		return Client{}, false
	}
	return c, true
}

// refuseReserved answers 403 and reports true if c is one of the Reserved
// clients, which the developer endpoints must not change.
func (s *SelfService) refuseReserved(w http.ResponseWriter, r *http.Request, c Client, change string) bool {
	if !slices.Contains(s.Reserved, c.ID) {
		return false
	}
	s.Log.InfoContext(r.Context(), "reserved client change refused", "client_id", c.ID, "change", change)
	writeJSON(w, http.StatusForbidden, oauthError{Error: "access_denied",
		Description: fmt.Sprintf("client %s is reserved: its secret is public, so it cannot be rotated or deleted", c.ID)})
	return true
}

// HandleRotate gives the client that authenticates with its credentials a
// new secret, shown once; the old one and every token issued with it stop
// working at once, on every replica. A Reserved client is refused with 403.
func (s *SelfService) HandleRotate() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, ok := s.ownClient(w, r, "rotate")
		if !ok {
			return
		}
		_, secret, err := s.Registry.Rotate(r.Context(), c.ID)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		s.Log.InfoContext(r.Context(), "client secret rotated", "client_id", c.ID)
		s.writeApp(w, r, c.ID, secret)
	})
}

// HandleDelete deletes the application of the client that authenticates
// with its credentials: the client is revoked, at once on every replica,
// and its record kept for the operator. A Reserved client is refused with 403.
func (s *SelfService) HandleDelete() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, ok := s.ownClient(w, r, "delete")
		if !ok {
			return
		}
		if err := s.Registry.Revoke(r.Context(), c.ID); err != nil {
			s.fail(w, r, err)
			return
		}
		s.Log.InfoContext(r.Context(), "client deleted by its developer", "client_id", c.ID)
		w.WriteHeader(http.StatusNoContent)
	})
}

// HandleOperatorClients lists every client, with its registration, for the
// operator.
func (s *SelfService) HandleOperatorClients() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		noStore(w)
		if !s.bearerIs(w, r, reasonWrongOperatorToken, s.OperatorToken) {
			return
		}
		list, err := s.listApps(r.Context())
		if err != nil {
			s.fail(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, struct {
			Clients []appJSON `json:"clients"`
		}{list})
	})
}

func (s *SelfService) listApps(ctx context.Context) ([]appJSON, error) {
	cs, err := s.Registry.List(ctx)
	if err != nil {
		return nil, err
	}
	regs, err := s.Registry.Registrations(ctx)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]Registration, len(regs))
	for _, reg := range regs {
		byID[reg.ClientID] = reg
	}
	out := make([]appJSON, 0, len(cs))
	for _, c := range cs {
		out = append(out, newAppJSON(c, byID[c.ID], ""))
	}
	return out, nil
}

// HandleApprove approves a pending client for the operator.
func (s *SelfService) HandleApprove() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		noStore(w)
		if !s.bearerIs(w, r, reasonWrongOperatorToken, s.OperatorToken) {
			return
		}
		id := r.PathValue("id")
		if err := s.Registry.Approve(r.Context(), id); err != nil {
			s.fail(w, r, err)
			return
		}
		s.Log.InfoContext(r.Context(), "client approved", "client_id", id)
		s.writeApp(w, r, id, "")
	})
}

// RefuseUnavailable answers 503 in the OAuth error shape of these endpoints and
// the token endpoint (temporarily_unavailable, no-store), with Retry-After
// retry: how the server's overload and deadline refusals answer them.
func RefuseUnavailable(w http.ResponseWriter, retry, msg string) {
	noStore(w)
	w.Header().Set("Retry-After", retry)
	writeJSON(w, http.StatusServiceUnavailable, oauthError{Error: "temporarily_unavailable", Description: msg})
}

// IsOAuthPath reports whether path is one of the endpoints that answer in
// the OAuth error shape (RFC 6749 section 5.2) rather than the result
// envelope: the token endpoint (and its legacy path), the RFC endpoints,
// and the developer's and operator's.
func IsOAuthPath(path string) bool {
	switch path {
	case TokenPath, LegacyTokenPath, RegisterPath, RevokePath, IntrospectPath, MetadataPath:
		return true
	}
	return strings.HasPrefix(path, "/developers/") || strings.HasPrefix(path, "/operator/")
}

// RefuseMethod answers 405 with an Allow header listing allow, in the
// OAuth error shape of these endpoints (the token endpoint answers its own).
func RefuseMethod(allow string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		noStore(w)
		w.Header().Set("Allow", allow)
		writeJSON(w, http.StatusMethodNotAllowed, oauthError{Error: "invalid_request",
			Description: fmt.Sprintf("Method Not Allowed: %s answers %s only", r.URL.Path, allow)})
	})
}
