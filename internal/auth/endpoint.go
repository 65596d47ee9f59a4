package auth

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// MaxTokenRequest bounds the token request body: a client-credentials form is
// a few hundred bytes.
const MaxTokenRequest = 8 << 10

// TokenOutcome names how a token request ended, for metrics.
type TokenOutcome string

// Token request outcomes.
const (
	Issued           TokenOutcome = "issued"
	InvalidRequest   TokenOutcome = "invalid_request"
	UnsupportedGrant TokenOutcome = "unsupported_grant_type"
	InvalidClient    TokenOutcome = "invalid_client"
	RateLimited      TokenOutcome = "rate_limited"
	ServerError      TokenOutcome = "server_error"
	MethodNotAllowed TokenOutcome = "method_not_allowed"
	RequestTooLarge  TokenOutcome = "request_too_large"
	// Unavailable: the credentials needed the store, which did not answer
	// in time (503 with Retry-After).
	Unavailable TokenOutcome = "temporarily_unavailable"
)

// FailureGuard slows down credential guessing: it is asked before a client is
// authenticated and told of every failed authentication.
type FailureGuard interface {
	// Allow reports whether an authentication attempt may proceed and, if not,
	// how long the caller should wait.
	Allow(clientID, remote string) (retryAfter time.Duration, ok bool)
	// Failed records a failed authentication.
	Failed(clientID, remote string)
}

// TokenEndpoint serves the OAuth 2.0 client-credentials grant (RFC 6749 section 4.4).
type TokenEndpoint struct {
	Registry *Registry
	Tokens   *Tokens
	Log      *slog.Logger
	Guard    FailureGuard                           // optional
	Observe  func(TokenOutcome)                     // optional
	Remote   func(*http.Request) string             // the caller's address for Guard; optional
	SetLogID func(r *http.Request, clientID string) // records the client in the request log; optional
	// LogAttrs adds attributes to the request's log line; optional. The
	// endpoint adds, for a refused request, the reason and the client it named.
	LogAttrs func(r *http.Request, attrs ...slog.Attr)
}

type tokenResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int    `json:"expires_in"`
}

type oauthError struct {
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

func (e *TokenEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if f := e.serve(w, r); f.reason != "" {
		e.attempts().Note(r, f.reason, f.clientID, f.registered)
	}
}

// attempts is the endpoint's guard, as every guarded path meets it.
func (e *TokenEndpoint) attempts() Attempts {
	return Attempts{Guard: e.Guard, Remote: e.Remote, LogAttrs: e.LogAttrs, Registry: e.Registry}
}

// StatusClientClosedRequest is the status the request log and metrics record
// for a token request whose caller went away before the answer (nginx's
// 499); the caller, gone, never sees it.
const StatusClientClosedRequest = 499

// refusal is what the log learns of a refused token request.
type refusal struct {
	reason     string // why, never anything secret; "" when a token was issued
	clientID   string // the client the request named, if any
	registered bool   // the store knows that client
}

// serve answers the token request and, if it refused it, says why.
func (e *TokenEndpoint) serve(w http.ResponseWriter, r *http.Request) refusal {
	// Every answer, error or not, carries credentials or speaks of them: never cache.
	h := w.Header()
	h["Cache-Control"] = noStoreValue
	h["Pragma"] = noCacheValue
	form, f := e.readForm(w, r)
	if f.reason != "" {
		return f
	}
	named := form.Get("client_id")
	id, secret, basic, msg := clientCredentials(r, form)
	if msg != "" {
		return refusal{clientID: cmp.Or(id, named), reason: e.fail(w, http.StatusBadRequest, InvalidRequest, "invalid_request", msg)}
	}
	if retry, ok := e.attempts().Allow(r, id); !ok {
		w.Header().Set("Retry-After", retry)
		return refusal{clientID: id, reason: e.fail(w, http.StatusTooManyRequests, RateLimited, "invalid_client", TooManyFailures)}
	}
	client, err := e.Registry.Authenticate(r.Context(), id, secret)
	if err != nil {
		return e.refuse(w, r, err, id, basic)
	}
	if e.SetLogID != nil {
		e.SetLogID(r, client.ID)
	}
	tok, err := e.Tokens.Issue(client)
	if err != nil {
		e.Log.ErrorContext(r.Context(), "token: issue", "err", err)
		return refusal{reason: e.fail(w, http.StatusInternalServerError, ServerError, "server_error", "The server could not issue a token")}
	}
	e.observe(Issued)
	e.writeToken(w, tok)
	return refusal{}
}

// Header values of every token answer, shared rather than made anew (net/http
// only reads them).
var (
	tokenJSONType = []string{"application/json;charset=UTF-8"}
	noStoreValue  = []string{"no-store"}
	noCacheValue  = []string{"no-cache"}
)

// writeToken writes the answer of an issued token: writeJSON's bytes for a
// tokenResponse, appended directly. The token needs no escaping: Issue
// signs only Base64url parts joined by dots (TestWriteTokenAsWriteJSON),
// and checking its 400 bytes one by one cost half as much as the rest.
func (e *TokenEndpoint) writeToken(w http.ResponseWriter, tok string) {
	ttl := int(e.Tokens.TTL() / time.Second)
	b := make([]byte, 0, len(tok)+64)
	b = append(append(append(b, `{"access_token":"`...), tok...), `","token_type":"bearer","expires_in":`...)
	b = append(strconv.AppendInt(b, int64(ttl), 10), '}')
	h := w.Header()
	h["Content-Type"] = tokenJSONType
	h["Content-Length"] = []string{strconv.Itoa(len(b))}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// readForm returns the form of a well-formed client-credentials request:
// a POST of a form, each parameter once, grant_type client_credentials.
// Otherwise it answers the error and returns why.
func (e *TokenEndpoint) readForm(w http.ResponseWriter, r *http.Request) (url.Values, refusal) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		return nil, refusal{reason: e.fail(w, http.StatusMethodNotAllowed, MethodNotAllowed, "invalid_request", "The token endpoint accepts only POST")}
	}
	if !isForm(r.Header.Get("Content-Type")) {
		return nil, refusal{reason: e.fail(w, http.StatusBadRequest, InvalidRequest, "invalid_request", "Content-Type must be application/x-www-form-urlencoded")}
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxTokenRequest)
	if err := parsePostForm(r); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, refusal{reason: e.fail(w, http.StatusRequestEntityTooLarge, RequestTooLarge, "invalid_request", "The request body is larger than "+strconv.Itoa(MaxTokenRequest)+" bytes")}
		}
		return nil, refusal{reason: e.fail(w, http.StatusBadRequest, InvalidRequest, "invalid_request", "The request body is not a valid form")}
	}
	form := r.PostForm // never the query string: credentials do not belong in URLs
	named := form.Get("client_id")
	for name, vs := range form {
		if len(vs) > 1 {
			return nil, refusal{clientID: named, reason: e.fail(w, http.StatusBadRequest, InvalidRequest, "invalid_request", "Parameter "+name+" is repeated")}
		}
	}
	grant := form.Get("grant_type")
	if grant == "" {
		return nil, refusal{clientID: named, reason: e.fail(w, http.StatusBadRequest, InvalidRequest, "invalid_request", "Missing parameter grant_type")}
	}
	if grant != "client_credentials" {
		return nil, refusal{clientID: named, reason: e.fail(w, http.StatusBadRequest, UnsupportedGrant, "unsupported_grant_type", "grant_type must be client_credentials")}
	}
	return form, refusal{}
}

// parsePostForm does for a POST of a form what r.ParseForm does, with the
// same errors and the same r.PostForm after them (a sandbox's journal reads
// it), but leaves r.Form alone: ParseForm copies every value into it, and
// nothing reads it (the query string never holds credentials), a fifth of
// the form's cost. r.Body is a MaxBytesReader, so ParseForm's own 10 MB
// limit does not apply.
func parsePostForm(r *http.Request) error {
	if r.Body == nil {
		r.PostForm = url.Values{}
		return errors.New("missing form body")
	}
	var vs url.Values
	b, err := io.ReadAll(r.Body)
	if err == nil {
		vs, err = url.ParseQuery(string(b))
	}
	if vs == nil {
		vs = url.Values{}
	}
	r.PostForm = vs
	if r.URL.RawQuery != "" { // ParseForm refuses a query string it cannot parse too
		if _, e := url.ParseQuery(r.URL.RawQuery); err == nil {
			err = e
		}
	}
	return err
}

// refuse answers a token request whose client Authenticate did not accept
// with err: the caller gone, the store unavailable (503), a server error,
// or the credentials wrong (401, counted by the guard against id from
// r's address; basic says they came in an Authorization header).
func (e *TokenEndpoint) refuse(w http.ResponseWriter, r *http.Request, err error, id string, basic bool) refusal {
	if clientGone(r, err) {
		// Not a fault of the server's: nothing to answer, nothing to alarm anyone.
		e.Log.DebugContext(r.Context(), "token: client went away", "err", err)
		w.WriteHeader(StatusClientClosedRequest)
		return refusal{clientID: id, reason: "client_canceled"}
	}
	if energy.ErrorCode(err) == energy.Unavailable {
		// The credentials were not judged (the guard is not told): the
		// client may retry as it would after any 503. The error code is
		// the authorization endpoint's (RFC 6749 section 4.1.2.1); section
		// 5.2 has none for a server that cannot answer now.
		w.Header().Set("Retry-After", "1")
		return refusal{clientID: id, reason: e.fail(w, http.StatusServiceUnavailable, Unavailable, "temporarily_unavailable", "The server cannot check client credentials now; retry after 1 s")}
	}
	if energy.ErrorCode(err) != energy.Unauthorized {
		e.Log.ErrorContext(r.Context(), "token: authenticate", "err", err)
		return refusal{clientID: id, reason: e.fail(w, http.StatusInternalServerError, ServerError, "server_error", "The server could not process the request")}
	}
	e.attempts().Failed(r, id)
	if basic {
		w.Header().Set("WWW-Authenticate", `Basic realm="`+Realm+`"`)
	}
	why := FailureReason(err)
	desc := "Client authentication failed"
	if why == ReasonPendingClient { // said only to whoever knows the secret
		desc = "The client awaits approval by the operator"
	}
	e.fail(w, http.StatusUnauthorized, InvalidClient, "invalid_client", desc)
	return refusal{clientID: id, reason: string(InvalidClient) + ": " + why, registered: why != ReasonUnknownClient}
}

// clientGone reports whether err only says that the caller went away: its
// request's context was cancelled (a closed connection, an HTTP/2 stream
// reset), not past a deadline.
func clientGone(r *http.Request, err error) bool {
	return errors.Is(err, context.Canceled) && errors.Is(r.Context().Err(), context.Canceled)
}

// Fingerprint returns the first 64 bits of the SHA-256 of s in hex: enough to
// tell IDs apart in a log, or to check one against a suspect, without
// writing down what may be a secret.
func Fingerprint(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

// isForm reports whether a Content-Type names a form, parsing it only when
// it is not the plain value that nearly every client sends.
func isForm(contentType string) bool {
	const form = "application/x-www-form-urlencoded"
	if contentType == form {
		return true
	}
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == form
}

// clientCredentials reads the client's credentials from the form
// (client_secret_post) or from HTTP Basic (client_secret_basic), whose parts
// are form-url-encoded before Base64 (RFC 6749 section 2.3.1). Using both
// methods at once is refused (section 2.3). msg is non-empty on a bad request.
func clientCredentials(r *http.Request, form url.Values) (id, secret string, basic bool, msg string) {
	if _, ok := r.Header["Authorization"]; ok {
		user, pass, ok := r.BasicAuth()
		if !ok {
			return "", "", false, "The Authorization header is not valid HTTP Basic"
		}
		var err1, err2 error
		id, err1 = url.QueryUnescape(user)
		secret, err2 = url.QueryUnescape(pass)
		if err1 != nil || err2 != nil {
			return "", "", false, "The Basic credentials are not form-url-encoded"
		}
		if _, ok := form["client_secret"]; ok {
			return "", "", false, "Client credentials sent both in the Authorization header and in the body"
		}
		if fid, ok := form["client_id"]; ok && fid[0] != id {
			return "", "", false, "client_id in the body differs from the Authorization header"
		}
		if id == "" {
			return "", "", false, "Missing client_id"
		}
		return id, secret, true, ""
	}
	id, secret = form.Get("client_id"), form.Get("client_secret")
	switch {
	case id == "":
		return "", "", false, "Missing parameter client_id"
	case secret == "":
		return "", "", false, "Missing parameter client_secret"
	}
	return id, secret, false, ""
}

func (e *TokenEndpoint) observe(o TokenOutcome) {
	if e.Observe != nil {
		e.Observe(o)
	}
}

// fail answers with an RFC 6749 error and returns the reason for the log:
// the outcome and the description the caller is given.
func (e *TokenEndpoint) fail(w http.ResponseWriter, status int, o TokenOutcome, code, desc string) string {
	e.observe(o)
	writeJSON(w, status, oauthError{Error: code, Description: desc})
	return string(o) + ": " + desc
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil { // the values above always marshal
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
