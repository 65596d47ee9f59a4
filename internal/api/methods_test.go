package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/budget"
	"github.com/energyapi/energyapi/internal/bulk"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/limit"
	"github.com/energyapi/energyapi/internal/sandbox"
	"github.com/energyapi/energyapi/internal/web"
)

// everyMethod is what TestWrongMethodAnswers405 tries at every path.
var everyMethod = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

// newEverySurfaceServer serves every opt-in surface: the sandbox, the
// updates feed, plans, metrics, registration open with an operator token,
// the site and the bulk files. It returns the server and the options it was built from.
func newEverySurfaceServer(tb testing.TB) (*apitest.Server, api.Options) {
	tb.Helper()
	var opts api.Options
	srv := apitest.NewServer(tb, apitest.Options{Data: thermoData(), Adjust: func(o *api.Options) {
		o.Sandbox.Box, o.Sandbox.AdminToken = sandbox.New(sandbox.NewClock(o.Now), 7, 100), sbAdmin
		o.Data.Updates = api.NewFeed(dataset.NewMemory(), o.Data.Snapshot)
		o.Limits.Plans = limit.NewPlans(limit.PlansConfig{})
		o.Observability.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8") // as Prometheus answers
			_, _ = io.WriteString(w, "# no metrics\n")
		})
		o.Auth.SelfService = &auth.SelfService{Mode: auth.RegistrationOpen, Registry: o.Auth.Registry,
			Tokens: o.Auth.Tokens, OperatorToken: regOperatorToken}
		o.Web = web.New(web.Options{})
		o.Data.Bulk = bulk.New(o.Data.Catalog, budget.New(32<<20))
		opts = *o
	}})
	return srv, opts
}

// wildcard is a pattern's wildcard segment, such as {id} or {$}.
var wildcard = regexp.MustCompile(`\{[^}]*\}`)

// concrete returns a path that pattern path p matches.
func concrete(p string) string {
	p = strings.ReplaceAll(p, "{$}", "")
	p = wildcard.ReplaceAllString(p, "x")
	if strings.HasSuffix(p, "/") && p != "/" {
		p += "x" // a subtree, such as /assets/
	}
	return p
}

// oauthFamily reports whether path belongs to the OAuth endpoints, which
// answer errors as RFC 6749 section 5.2 does, not in the result envelope.
func oauthFamily(path string) bool { return auth.IsOAuthPath(path) }

// TestWrongMethodAnswers405 walks every route a server with every opt-in
// surface registers and sends each path every method it does not serve:
// the answer is 405 with an Allow header naming exactly the methods
// registered at the path (GET implying HEAD), in the error shape of the
// path's family, never the catch-all's 404. A path whose pattern names no
// method (the token endpoint) answers methods itself: what it refuses is
// 405 with an Allow header too.
func TestWrongMethodAnswers405(t *testing.T) {
	srv, opts := newEverySurfaceServer(t)
	allowed, own := map[string][]string{}, map[string]bool{}
	var paths []string
	for _, pattern := range api.RoutePatterns(opts) {
		method, path, ok := strings.Cut(pattern, " ")
		if !ok {
			method, path = "", pattern
		}
		if path == "/" {
			continue // the catch-all
		}
		if _, seen := allowed[path]; !seen && !own[path] {
			paths = append(paths, path)
		}
		switch method {
		case "":
			own[path] = true
		case "GET":
			allowed[path] = append(allowed[path], "GET", "HEAD")
		default:
			allowed[path] = append(allowed[path], method)
		}
	}
	for _, want := range []string{"/register", "/developers/app", "/operator/clients/{id}/approve", "/sandbox/rules", "/sandbox/rules/{id}", "/{$}", "/assets/", "/updates/stream", "/usage", "/metrics", auth.TokenPath} {
		if !slices.Contains(paths, want) {
			t.Fatalf("the walk misses %s: the server was not built with every surface (paths %v)", want, paths)
		}
	}
	for _, path := range paths {
		for _, method := range everyMethod {
			if slices.Contains(allowed[path], method) {
				continue
			}
			checkRefused(t, srv.URL, method, path, allowed[path], own[path])
		}
	}
}

// checkRefused sends method to pattern path and checks that it is refused
// with 405, an Allow header listing allow, and a body in the path's
// family's error shape. If own, the path's handler answers every method:
// it need not refuse method, but a refusal is 405 with an Allow header
// that does not list method.
func checkRefused(t *testing.T, base, method, path string, allow []string, own bool) {
	t.Helper()
	req, err := http.NewRequest(method, base+concrete(path), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	got := strings.Split(resp.Header.Get("Allow"), ", ")
	slices.Sort(got)
	want := slices.Sorted(slices.Values(allow))
	switch {
	case own && resp.StatusCode != http.StatusMethodNotAllowed && resp.StatusCode != http.StatusNotFound:
		return // a method the endpoint serves
	case resp.StatusCode != http.StatusMethodNotAllowed:
		t.Errorf("%s %s: got %d %s, want 405", method, path, resp.StatusCode, body)
		return
	case own && (resp.Header.Get("Allow") == "" || slices.Contains(got, method)):
		t.Errorf("%s %s: got Allow %q, want the methods the endpoint serves", method, path, resp.Header.Get("Allow"))
	case !own && !slices.Equal(got, want):
		t.Errorf("%s %s: got Allow %q, want %s", method, path, resp.Header.Get("Allow"), strings.Join(want, ", "))
	}
	if method == http.MethodHead {
		return
	}
	var shape struct {
		Error  string `json:"error"`
		Result struct {
			Status string `json:"status"`
		} `json:"result"`
	}
	if err := json.Unmarshal(body, &shape); err != nil {
		t.Errorf("%s %s: body %q is not JSON: %v", method, path, body, err)
	}
	if oauthFamily(path) && shape.Error != "invalid_request" {
		t.Errorf("%s %s: got %s, want the OAuth error shape, invalid_request", method, path, body)
	}
	if !oauthFamily(path) && shape.Result.Status != "ERROR" {
		t.Errorf("%s %s: got %s, want the result envelope, status ERROR", method, path, body)
	}
}
