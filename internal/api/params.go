package api

import (
	"net/url"

	"github.com/energyapi/energyapi/internal/energy"
)

// single returns a 0..1 (or, with required, 1..1) query parameter. An empty
// value counts as absent: callers that build URLs from optional arguments send
// "region=" for "no region".
func single(q url.Values, name string, required bool) (string, error) {
	vs := q[name]
	if len(vs) > 1 {
		return "", energy.Errorf(energy.Invalid, "parameter %s is repeated; it takes one value", name)
	}
	if len(vs) == 0 || vs[0] == "" {
		if required {
			return "", energy.Errorf(energy.Invalid, "parameter %s is required", name)
		}
		return "", nil
	}
	return vs[0], nil
}

// many returns a 0..n query parameter's non-empty values.
func many(q url.Values, name string) []string {
	var out []string
	for _, v := range q[name] {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}
