package api

import "net/http"

// addRoutes is the API surface: every endpoint and its authentication.
func addRoutes(mux *http.ServeMux, o Options) {
	token := *o.TokenEndpoint
	token.SetLogID = setLogClient
	// No method in these patterns: the endpoint itself answers other methods
	// with 405 in the OAuth error shape.
	mux.Handle("/public-api/access-token", &token)
	mux.Handle("/transparency/oauth/accessToken", &token) // legacy path, same handler
	mux.Handle("GET /generation/v2.0/thermoelectric-production", dataEndpoint(o, handleThermoelectric(o.Log, o.Data)))
	mux.Handle("GET /load/v2.0/peak-valley-load", dataEndpoint(o, handlePeakValley(o.Log, o.Data, o.MaxRangeDays)))
	openapi := newOpenAPIDoc()
	mux.Handle("GET /openapi.yaml", handleOpenAPI(o.Log, openapi, false)) // public: no token
	mux.Handle("GET /openapi.json", handleOpenAPI(o.Log, openapi, true))
	mux.Handle("GET /.well-known/jwks.json", handleJWKS(o.Keys))
	mux.Handle("GET /healthz", handleHealth())
	mux.Handle("GET /readyz", handleReady(o.Log, o.Ready))
	if o.MetricsHandler != nil {
		mux.Handle("GET /metrics", o.MetricsHandler)
	}
}
