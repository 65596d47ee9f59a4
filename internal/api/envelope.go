package api

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Codes that only the HTTP edge produces; domain codes come from energy.
const (
	notAcceptable    energy.Code = "not_acceptable"
	tooMany          energy.Code = "too_many_requests"
	tooLarge         energy.Code = "too_large"
	methodNotAllowed energy.Code = "method_not_allowed"
)

// errNotAcceptable answers an Accept header that admits neither representation.
var errNotAcceptable = energy.Errorf(notAcceptable, "Not Acceptable: this endpoint answers application/json or text/csv")

// Status values of the result envelope.
const (
	statusCompleted = "Completed"
	statusError     = "ERROR"
)

// result is the status wrapper of every data response (spec 2.2).
type result struct {
	Message string `json:"message"`
	Status  string `json:"status"`
}

type errorResponse struct {
	Result result `json:"result"`
}

// statusOf is the one table from error code to HTTP status.
func statusOf(c energy.Code) int {
	switch c {
	case energy.Invalid:
		return http.StatusBadRequest
	case energy.Unauthorized:
		return http.StatusUnauthorized
	case energy.NotFound:
		return http.StatusNotFound
	case energy.Conflict:
		return http.StatusConflict
	case notAcceptable:
		return http.StatusNotAcceptable
	case tooMany:
		return http.StatusTooManyRequests
	case energy.Unavailable:
		return http.StatusServiceUnavailable
	case tooLarge:
		return http.StatusRequestEntityTooLarge
	case methodNotAllowed:
		return http.StatusMethodNotAllowed
	}
	return http.StatusInternalServerError
}

// writeError answers with the result envelope, status ERROR. Errors that are
// not *energy.Error are internal: they are logged in full and the caller gets
// a generic message. A 503 always says when to retry: 1 s, unless the
// caller set Retry-After already.
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	code := energy.ErrorCode(err)
	status := statusOf(code)
	if status == http.StatusServiceUnavailable && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", "1")
	}
	var e *energy.Error
	if !errors.As(err, &e) {
		log.ErrorContext(r.Context(), "request failed", "err", err)
	}
	msg := energy.ErrorMessage(err)
	if code == energy.Invalid {
		msg = "Input Validation Error: " + msg
	}
	encode(w, status, errorResponse{Result: result{Message: msg, Status: statusError}})
}

// writeUnavailable answers 503 with Retry-After secs, for a refusal of the
// server's own (overload, a deadline) that can meet any path: in the OAuth
// error shape on the OAuth endpoints, whose clients read no other, and in
// the result envelope everywhere else.
func writeUnavailable(w http.ResponseWriter, r *http.Request, log *slog.Logger, secs, msg string) {
	if auth.IsOAuthPath(r.URL.Path) {
		auth.RefuseUnavailable(w, secs, msg)
		return
	}
	w.Header().Set("Retry-After", secs)
	writeError(w, r, log, energy.Errorf(energy.Unavailable, "%s", msg))
}

// writeQueryError answers a request for d whose parameters ParseQuery
// refused, in the style d's area documents (dataset.Validation): the v1.0
// pages' 406, their wording and their spelling of the message field.
func writeQueryError(w http.ResponseWriter, r *http.Request, log *slog.Logger, d *dataset.Dataset, err error) {
	if d.Validation != dataset.ValidationV1 || energy.ErrorCode(err) != energy.Invalid {
		writeError(w, r, log, err)
		return
	}
	msg := "Input Validation Error: the value entered is incorrect or does not conform to the expected format. Value entered: " + energy.ErrorMessage(err)
	encode(w, http.StatusNotAcceptable, map[string]map[string]string{"result": {d.ResultMessageKey(): msg, "status": statusError}})
}

// encode writes v as the JSON body. Values are our own response types, which
// always marshal.
func encode(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"result":{"message":"Information retrieval error","status":"ERROR"}}`)
	}
	writeBody(w, status, b)
}

func writeBody(w http.ResponseWriter, status int, b []byte) {
	writeBodyAs(w, "application/json", status, b)
}

func writeBodyAs(w http.ResponseWriter, contentType string, status int, b []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeEmpty answers 200 with no body at all: the API's answer to a filter
// value that matches nothing it knows (spec 4.2 rule 1).
func writeEmpty(w http.ResponseWriter) {
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(http.StatusOK)
}
