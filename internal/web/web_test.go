package web_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/energyapi/energyapi/internal/web"
)

func TestPages(t *testing.T) {
	h := web.New(web.Options{})
	tests := []struct {
		path, contentType, contains string
	}{
		{"/", "text/html; charset=utf-8", `<script src="/assets/app.js"`},
		{"/docs", "text/html; charset=utf-8", `<script src="/assets/docs.js"`},
		{"/assets/app.js", "text/javascript; charset=utf-8", `from "./api.js"`},
		{"/assets/api.js", "text/javascript; charset=utf-8", "energyPage"},
		{"/assets/rome.js", "text/javascript; charset=utf-8", "Europe/Rome"},
		{"/assets/charts.js", "text/javascript; charset=utf-8", "uPlot"},
		{"/assets/catalog.js", "text/javascript; charset=utf-8", "drawCatalog"},
		{"/developers", "text/html; charset=utf-8", `<script src="/assets/developers.js"`},
		{"/operator", "text/html; charset=utf-8", `<script src="/assets/operator.js"`},
		{"/assets/developers.js", "text/javascript; charset=utf-8", "usage not available"},
		{"/assets/operator.js", "text/javascript; charset=utf-8", "/operator/clients"},
		{"/assets/vendor/uplot/uPlot.iife.min.js", "text/javascript; charset=utf-8", "uPlot"},
		{"/assets/vendor/swagger-ui/swagger-ui-bundle.js", "text/javascript; charset=utf-8", "SwaggerUIBundle"},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, tc.path, nil))
			body, _ := io.ReadAll(w.Body)
			if w.Code != http.StatusOK {
				t.Fatalf("got status %d, want 200", w.Code)
			}
			if got := w.Header().Get("Content-Type"); got != tc.contentType {
				t.Errorf("Content-Type: got %q, want %q", got, tc.contentType)
			}
			if !strings.Contains(string(body), tc.contains) {
				t.Errorf("body does not contain %q", tc.contains)
			}
			csp := w.Header().Get("Content-Security-Policy")
			if !strings.Contains(csp, "script-src 'self';") || !strings.Contains(csp, "connect-src 'self';") || strings.Contains(csp, "unsafe-eval") || strings.Contains(csp, "http") {
				t.Errorf("CSP: got %q, want scripts and requests from the own origin only", csp)
			}
		})
	}
}

// TestNoInlineScript keeps every script of the pages in a file of its own,
// which the CSP (script-src 'self') requires.
func TestNoInlineScript(t *testing.T) {
	h := web.New(web.Options{})
	for _, path := range []string{"/", "/docs", "/developers", "/operator"} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		body := w.Body.String()
		for _, part := range strings.Split(body, "<script")[1:] {
			if !strings.HasPrefix(strings.TrimSpace(part), "src=") || !strings.Contains(part, "></script>") {
				t.Errorf("%s: inline script or script without src: <script%.60s", path, part)
			}
		}
		if inlineHandler.MatchString(body) {
			t.Errorf("%s: inline event handler", path)
		}
	}
}

var inlineHandler = regexp.MustCompile(`\son[a-z]+=`)

func TestConfig(t *testing.T) {
	tests := []struct {
		name string
		opts web.Options
		want map[string]any
	}{
		{"not demo", web.Options{}, map[string]any{"demo": false}},
		{"demo", web.Options{Demo: &web.Credentials{ClientID: "demo", ClientSecret: "demo-secret"}},
			map[string]any{"demo": true, "client_id": "demo", "client_secret": "demo-secret"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			web.New(tc.opts).ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/web/config.json", nil))
			var got map[string]any
			if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s: got %v, want %v", k, got[k], v)
				}
			}
			if cc := w.Header().Get("Cache-Control"); cc != "no-store" {
				t.Errorf("Cache-Control: got %q, want no-store", cc)
			}
		})
	}
}

// TestOddAssetPaths answers paths that name no asset, however they are
// spelled, with 404 rather than the file server's 500 for a name fs.FS
// refuses (one that is not UTF-8).
func TestOddAssetPaths(t *testing.T) {
	// Undecodable names, missing files and directories are all 404: no 500,
	// and no directory listing.
	h := web.New(web.Options{})
	for _, path := range []string{"/assets/%ff", "/assets/%c0%af", "/assets/vendor/%fe%ff.js", "/assets/a%00b", "/assets/missing.js", "/assets/..%2f..%2fetc%2fpasswd", "/assets/", "/assets/vendor/", "/assets/vendor", "/assets/vendor/uplot/"} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		if w.Code != http.StatusNotFound {
			t.Errorf("%s: got %d, want 404", path, w.Code)
		}
	}
}
