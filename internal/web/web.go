// Package web serves the browser site: the dashboard and catalogue page at
// GET /, the API reference at GET /docs, their assets under /assets/, and the
// page's configuration at GET /web/config.json. Every file is embedded in the
// binary; the pages fetch nothing from another host.
package web

import (
	"embed"
	"encoding/json"
	"io/fs"
	"net/http"
)

//go:embed assets
var assets embed.FS

// Options configure the site.
type Options struct {
	// Demo, when set, tells the page the credentials of the demo client, so
	// that it fetches its token without asking. Set only with serve --demo.
	Demo *Credentials
}

// Credentials are a client's id and secret.
type Credentials struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
}

// pageCSP allows the page its own origin only: no inline script, no eval,
// no other host. uPlot sets element styles through the CSSOM, which
// style-src does not govern.
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// docsCSP is pageCSP with inline styles allowed: Swagger UI writes <style>
// elements and style attributes. Scripts stay own-origin only.
const docsCSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// New returns the handler for the site's paths: /, /docs, /assets/ and
// /web/config.json.
func New(o Options) http.Handler {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	mux := http.NewServeMux()
	page := func(name, csp string) http.Handler {
		body, err := fs.ReadFile(sub, name)
		if err != nil {
			panic(err)
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			secure(w.Header(), csp)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-cache")
			w.Write(body)
		})
	}
	mux.Handle("GET /{$}", page("index.html", pageCSP))
	mux.Handle("GET /docs", page("docs.html", docsCSP))
	files := http.StripPrefix("/assets/", http.FileServerFS(assetFS{sub}))
	mux.Handle("GET /assets/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secure(w.Header(), pageCSP)
		w.Header().Set("Cache-Control", "public, max-age=3600")
		files.ServeHTTP(w, r)
	}))
	cfg, err := json.Marshal(struct {
		Demo bool `json:"demo"`
		*Credentials
	}{o.Demo != nil, o.Demo})
	if err != nil {
		panic(err)
	}
	mux.Handle("GET /web/config.json", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secure(w.Header(), pageCSP)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(cfg)
	}))
	return mux
}

// assetFS is the embedded tree as the file server sees it: a name fs.FS
// refuses (one that is not UTF-8, such as /assets/%ff) names no asset, so
// it is 404 rather than the 500 the file server answers fs.ErrInvalid with.
type assetFS struct{ fs.FS }

func (a assetFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return a.FS.Open(name)
}

func secure(h http.Header, csp string) {
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}
