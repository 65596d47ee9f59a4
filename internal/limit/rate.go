// Package limit slows down callers that ask too much: a token bucket per key
// for request rates (Limiter) and a sliding-window count of failed
// authentications per client ID and per remote address (FailureGuard). Both
// keep bounded memory whatever keys callers make up.
package limit

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Rate is N events per Per. The zero Rate means "no limit".
type Rate struct {
	N   int
	Per time.Duration
}

// ParseRate parses "N/unit", where unit is s, m or h or a Go duration such as
// 30s ("10/s", "600/m", "100/1m", "5/30s"). "", "0" and "0/anything" are the
// zero Rate, which switches the limit off. It returns an error for anything
// else, a negative N or a period that is not positive.
func ParseRate(s string) (Rate, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "0" {
		return Rate{}, nil
	}
	num, unit, ok := strings.Cut(s, "/")
	if !ok {
		return Rate{}, fmt.Errorf("rate %q: want N/unit, such as 10/s or 600/m", s)
	}
	n, err := strconv.Atoi(strings.TrimSpace(num))
	if err != nil || n < 0 {
		return Rate{}, fmt.Errorf("rate %q: %q is not a count of 0 or more", s, num)
	}
	var per time.Duration
	switch unit = strings.TrimSpace(unit); unit {
	case "s":
		per = time.Second
	case "m":
		per = time.Minute
	case "h":
		per = time.Hour
	default:
		if per, err = time.ParseDuration(unit); err != nil || per <= 0 {
			return Rate{}, fmt.Errorf("rate %q: %q is not s, m, h or a positive duration", s, unit)
		}
	}
	if n == 0 {
		return Rate{}, nil
	}
	return Rate{N: n, Per: per}, nil
}

// IsZero reports whether r is "no limit".
func (r Rate) IsZero() bool { return r.N <= 0 || r.Per <= 0 }

// interval is the time one event uses up: Per/N, at least a nanosecond.
func (r Rate) interval() time.Duration { return max(r.Per/time.Duration(r.N), 1) }

// String returns r in the form ParseRate reads, "" for the zero Rate.
func (r Rate) String() string {
	if r.IsZero() {
		return ""
	}
	switch r.Per {
	case time.Second:
		return strconv.Itoa(r.N) + "/s"
	case time.Minute:
		return strconv.Itoa(r.N) + "/m"
	case time.Hour:
		return strconv.Itoa(r.N) + "/h"
	}
	return strconv.Itoa(r.N) + "/" + r.Per.String()
}

// Set parses s into r, so that a *Rate is a flag.Value.
func (r *Rate) Set(s string) error {
	v, err := ParseRate(s)
	if err != nil {
		return err
	}
	*r = v
	return nil
}
