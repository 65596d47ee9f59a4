// Package energy is the domain of the Energy Data API: thermoelectric production
// records, quarter-hourly load, daily peak and valley, the reference lists that
// validate them, and the in-memory indexes that answer queries. It knows nothing
// of HTTP or SQL.
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
