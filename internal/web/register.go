package web

import "net/http"

// addRegistrationPages adds the developer page, where a person registers an
// application and manages it, and the operator's page, where clients are
// approved. The API routes them only when registration is on.
func addRegistrationPages(mux *http.ServeMux, page func(name, csp string) http.Handler) {
	mux.Handle("GET /developers", page("developers.html", pageCSP))
	mux.Handle("GET /operator", page("operator.html", pageCSP))
}
