package api

import (
	"net/url"
	"strings"

	"github.com/energyapi/energyapi/internal/energy"
)

// queryOf parses a request's query string. It returns an error with code
// Invalid, naming the parameter, for a pair that url.ParseQuery cannot
// read: r.URL.Query() drops such a pair silently, so that
// biddingZone=North;x would widen the answer to every zone.
func queryOf(raw string) (url.Values, error) {
	v, err := url.ParseQuery(raw)
	if err == nil {
		return v, nil
	}
	if bad := malformedPair(raw); bad != nil {
		return nil, bad
	}
	return nil, energy.Errorf(energy.Invalid, "the query string %q is malformed: %v", raw, err)
}

// malformedPair describes the first pair of raw that url.ParseQuery
// refuses: one with a semicolon (which Go no longer takes for a separator)
// or a percent sign that does not start an escape.
func malformedPair(raw string) error {
	for pair := range strings.SplitSeq(raw, "&") {
		key, value, _ := strings.Cut(pair, "=")
		name, keyErr := url.QueryUnescape(key)
		if keyErr != nil || strings.Contains(key, ";") {
			name = key
		}
		_, valueErr := url.QueryUnescape(value)
		switch {
		case strings.Contains(pair, ";"):
			return energy.Errorf(energy.Invalid, "parameter %s value %q contains a semicolon: separate parameters with & and write a semicolon in a value as %%3B", name, value)
		case keyErr != nil:
			return energy.Errorf(energy.Invalid, "parameter %s has a name that is not valid percent-encoding: write a percent sign as %%25", name)
		case valueErr != nil:
			return energy.Errorf(energy.Invalid, "parameter %s value %q is not valid percent-encoding: write a percent sign as %%25", name, value)
		}
	}
	return nil
}
