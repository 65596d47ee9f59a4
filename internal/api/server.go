// Package api is the HTTP edge of the Energy Data API: routes, the result
// envelope, the one mapping from error codes to statuses, and the middleware
// every request passes through.
package api

import (
	"net/http"

	"github.com/energyapi/energyapi/internal/auth"
)

// NewServer returns the HTTP handler for the public API: every route of
// addRoutes behind the middleware, all built from opts, whose defaults it
// fills in a copy of its own.
func NewServer(opts Options) http.Handler {
	o := opts.withDefaults()
	rt := newRouter()
	addRoutes(rt, o)
	var h http.Handler = guardRequests(o)(rt)
	if o.Data.Updates != nil {
		h = streamApart(handleUpdatesStream(o), h) // GET /updates/stream, outside the limits
	}
	h = recoverPanics(o.Log)(h)
	routeOf := func(r *http.Request) string { _, pattern := rt.mux.Handler(r); return pattern }
	h = logRequests(o.Log, o.Now, newRequestIDs(), o.Observability.Metrics, routeOf, o.Limits.RemoteAddr)(h)
	return h
}

// streamApart serves GET /updates/stream with stream, outside the request
// limits: the stream stays open as long as its client, so it must not hold
// a request slot or meet the request deadline. Every other request, and a
// path the mux would clean or unescape first, goes to next.
func streamApart(stream, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/updates/stream" && r.URL.RawPath == "" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			stream.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// dataEndpoint wraps a data handler in what every data endpoint shares:
// content negotiation, bearer authentication, then the client's rate limit.
// The authenticated client is kept in the request's entry (recordClient).
func dataEndpoint(o Options, dataset string, h http.Handler) http.Handler {
	fail := func(w http.ResponseWriter, r *http.Request, err error) { writeError(w, r, o.Log, err) }
	limited := injectFaults(o, dataset, clientOf, limitClient(o, dataset, h))
	// An Accept header that admits no representation is refused before the
	// token is checked, as a content-negotiation failure.
	acceptable := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if _, ok := requestFormat(r); !ok {
				writeError(w, r, o.Log, errNotAcceptable)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	return journaled(o, dataset, acceptable(auth.RequireBearerRecorded(o.Auth.Tokens, fail, recordClient)(limited)))
}
