package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/auth"
	"github.com/getkin/kin-openapi/openapi3"
)

// The document's extensions: on every path, the answer to a method the
// path does not serve; on an operation only some servers have, the serve
// flags that add it.
const (
	otherMethodsKey = "x-energyapi-other-methods"
	optInKey        = "x-energyapi-opt-in"
)

// optIns are the serve flags that add routes, each with what it turns off
// in the Options of newEverySurfaceServer.
var optIns = []struct {
	flag string
	off  func(*api.Options)
}{
	{"--sandbox", func(o *api.Options) { o.Sandbox.Box = nil }},
	{"--bulk", func(o *api.Options) { o.Data.Bulk = nil }},
	{"--registration", func(o *api.Options) {
		s := *o.Auth.SelfService
		s.Mode = auth.RegistrationOff
		o.Auth.SelfService = &s
	}},
	{"--operator-token-file", func(o *api.Options) {
		s := *o.Auth.SelfService
		s.OperatorToken = ""
		o.Auth.SelfService = &s
	}},
}

// routeTable is the routes of o by the document's path: the methods
// registered there, "" for a pattern that names none (its handler answers
// every method). The catch-all "/" is no route.
func routeTable(o api.Options) map[string][]string {
	routes := map[string][]string{}
	for _, pattern := range api.RoutePatterns(o) {
		method, path, ok := strings.Cut(pattern, " ")
		if !ok {
			method, path = "", pattern
			if path == "/" {
				continue
			}
		}
		routes[documentPath(path)] = append(routes[documentPath(path)], method)
	}
	return routes
}

// documentPath is the document's path for the path of a mux pattern:
// "/{$}" matches "/" alone, a subtree such as "/assets/" is
// "/assets/{path}", and a wildcard such as {id} is a path parameter.
func documentPath(p string) string {
	switch {
	case strings.HasSuffix(p, "/{$}"):
		return strings.TrimSuffix(p, "{$}")
	case strings.HasSuffix(p, "/") && p != "/":
		return p + "{path}"
	}
	return p
}

// serves reports whether methods, registered at a path, serve method.
func serves(methods []string, method string) bool {
	return slices.Contains(methods, "") || slices.Contains(methods, method) ||
		(method == http.MethodHead && slices.Contains(methods, http.MethodGet))
}

// TestOpenAPIListsEveryRoute walks the route table of a server with every
// opt-in surface against the document, both ways: every route is an
// operation (a pattern that names no method, whose handler answers every
// method, at least its path), and every operation is a route. Every path
// says how its other methods are refused, in its family's error shape; an
// operation is marked opt-in exactly when a serve flag adds it, naming the
// flags it needs.
func TestOpenAPIListsEveryRoute(t *testing.T) {
	t.Parallel()
	doc, err := apitest.LoadDocument()
	if err != nil {
		t.Fatal(err)
	}
	_, opts := newEverySurfaceServer(t)
	routes := routeTable(opts)
	// The routes of the same server without each opt-in surface.
	without := map[string]map[string][]string{}
	for _, f := range optIns {
		o := opts
		f.off(&o)
		without[f.flag] = routeTable(o)
	}
	for path, methods := range routes {
		item := doc.Paths.Value(path)
		if item == nil {
			t.Errorf("%s: served, but not in the document", path)
			continue
		}
		for _, m := range methods {
			if (m == "" && len(item.Operations()) == 0) || (m != "" && item.GetOperation(m) == nil) {
				t.Errorf("%s %s: served, but not in the document", m, path)
			}
		}
		checkOtherMethods(t, doc, path, item)
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if !serves(routes[path], method) {
				t.Errorf("%s %s: in the document, but not served", method, path)
				continue
			}
			checkOptIn(t, without, method, path, op)
		}
	}
}

// checkOtherMethods checks that item answers the methods it does not serve
// with the document's 405 in the error shape of path's family.
func checkOtherMethods(t *testing.T, doc *openapi3.T, path string, item *openapi3.PathItem) {
	t.Helper()
	want := "#/components/responses/MethodNotAllowed"
	if oauthFamily(path) {
		want = "#/components/responses/OAuthMethodNotAllowed"
	}
	ref, _ := item.Extensions[otherMethodsKey].(map[string]any)
	if got, _ := ref["$ref"].(string); got != want {
		t.Errorf("%s: %s is %v, want $ref %s", path, otherMethodsKey, item.Extensions[otherMethodsKey], want)
	}
	if doc.Components.Responses[strings.TrimPrefix(want, "#/components/responses/")] == nil {
		t.Errorf("%s: %s names no response of the document", path, want)
	}
}

// checkOptIn checks that op, method at path, is marked with the flags
// that add it to a server (those without which, in without, it is not
// served), and unmarked if none does.
func checkOptIn(t *testing.T, without map[string]map[string][]string, method, path string, op *openapi3.Operation) {
	t.Helper()
	mark, _ := op.Extensions[optInKey].(string)
	needed := false
	for _, f := range optIns {
		if serves(without[f.flag][path], method) {
			continue
		}
		needed = true
		if !strings.Contains(mark, f.flag) {
			t.Errorf("%s %s: %s %q does not name %s, which adds it", method, path, optInKey, mark, f.flag)
		}
	}
	if !needed && mark != "" {
		t.Errorf("%s %s: marked %s %q, but no flag adds it", method, path, optInKey, mark)
	}
}

// TestOpenAPIDescribesBareRequests sends every operation of the document,
// on a server with every opt-in surface, a request without credentials or
// body: the answers (the public ones, and the refusals in each family's
// shape) must match the document.
func TestOpenAPIDescribesBareRequests(t *testing.T) {
	t.Parallel()
	srv, _ := newEverySurfaceServer(t)
	doc, err := apitest.LoadDocument()
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Transport: apitest.NewValidator(t).Transport(t, nil)}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			if path == "/updates/stream" {
				continue // it stays open
			}
			req, err := http.NewRequest(method, srv.URL+concrete(path), nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := hc.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
}

// exchanger sends requests through a client that checks every exchange
// against the document, and fails the test on an unexpected status.
type exchanger struct {
	t    *testing.T
	hc   *http.Client
	base string
}

func newExchanger(t *testing.T, base string) exchanger {
	return exchanger{t: t, hc: &http.Client{Transport: apitest.NewValidator(t).Transport(t, nil)}, base: base}
}

// do sends method path with body, of contentType if not "", and the
// header name/value pairs given; it returns the answer's body, and fails
// the test unless its status is want.
func (e exchanger) do(want int, method, path, contentType, body string, header ...string) []byte {
	e.t.Helper()
	req, err := http.NewRequest(method, e.base+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := e.hc.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	if resp.StatusCode != want {
		e.t.Errorf("%s %s: got %d %s, want %d", method, path, resp.StatusCode, b, want)
	}
	return b
}

const formType = "application/x-www-form-urlencoded"

// TestOpenAPIDescribesSelfServiceAnswers goes through the life of a
// registered application and the operator's calls, each answer checked
// against the document: the success answers of the OAuth and self-service
// endpoints, and their refusals that need credentials to reach.
func TestOpenAPIDescribesSelfServiceAnswers(t *testing.T) {
	t.Parallel()
	srv, _ := newEverySurfaceServer(t)
	e := newExchanger(t, srv.URL)
	operator := []string{"Authorization", "Bearer " + regOperatorToken}
	var app struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	b := e.do(http.StatusCreated, "POST", "/developers/register", "application/json", `{"name":"Meter reader","contact":"dev@example.com"}`)
	if err := json.Unmarshal(b, &app); err != nil || app.ClientSecret == "" {
		t.Fatalf("registration: %s (%v)", b, err)
	}
	creds := "client_id=" + url.QueryEscape(app.ClientID) + "&client_secret=" + url.QueryEscape(app.ClientSecret)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.Unmarshal(e.do(http.StatusOK, "POST", auth.TokenPath, formType, creds+"&grant_type=client_credentials"), &tok)
	e.do(http.StatusOK, "GET", "/developers/app", "", "", "Authorization", "Bearer "+tok.AccessToken)
	e.do(http.StatusOK, "POST", auth.IntrospectPath, formType, "token="+tok.AccessToken, operator...)
	e.do(http.StatusOK, "POST", auth.IntrospectPath, formType, "token=not-a-token", operator...)
	e.do(http.StatusOK, "POST", auth.RevokePath, formType, creds+"&token="+tok.AccessToken)
	e.do(http.StatusUnauthorized, "POST", auth.RevokePath, formType, "client_id="+app.ClientID+"&client_secret=wrong&token=x")
	if err := json.Unmarshal(e.do(http.StatusOK, "POST", "/developers/app/rotate-secret", formType, creds), &app); err != nil {
		t.Fatal(err)
	}
	e.do(http.StatusCreated, "POST", auth.RegisterPath, "application/json", `{"client_name":"Gateway","contacts":["ops@example.com"],"redirect_uris":["https://example.com/cb"]}`, operator...)
	e.do(http.StatusBadRequest, "POST", auth.RegisterPath, "application/json", `{"grant_types":["password"]}`, operator...)
	e.do(http.StatusOK, "GET", "/operator/clients", "", "", operator...)
	e.do(http.StatusConflict, "POST", "/operator/clients/"+app.ClientID+"/approve", "", "", operator...)
	e.do(http.StatusNotFound, "POST", "/operator/clients/nobody/approve", "", "", operator...)
	e.do(http.StatusOK, "GET", auth.MetadataPath, "", "")
	req, _ := http.NewRequest("POST", "/", nil)
	req.SetBasicAuth(app.ClientID, app.ClientSecret)
	e.do(http.StatusNoContent, "POST", "/developers/app/delete", "", "", "Authorization", req.Header.Get("Authorization"))
}

// TestOpenAPIDescribesSandboxAnswers calls every admin endpoint of the
// sandbox with the admin token, each answer checked against the document.
func TestOpenAPIDescribesSandboxAnswers(t *testing.T) {
	t.Parallel()
	srv, _ := newEverySurfaceServer(t)
	e := newExchanger(t, srv.URL)
	admin := []string{"Authorization", "Bearer " + sbAdmin}
	e.do(http.StatusOK, "POST", "/sandbox/rules", "application/json",
		`{"seed":1,"rules":[{"id":"slow","match":{"dataset":"thermoelectric"},"action":{"latency":"1ms"},"trigger":{"every":2}}]}`, admin...)
	e.do(http.StatusBadRequest, "POST", "/sandbox/rules", "application/yaml", "- {action: {status: 418}}", admin...)
	e.do(http.StatusOK, "GET", "/sandbox/rules", "", "", admin...)
	e.do(http.StatusOK, "POST", auth.TokenPath, formType, "grant_type=client_credentials&client_id="+apitest.ClientID+"&client_secret="+apitest.ClientSecret)
	e.do(http.StatusOK, "GET", "/sandbox/journal?client_id="+apitest.ClientID, "", "", admin...)
	e.do(http.StatusOK, "PUT", "/sandbox/clock", "application/json", `{"advance":"90s"}`, admin...)
	e.do(http.StatusBadRequest, "PUT", "/sandbox/clock", "application/json", `{"advance":"90s","now":"2025-06-30T12:00:00Z"}`, admin...)
	e.do(http.StatusOK, "GET", "/sandbox/clock", "", "", admin...)
	e.do(http.StatusOK, "DELETE", "/sandbox/clock", "", "", admin...)
	e.do(http.StatusBadRequest, "POST", "/sandbox/quota", "application/json", `{"client_id":"`+apitest.ClientID+`"}`, admin...) // no daily quota
	e.do(http.StatusNoContent, "DELETE", "/sandbox/rules/slow", "", "", admin...)
	e.do(http.StatusNotFound, "DELETE", "/sandbox/rules/slow", "", "", admin...)
	e.do(http.StatusNoContent, "DELETE", "/sandbox/journal", "", "", admin...)
	e.do(http.StatusNoContent, "DELETE", "/sandbox/rules", "", "", admin...)
}
