package api

import "net/http"

// addRoutes is the API surface: every endpoint and its authentication.
func addRoutes(mux *http.ServeMux, o Options) {
	handle := func(pattern string, h http.Handler) { mux.Handle(pattern, routed(h)) }
	token := *o.TokenEndpoint
	token.SetLogID = setLogClient
	// No method in these patterns: the endpoint itself answers other methods
	// with 405 in the OAuth error shape.
	handle("/public-api/access-token", &token)
	handle("/transparency/oauth/accessToken", &token) // legacy path, same handler
	handle("GET /generation/v2.0/thermoelectric-production", dataEndpoint(o, handleThermoelectric(o.Log, o.Data)))
	handle("GET /load/v2.0/peak-valley-load", dataEndpoint(o, handlePeakValley(o.Log, o.Data, o.MaxRangeDays)))
	openapi := newOpenAPIDoc()
	handle("GET /openapi.yaml", handleOpenAPI(o.Log, openapi, false)) // public: no token
	handle("GET /openapi.json", handleOpenAPI(o.Log, openapi, true))
	handle("GET /.well-known/jwks.json", handleJWKS(o.Keys))
	handle("GET /healthz", handleHealth())
	handle("GET /readyz", handleReady(o.Log, o.Ready))
	if o.MetricsHandler != nil {
		handle("GET /metrics", o.MetricsHandler)
	}
}
