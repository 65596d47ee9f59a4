package client

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// ErrorKind classifies errors for errors.Is. The kinds are constants, so no
// caller can reassign them.
type ErrorKind string

func (k ErrorKind) Error() string { return "client: " + string(k) }

// Kinds of API errors. errors.Is(err, ErrUnauthorized) holds for an
// *APIError of that kind anywhere in err's chain.
const (
	// ErrUnauthorized: the credentials were refused (401), at the token
	// endpoint or, after a fresh token, at a data endpoint.
	ErrUnauthorized ErrorKind = "unauthorized"
	// ErrNotFound: the server does not serve the path (404).
	ErrNotFound ErrorKind = "not found"
	// ErrInvalidInput: the server refused a parameter (400).
	ErrInvalidInput ErrorKind = "invalid input"
	// ErrRateLimited: over the rate, still after the retries (429, or 403
	// "Developer Over Qps").
	ErrRateLimited ErrorKind = "rate limited"
	// ErrOverQuota: the credentials' calls for the day are used up: the
	// quota gateway's 403 "Developer Over Rate". It is not retried: the
	// quota comes back at the gateway's reset (00:00 UTC).
	ErrOverQuota ErrorKind = "over quota"
)

// APIError is an answer of the server other than success.
type APIError struct {
	// StatusCode is the HTTP status.
	StatusCode int
	// Code is the machine-readable reason when the server gives one: the
	// OAuth 2.0 error code of the token endpoint ("invalid_client") or of a
	// bearer challenge ("invalid_token"), otherwise the result envelope's
	// status ("ERROR"). It is empty for a body in neither shape.
	Code string
	// Message is the server's explanation: the envelope's result.message,
	// the OAuth error_description, or the start of a body in another shape.
	Message string
	// RetryAfter is the wait the server asked for in Retry-After, or 0.
	RetryAfter time.Duration

	// staleToken marks a data endpoint's 401: the client fetches a new token
	// and tries once more.
	staleToken bool
}

func (e *APIError) Error() string {
	s := "client: HTTP " + strconv.Itoa(e.StatusCode)
	if e.Code != "" {
		s += " " + e.Code
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Is reports whether e is of the kind target names.
func (e *APIError) Is(target error) bool {
	k, ok := target.(ErrorKind)
	if !ok {
		return false
	}
	switch k {
	case ErrUnauthorized:
		return e.StatusCode == http.StatusUnauthorized
	case ErrNotFound:
		return e.StatusCode == http.StatusNotFound
	case ErrInvalidInput:
		return e.StatusCode == http.StatusBadRequest
	case ErrRateLimited:
		return e.StatusCode == http.StatusTooManyRequests || e.overQPS()
	case ErrOverQuota:
		return e.StatusCode == http.StatusForbidden && strings.Contains(strings.ToLower(e.Message), "over rate")
	}
	return false
}

// overQPS recognises the quota gateway's 403 "Developer Over Qps", which
// means "too many requests", not "forbidden".
func (e *APIError) overQPS() bool {
	return e.StatusCode == http.StatusForbidden && strings.Contains(strings.ToLower(e.Message), "over qps")
}

// retryable reports whether the same request may succeed later.
func (e *APIError) retryable() bool {
	switch e.StatusCode {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return e.overQPS()
}

// maxMessage bounds the part of an unexpected body an APIError repeats.
const maxMessage = 300

// newAPIError reads an error answer: the data endpoints' result envelope,
// the token endpoint's RFC 6749 shape, or anything else.
func newAPIError(status int, h http.Header, body []byte, now time.Time) *APIError {
	e := &APIError{StatusCode: status, RetryAfter: retryAfter(h.Get("Retry-After"), now)}
	var shape struct {
		Result *struct {
			Message  string `json:"message"`
			Messagge string `json:"messagge"` // the v1.0 Market, Adequacy and Outages pages' spelling
			Status   string `json:"status"`
		} `json:"result"`
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	switch err := json.Unmarshal(body, &shape); {
	case err == nil && shape.Result != nil:
		e.Code, e.Message = shape.Result.Status, cmp.Or(shape.Result.Message, shape.Result.Messagge)
	case err == nil && shape.Error != "":
		e.Code, e.Message = shape.Error, shape.Description
	default:
		e.Message = truncate(strings.TrimSpace(string(body)), maxMessage)
	}
	if e.Message == "" {
		e.Message = http.StatusText(status)
	}
	if status == http.StatusUnauthorized {
		if c := challengeError(h.Get("WWW-Authenticate")); c != "" {
			e.Code = c
		}
	}
	return e
}

// challengeError returns the error parameter of an RFC 6750 challenge.
func challengeError(h string) string {
	_, rest, ok := strings.Cut(h, `error="`)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

// retryAfter reads a Retry-After value: delay seconds or an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil {
		if s < 0 {
			return 0
		}
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// recordError reports a record the client cannot read.
func recordError(endpoint string, i int, field, value string, err error) error {
	return fmt.Errorf("client: %s record %d: %s %q: %w", endpoint, i, field, value, err)
}
