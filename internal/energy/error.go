// Package energy is the domain of the Energy Data API, the vocabulary that
// every other package shares: calendar days and instants in Europe/Rome
// (date.go, querydate.go); numbers as the family writes them (number.go);
// the reference lists that filters and imports match values against, with
// their accepted spellings (reference.go, names*.go); the bidding zones,
// quarter-hourly load points and the daily peak and valley derived from
// them (load.go, derive.go), which the total-load importer and the
// peak-valley derivation work with; the counts an import reports
// (store.go); and Error with the codes that the edges map once. It imports
// nothing from this repository and knows nothing of HTTP or SQL. Records
// themselves are rows of the datasets that internal/catalog declares and
// internal/dataset stores and serves; this package has no type per dataset.
package energy

import (
	"errors"
	"fmt"
)

// Code classifies an error so that the edges (HTTP, CLI) can map it once.
type Code string

// Error codes.
const (
	Invalid      Code = "invalid"
	NotFound     Code = "not_found"
	Unauthorized Code = "unauthorized"
	Conflict     Code = "conflict"
	// Unavailable: the request cannot be served now (the store does not
	// answer, or the server is at its limits); the caller may retry later.
	Unavailable Code = "unavailable"
	Internal    Code = "internal"
)

// Error is a domain error whose Message is safe to show to API users.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return e.Message }

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, Internal for
// any other non-nil error, and "" for nil.
func ErrorCode(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// ErrorMessage returns the user-safe message of the first *Error in err's chain,
// or a generic message for any other error, so internal details never leak.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "Information retrieval error"
}
