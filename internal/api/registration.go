package api

import (
	"net/http"

	"github.com/energyapi/energyapi/internal/auth"
)

// addSelfServiceRoutes adds the standard OAuth endpoints for machines and,
// when registration is on, the developer and operator endpoints (through
// handle, which refuses other methods in the OAuth error shape) and pages
// (through page, as the site's). With registration off (the default) none
// of the registration paths exists: they answer 404 like any unknown path.
func addSelfServiceRoutes(handle, page func(string, http.Handler), o Options) {
	s := *o.Auth.SelfService
	if s.Remote == nil {
		s.Remote = o.Limits.RemoteAddr // the per-address limit counts what the request log shows
	}
	if s.Log == nil {
		s.Log = o.Log
	}
	// The token endpoint's guard, not one of its own: guesses count
	// together at every path that checks a credential.
	s.Guard = o.Auth.FailureGuard
	s.LogAttrs = addLogAttrs
	s.Pace = paceClient(o)                               // GET /developers/app meets the client's limits
	handle("GET "+auth.MetadataPath, s.HandleMetadata()) // RFC 8414
	handle("POST "+auth.RevokePath, s.HandleRevoke())    // RFC 7009; the client authenticates
	if s.Operated() {
		handle("POST "+auth.IntrospectPath, s.HandleIntrospect()) // RFC 7662; the operator token
	}
	if !s.Registering() {
		return
	}
	handle("POST "+auth.RegisterPath, s.HandleDynamic()) // RFC 7591; an initial access token
	handle("POST /developers/register", s.HandleRegister())
	handle("GET /developers/app", s.HandleApp())                   // a bearer token
	handle("POST /developers/app/rotate-secret", s.HandleRotate()) // the client's credentials
	handle("POST /developers/app/delete", s.HandleDelete())        // the client's credentials
	if o.Web != nil {
		page("GET /developers", o.Web)
	}
	if s.Operated() {
		handle("GET /operator/clients", s.HandleOperatorClients()) // the operator token
		handle("POST /operator/clients/{id}/approve", s.HandleApprove())
		if o.Web != nil {
			page("GET /operator", o.Web)
		}
	}
}
