// Package web serves the browser site: the dashboard and catalogue page at
// GET /, the API reference at GET /docs, their assets under /assets/, and the
// page's configuration at GET /web/config.json. Every file is embedded in the
// binary; the pages fetch nothing from another host.
package web

import (
	"bytes"
	"embed"
	"encoding/json"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/coding"
)

//go:embed assets
var assets embed.FS

// Options configure the site.
type Options struct {
	// Demo, when set, tells the page the credentials of the demo client, so
	// that it fetches its token without asking. Set only with serve --demo.
	Demo *Credentials
	// Compression, when set, sends the pages and assets compressed as the
	// browser's Accept-Encoding asks, each file compressed once; nil sends
	// them as they are.
	Compression *coding.Compressor
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
	z := o.Compression
	mux := http.NewServeMux()
	page := func(name, csp string) http.Handler {
		body, err := fs.ReadFile(sub, name)
		if err != nil {
			panic(err)
		}
		forms := coding.NewForms(body)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			secure(w.Header(), csp)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-cache")
			b, c := z.Pick(r, forms)
			z.SetHeaders(w.Header(), c)
			w.Write(b)
		})
	}
	mux.Handle("GET /{$}", page("index.html", pageCSP))
	mux.Handle("GET /docs", page("docs.html", docsCSP))
	addRegistrationPages(mux, page)
	files := http.StripPrefix("/assets/", http.FileServerFS(assetFS{sub}))
	compressible := assetForms(sub)
	mux.Handle("GET /assets/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		secure(h, pageCSP)
		h.Set("Cache-Control", "public, max-age=3600")
		if a, ok := compressible[strings.TrimPrefix(r.URL.Path, "/assets/")]; ok && z != nil {
			if b, c := z.Pick(r, a.forms); c != coding.Identity {
				z.SetHeaders(h, c)
				h.Set("Content-Type", a.contentType)
				// Ranges and HEAD as the file server answers them.
				http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(b))
				return
			}
		}
		z.SetVary(h)
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

// asset is an embedded file as the file server would type it, with its
// compressed forms as made.
type asset struct {
	contentType string
	forms       *coding.Forms
}

// assetForms returns every embedded file by its path: an identity answer
// comes from the file server, a compressed one from here.
func assetForms(sub fs.FS) map[string]asset {
	out := map[string]asset{}
	err := fs.WalkDir(sub, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(sub, name)
		if err != nil {
			return err
		}
		ctype := mime.TypeByExtension(path.Ext(name)) // as http.FileServer does
		if ctype == "" {
			ctype = http.DetectContentType(body)
		}
		out[name] = asset{contentType: ctype, forms: coding.NewForms(body)}
		return nil
	})
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return out
}

// assetFS is the embedded tree as the file server sees it: a name fs.FS
// refuses (one that is not UTF-8, such as /assets/%ff) names no asset, so
// it is 404 rather than the 500 the file server answers fs.ErrInvalid with;
// and a directory names no asset either, so that the file server lists none.
type assetFS struct{ fs.FS }

func (a assetFS) Open(name string) (fs.File, error) {
	notExist := &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	if !fs.ValidPath(name) {
		return nil, notExist
	}
	f, err := a.FS.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || st.IsDir() {
		f.Close()
		return nil, notExist
	}
	return f, nil
}

func secure(h http.Header, csp string) {
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}
