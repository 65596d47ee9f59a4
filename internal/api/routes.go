package api

import (
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/energyapi/energyapi/internal/budget"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
)

// addRoutes is the API surface: every endpoint and its authentication.
func addRoutes(rt *router, o Options) {
	// A path answers the methods it lacks with 405 in the shape of its
	// family: the result envelope here, the OAuth error for the OAuth
	// endpoints (handleOAuth).
	envelope405 := func(allow string) http.Handler { return methodNotAllowedAt(o, allow) }
	handle := func(pattern string, h http.Handler) { rt.handle(pattern, h, envelope405) }
	handleOAuth := func(pattern string, h http.Handler) { rt.handle(pattern, h, auth.RefuseMethod) }
	// get serves h at path for GET and HEAD, also from the router's map.
	get := func(path string, h http.Handler) {
		handle("GET "+path, h)
		rt.fixed[path] = fixedRoute{pattern: "GET " + path, h: routed(h)}
	}
	// No method in these patterns: the endpoint itself answers other methods
	// with 405 in the OAuth error shape.
	token := journaled(o, "", injectFaults(o, "", tokenClient, tokenEndpoint(o)))
	handle(auth.TokenPath, token)
	handle(auth.LegacyTokenPath, token) // legacy path, same handler
	// Every dataset of the catalogue, at its path and its aliases.
	cache := newAnswerCache(answerBudget(o.Cache))
	for _, d := range o.Data.Catalog.All() {
		h := dataEndpoint(o, d.Name, handleDataset(o, o.Data.Catalog, d, nil, cache))
		get(d.Path(), h)
		for _, p := range d.Aliases {
			get(p, h)
		}
		for i := range d.Views { // former prefixes and v1.0 paths, deprecated
			v := &d.Views[i]
			get(v.Path, announceDeprecation(d, v, dataEndpoint(o, d.Name, handleDataset(o, o.Data.Catalog, d, v, cache))))
		}
	}
	get("/catalog", handleCatalog(o)) // public, like the OpenAPI document
	// Opt-in (serve --bulk): whole periods as files, with a bearer token.
	if o.Data.Bulk != nil {
		get("/bulk", bulkEndpoint(o, handleBulkIndex(o)))
		handle("GET /bulk/{dataset}", bulkEndpoint(o, handleBulkManifest(o)))
		handle("GET /bulk/{dataset}/{file}", bulkEndpoint(o, handleBulkFile(o)))
	}
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
		handle("GET /updates/stream", http.NotFoundHandler())
	}
	// Each encoding built at the first request for it, once: building the
	// document took three quarters of the time a server took to start.
	openapiYAML := sync.OnceValue(func() *openapiDoc { return newOpenAPIDoc(o.Data.Catalog, false) })
	openapiJSON := sync.OnceValue(func() *openapiDoc { return newOpenAPIDoc(o.Data.Catalog, true) })
	get("/openapi.yaml", handleOpenAPI(o.Log, o.Cache.Compression, openapiYAML, "application/yaml")) // public: no token
	get("/openapi.json", handleOpenAPI(o.Log, o.Cache.Compression, openapiJSON, "application/json"))
	get("/.well-known/jwks.json", handleJWKS(o.Auth.Keys))
	get("/healthz", handleHealth())
	get("/readyz", handleReady(o.Log, o.Observability.Ready))
	if o.Observability.Handler != nil {
		get("/metrics", o.Limits.StoreClass.bound(o.Log, o.Observability.Handler)) // it reads import totals from the store
	}
	if o.Sandbox.Box != nil { // admin endpoints, behind the sandbox admin token
		addSandboxRoutes(handle, o)
	}
	if o.Auth.SelfService != nil { // RFC 7591, 7009, 7662 and 8414; registration pages
		addSelfServiceRoutes(handleOAuth, handle, o)
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
	rt.refuseOtherMethods()
}

// addSandboxRoutes adds the sandbox's admin endpoints, each behind the
// sandbox admin token.
func addSandboxRoutes(handle func(string, http.Handler), o Options) {
	sb, admin := o.Sandbox.Box, sandboxAdmin(o)
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
	// patterns are every pattern handle registered, in order.
	patterns []string
	// paths are the paths of the method-specific patterns, in the order
	// first registered, with their methods; own are the paths of patterns
	// that name no method, whose handlers answer every method themselves.
	paths []*pathMethods
	own   map[string]bool
}

// pathMethods are the methods registered at a path, and how the path
// refuses the others.
type pathMethods struct {
	path    string
	methods []string
	refuse  func(allow string) http.Handler
}

// fixedRoute is a GET path's pattern, as the mux would report it, and
// its handler.
type fixedRoute struct {
	pattern string
	h       http.Handler
}

func newRouter() *router {
	return &router{mux: http.NewServeMux(), fixed: map[string]fixedRoute{}, own: map[string]bool{}}
}

// handle registers h at pattern. A method-specific pattern's path also
// answers the methods it lacks with refuse(allow) once every route is in
// (refuseOtherMethods): the mux alone would send them to the catch-all
// pattern "/", a 404.
func (rt *router) handle(pattern string, h http.Handler, refuse func(allow string) http.Handler) {
	rt.patterns = append(rt.patterns, pattern)
	rt.mux.Handle(pattern, routed(h))
	method, path, ok := strings.Cut(pattern, " ")
	if !ok {
		rt.own[pattern] = true
		return
	}
	i := slices.IndexFunc(rt.paths, func(p *pathMethods) bool { return p.path == path })
	if i < 0 {
		i = len(rt.paths)
		rt.paths = append(rt.paths, &pathMethods{path: path, refuse: refuse})
	}
	rt.paths[i].methods = append(rt.paths[i].methods, method)
}

// refuseOtherMethods registers, at every path of a method-specific
// pattern, the answer to every other method: 405 with an Allow header
// listing the path's methods, HEAD with GET as the mux serves it.
func (rt *router) refuseOtherMethods() {
	for _, p := range rt.paths {
		if rt.own[p.path] {
			continue
		}
		var allow []string
		for _, m := range p.methods {
			allow = append(allow, m)
			if m == http.MethodGet {
				allow = append(allow, http.MethodHead)
			}
		}
		rt.mux.Handle(p.path, routed(p.refuse(strings.Join(allow, ", "))))
	}
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
