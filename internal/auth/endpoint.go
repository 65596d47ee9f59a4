package auth

import (
	"encoding/json"
	"errors"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// maxTokenRequest bounds the token request body: a client-credentials form is
// a few hundred bytes.
const maxTokenRequest = 8 << 10

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
	// Every answer, error or not, carries credentials or speaks of them: never cache.
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		e.fail(w, http.StatusMethodNotAllowed, MethodNotAllowed, "invalid_request", "The token endpoint accepts only POST")
		return
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/x-www-form-urlencoded" {
		e.fail(w, http.StatusBadRequest, InvalidRequest, "invalid_request", "Content-Type must be application/x-www-form-urlencoded")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxTokenRequest)
	if err := r.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			e.fail(w, http.StatusRequestEntityTooLarge, RequestTooLarge, "invalid_request", "The request body is larger than "+strconv.Itoa(maxTokenRequest)+" bytes")
			return
		}
		e.fail(w, http.StatusBadRequest, InvalidRequest, "invalid_request", "The request body is not a valid form")
		return
	}
	form := r.PostForm // never the query string: credentials do not belong in URLs
	for name, vs := range form {
		if len(vs) > 1 {
			e.fail(w, http.StatusBadRequest, InvalidRequest, "invalid_request", "Parameter "+name+" is repeated")
			return
		}
	}
	grant := form.Get("grant_type")
	if grant == "" {
		e.fail(w, http.StatusBadRequest, InvalidRequest, "invalid_request", "Missing parameter grant_type")
		return
	}
	if grant != "client_credentials" {
		e.fail(w, http.StatusBadRequest, UnsupportedGrant, "unsupported_grant_type", "grant_type must be client_credentials")
		return
	}
	id, secret, basic, msg := clientCredentials(r, form)
	if msg != "" {
		e.fail(w, http.StatusBadRequest, InvalidRequest, "invalid_request", msg)
		return
	}
	remote := ""
	if e.Remote != nil {
		remote = e.Remote(r)
	}
	if e.Guard != nil {
		if wait, ok := e.Guard.Allow(id, remote); !ok {
			w.Header().Set("Retry-After", strconv.Itoa(int((wait+time.Second-1)/time.Second)))
			e.fail(w, http.StatusTooManyRequests, RateLimited, "invalid_client", "Too many failed authentications; retry later")
			return
		}
	}
	client, err := e.Registry.Authenticate(r.Context(), id, secret)
	if err != nil {
		if energy.ErrorCode(err) != energy.Unauthorized {
			e.Log.ErrorContext(r.Context(), "token: authenticate", "err", err)
			e.fail(w, http.StatusInternalServerError, ServerError, "server_error", "The server could not process the request")
			return
		}
		if e.Guard != nil {
			e.Guard.Failed(id, remote)
		}
		if basic {
			w.Header().Set("WWW-Authenticate", `Basic realm="`+Realm+`"`)
		}
		e.fail(w, http.StatusUnauthorized, InvalidClient, "invalid_client", "Client authentication failed")
		return
	}
	if e.SetLogID != nil {
		e.SetLogID(r, client.ID)
	}
	tok, err := e.Tokens.Issue(client.ID)
	if err != nil {
		e.Log.ErrorContext(r.Context(), "token: issue", "err", err)
		e.fail(w, http.StatusInternalServerError, ServerError, "server_error", "The server could not issue a token")
		return
	}
	e.observe(Issued)
	writeJSON(w, http.StatusOK, tokenResponse{AccessToken: tok, TokenType: "bearer", ExpiresIn: int(e.Tokens.TTL() / time.Second)})
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

func (e *TokenEndpoint) fail(w http.ResponseWriter, status int, o TokenOutcome, code, desc string) {
	e.observe(o)
	writeJSON(w, status, oauthError{Error: code, Description: desc})
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
