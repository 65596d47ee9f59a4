package api

import (
	"net/http"

	"github.com/energyapi/energyapi/internal/budget"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
)

// addRoutes is the API surface: every endpoint and its authentication.
func addRoutes(rt *router, o Options) {
	handle := func(pattern string, h http.Handler) { rt.mux.Handle(pattern, routed(h)) }
	// get serves h at path for GET and HEAD, and answers other methods 405
	// in the result envelope (the mux alone would answer plain text).
	get := func(path string, h http.Handler) {
		handle("GET "+path, h)
		rt.fixed[path] = fixedRoute{pattern: "GET " + path, h: routed(h)}
		handle(path, methodNotAllowedAt(o, "GET, HEAD"))
	}
	// No method in these patterns: the endpoint itself answers other methods
	// with 405 in the OAuth error shape.
	token := journaled(o, "", injectFaults(o, "", tokenClient, tokenEndpoint(o)))
	handle("/public-api/access-token", token)
	handle("/transparency/oauth/accessToken", token) // legacy path, same handler
	// Every dataset of the catalogue, at its path and its aliases.
	cache := newAnswerCache(answerBudget(o.Cache))
	for _, d := range o.Data.Catalog.All() {
		h := dataEndpoint(o, d.Name, handleDataset(o, o.Data.Catalog, d, cache))
		get(d.Path(), h)
		for _, p := range d.Aliases {
			get(p, h)
		}
	}
	get("/catalog", handleCatalog(o)) // public, like the OpenAPI document
	if o.Limits.Plans != nil {
		get("/usage", handleUsage(o)) // the client's own usage, with its token
	}
	if o.Data.Updates != nil {
		// Public like /catalog: an import's dataset, period and counts, no
		// values; and a browser's EventSource cannot send a bearer token.
		get("/updates", handleUpdates(o))
		// GET /updates/stream is served outside the request limits
		// (streamApart, in NewServer); its pattern here only names its
		// route in the log and metrics, and is never reached.
		rt.mux.Handle("GET /updates/stream", http.NotFoundHandler())
		handle("/updates/stream", methodNotAllowedAt(o, "GET, HEAD"))
	}
	openapi := newOpenAPIDoc(o.Data.Catalog)
	get("/openapi.yaml", handleOpenAPI(o.Log, o.Cache.Compression, openapi, false)) // public: no token
	get("/openapi.json", handleOpenAPI(o.Log, o.Cache.Compression, openapi, true))
	get("/.well-known/jwks.json", handleJWKS(o.Auth.Keys))
	get("/healthz", handleHealth())
	get("/readyz", handleReady(o.Log, o.Observability.Ready))
	if o.Observability.Handler != nil {
		get("/metrics", o.Limits.StoreClass.bound(o.Log, o.Observability.Handler)) // it reads import totals from the store
	}
	if sb := o.Sandbox.Box; sb != nil { // admin endpoints, behind the sandbox admin token
		admin := sandboxAdmin(o)
		handle("GET /sandbox/rules", admin(handleSandboxRules(sb)))
		handle("POST /sandbox/rules", admin(handleSandboxAddRules(o, sb)))
		handle("DELETE /sandbox/rules", admin(handleSandboxClearRules(sb)))
		handle("DELETE /sandbox/rules/{id}", admin(handleSandboxRemoveRule(o, sb)))
		handle("POST /sandbox/quota", admin(handleExhaustQuota(o)))
		handle("GET /sandbox/journal", admin(handleSandboxJournal(o, sb)))
		handle("DELETE /sandbox/journal", admin(handleSandboxResetJournal(sb)))
		handle("GET /sandbox/clock", admin(handleSandboxClock(sb)))
		handle("PUT /sandbox/clock", admin(handleSandboxSetClock(o, sb)))
		handle("DELETE /sandbox/clock", admin(handleSandboxReleaseClock(sb)))
	}
	if o.Auth.SelfService != nil { // RFC 7591, 7009, 7662 and 8414; registration pages
		addSelfServiceRoutes(handle, o)
	}
	if o.Web != nil { // the public site: pages and assets; its data still need a token
		handle("GET /{$}", o.Web)
		handle("GET /docs", o.Web)
		handle("GET /assets/", o.Web)
		handle("GET /web/config.json", o.Web)
	}
	// Whatever matches no route gets the result envelope, never plain text.
	handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, o.Log, energy.Errorf(energy.NotFound, "Not Found: no endpoint at %s", r.URL.Path))
	}))
}

// answerBudget is the memory budget the answers are kept in: the server's,
// or one of Cache.AnswerBytes for the answers alone; nil keeps none.
func answerBudget(c Cache) *budget.Budget {
	if c.Memory == nil && c.AnswerBytes > 0 {
		return budget.New(int64(c.AnswerBytes))
	}
	return c.Memory
}

// tokenEndpoint is the OAuth 2.0 token endpoint, whose refusals and
// clients reach the request log.
func tokenEndpoint(o Options) *auth.TokenEndpoint {
	return &auth.TokenEndpoint{
		Registry: o.Auth.Registry,
		Tokens:   o.Auth.Tokens,
		Log:      o.Log,
		Guard:    o.Auth.FailureGuard,
		Observe:  o.Observability.ObserveToken,
		Remote:   o.Limits.RemoteAddr,
		SetLogID: setLogClient,
		LogAttrs: addLogAttrs,
	}
}

// router is the server's ServeMux, with the fixed paths that get serves
// also in a map: a GET or HEAD for one of them, in the form the mux matches
// as it comes, finds its handler in one lookup instead of the mux's walk
// of its patterns (which took more time than the rest of routing a cached
// answer). Everything else goes to the mux, which answers redirects, 405s
// and 404s as always.
type router struct {
	mux   *http.ServeMux
	fixed map[string]fixedRoute
}

// fixedRoute is a GET path's pattern, as the mux would report it, and
// its handler.
type fixedRoute struct {
	pattern string
	h       http.Handler
}

func newRouter() *router {
	return &router{mux: http.NewServeMux(), fixed: map[string]fixedRoute{}}
}

func (rt *router) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// A path with escapes of its own (RawPath) is matched by the mux,
	// segment by segment, as it was sent.
	if (r.Method == http.MethodGet || r.Method == http.MethodHead) && r.URL.RawPath == "" {
		if fr, ok := rt.fixed[r.URL.Path]; ok {
			r.Pattern = fr.pattern // as the mux sets it
			fr.h.ServeHTTP(w, r)
			return
		}
	}
	rt.mux.ServeHTTP(w, r)
}

// methodNotAllowedAt answers 405 with an Allow header listing allow.
func methodNotAllowedAt(o Options, allow string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		writeError(w, r, o.Log, energy.Errorf(methodNotAllowed, "Method Not Allowed: %s answers %s only", r.URL.Path, allow))
	})
}
