package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/getkin/kin-openapi/openapi3"
)

func TestOpenAPIDocumentDescribesTheSurface(t *testing.T) {
	t.Parallel()
	doc, err := apitest.LoadDocument() // fails on an invalid document, examples included
	if err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi: got %q, want 3.1.0", doc.OpenAPI)
	}
	// Which operations there are: TestOpenAPIListsEveryRoute walks the
	// route table against them.
	op := func(method, path string) *openapi3.Operation { return doc.Paths.Value(path).GetOperation(method) }
	if !op("POST", "/transparency/oauth/accessToken").Deprecated || op("POST", "/public-api/access-token").Deprecated {
		t.Error("deprecated: want only the legacy token path deprecated")
	}
	for _, path := range []string{thermoPath, peakValleyPath} {
		sec := op("GET", path).Security
		if sec == nil || len(*sec) != 1 || (*sec)[0]["clientCredentials"] == nil {
			t.Errorf("%s: security: got %v, want clientCredentials", path, sec)
		}
	}
	for _, path := range []string{"/openapi.yaml", "/openapi.json"} {
		if sec := op("GET", path).Security; sec == nil || len(*sec) != 0 {
			t.Errorf("%s: security: got %v, want none", path, sec)
		}
	}
	scheme := doc.Components.SecuritySchemes["clientCredentials"].Value
	if scheme.Type != "oauth2" || scheme.Flows.ClientCredentials.TokenURL != "/public-api/access-token" {
		t.Errorf("clientCredentials: got %s with token URL %q, want oauth2 with /public-api/access-token", scheme.Type, scheme.Flows.ClientCredentials.TokenURL)
	}
	params := map[string]bool{}
	for _, p := range op("GET", thermoPath).Parameters {
		params[p.Value.In+" "+p.Value.Name] = p.Value.Required
	}
	wantParams := map[string]bool{"query year": true, "query region": false, "query province": false, "query category": false, "query subcategory": false, "header businessID": false, "header If-None-Match": false, "header If-Modified-Since": false, "query format": false,
		"query asOf": false, "query changedSince": false, "query include": false, "query limit": false, "query cursor": false}
	if len(params) != len(wantParams) {
		t.Errorf("thermoelectric parameters: got %v, want %v", params, wantParams)
	}
	for name, required := range wantParams {
		if r, ok := params[name]; !ok || r != required {
			t.Errorf("thermoelectric parameter %s: got present %v required %v, want required %v", name, ok, r, required)
		}
	}
}

func TestOpenAPIServedWithoutAuthentication(t *testing.T) {
	t.Parallel()
	h := newHarness(t, thermoData())
	y := h.get(t, "/openapi.yaml", "Authorization", "")
	if y.status != http.StatusOK || y.header.Get("Content-Type") != "application/yaml" {
		t.Fatalf("/openapi.yaml: got %d %q, want 200 application/yaml", y.status, y.header.Get("Content-Type"))
	}
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := api.OpenAPIDocument(cat)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(y.body, doc) {
		t.Error("/openapi.yaml: the body differs from the embedded document")
	}
	j := h.get(t, "/openapi.json", "Authorization", "")
	if j.status != http.StatusOK || j.header.Get("Content-Type") != "application/json" {
		t.Fatalf("/openapi.json: got %d %q, want 200 application/json", j.status, j.header.Get("Content-Type"))
	}
	// The conversion keeps the YAML's key order.
	if !strings.HasPrefix(string(j.body), "{\n  \"openapi\": \"3.1.0\",\n  \"info\": {\n    \"title\": \"Energy Data Public API\",\n    \"version\": \"2.0\",") {
		t.Errorf("/openapi.json starts %.120q, want openapi, then info with title and version in YAML order", j.body)
	}
	// Both encodings load to the same document.
	fromYAML, err := openapi3.NewLoader().LoadFromData(y.body)
	if err != nil {
		t.Fatal(err)
	}
	fromJSON, err := openapi3.NewLoader().LoadFromData(j.body)
	if err != nil {
		t.Fatalf("/openapi.json does not load: %v", err)
	}
	a, _ := json.Marshal(fromYAML)
	b, _ := json.Marshal(fromJSON)
	if !bytes.Equal(a, b) {
		t.Error("/openapi.json and /openapi.yaml describe different documents")
	}
	for _, r := range []response{y, j} {
		if r.header.Get("ETag") == "" || r.header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("got ETag %q and CORS %q, want an ETag and *", r.header.Get("ETag"), r.header.Get("Access-Control-Allow-Origin"))
		}
	}
	if y.header.Get("ETag") == j.header.Get("ETag") {
		t.Error("the two encodings share an ETag")
	}
	if r := h.get(t, "/openapi.json", "Authorization", "", "If-None-Match", j.header.Get("ETag")); r.status != http.StatusNotModified || len(r.body) != 0 {
		t.Errorf("If-None-Match with the current ETag: got %d with %d bytes, want 304 and no body", r.status, len(r.body))
	}
}

// TestOpenAPIValidatorCatchesDrift shows that the checks the harness applies
// to every exchange can fail: each case is an answer the server must not give.
func TestOpenAPIValidatorCatchesDrift(t *testing.T) {
	t.Parallel()
	v := apitest.NewValidator(t)
	const (
		thermoRec = `{"year":"2023","capacity_type":"Lorda","region":"Puglia","province":"Brindisi","category":"Non cogenerativa","subcategory":"Condensazione","production_GWh":%s}`
		pvRec     = `{"date":"2024-10-27 02:30:00","date_tz":"Europe/Rome","date_offset":"+01:00","peak_load_GW":%s,"valley_load_GW":%s}`
		thermoOK  = `{"result":{"message":"OK","status":"Completed"},"thermoelectric":[` + thermoRec + `]}`
		pvOK      = `{"result":{"message":"m","status":"Completed"},"peak_valley_load":[` + pvRec + `]}`
		envelope  = `{"result":{"message":"Input Validation Error: x","status":%q}}`
	)
	jsonHeader := func(kv ...string) http.Header {
		h := http.Header{"Content-Type": {"application/json"}, "X-Request-Id": {"r1"}}
		for i := 0; i+1 < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	thermoGet := thermoPath + "?year=2023"
	pvGet := peakValleyPath + "?dateFrom=27/10/2024&dateTo=27/10/2024"
	cases := []struct {
		name   string
		method string
		target string
		authz  string
		status int
		header http.Header
		body   string
		valid  bool
	}{
		{"thermoelectric record", "GET", thermoGet, "Bearer t", 200, jsonHeader(), fmt.Sprintf(thermoOK, `"5.234,568"`), true},
		{"production with a decimal point", "GET", thermoGet, "Bearer t", 200, jsonHeader(), fmt.Sprintf(thermoOK, `"5234.568"`), false},
		{"production as a JSON number", "GET", thermoGet, "Bearer t", 200, jsonHeader(), fmt.Sprintf(thermoOK, `5234.568`), false},
		{"a field the document does not name", "GET", thermoGet, "Bearer t", 200, jsonHeader(), strings.Replace(fmt.Sprintf(thermoOK, `"1,0"`), `"year"`, `"plant":"x","year"`, 1), false},
		{"thermoelectric array missing", "GET", thermoGet, "Bearer t", 200, jsonHeader(), `{"result":{"message":"OK","status":"Completed"}}`, false},
		{"empty body without Content-Type", "GET", thermoGet, "Bearer t", 200, http.Header{"X-Request-Id": {"r1"}}, "", true},
		{"empty body declared JSON", "GET", thermoGet, "Bearer t", 200, jsonHeader(), "", false},
		{"body without Content-Type", "GET", thermoGet, "Bearer t", 200, http.Header{"X-Request-Id": {"r1"}}, "x", false},
		{"valley record", "GET", pvGet, "Bearer t", 200, jsonHeader(), fmt.Sprintf(pvOK, `""`, `"19.500"`), true},
		{"peak and valley both set", "GET", pvGet, "Bearer t", 200, jsonHeader(), fmt.Sprintf(pvOK, `"30.250"`, `"19.500"`), false},
		{"neither peak nor valley", "GET", pvGet, "Bearer t", 200, jsonHeader(), fmt.Sprintf(pvOK, `""`, `""`), false},
		{"load with a decimal comma", "GET", pvGet, "Bearer t", 200, jsonHeader(), fmt.Sprintf(pvOK, `""`, `"19,5"`), false},
		{"error envelope", "GET", thermoGet, "Bearer t", 400, jsonHeader(), fmt.Sprintf(envelope, "ERROR"), true},
		{"error envelope with status Completed", "GET", thermoGet, "Bearer t", 400, jsonHeader(), fmt.Sprintf(envelope, "Completed"), false},
		{"401 without a challenge", "GET", thermoGet, "Bearer t", 401, jsonHeader(), fmt.Sprintf(envelope, "ERROR"), false},
		{"401 with the challenge", "GET", thermoGet, "Bearer t", 401, jsonHeader("WWW-Authenticate", `Bearer realm="energyapi"`), fmt.Sprintf(envelope, "ERROR"), true},
		{"request without year answered 200", "GET", thermoPath, "Bearer t", 200, jsonHeader(), fmt.Sprintf(thermoOK, `"1,0"`), false},
		{"request without year answered 400", "GET", thermoPath, "Bearer t", 400, jsonHeader(), fmt.Sprintf(envelope, "ERROR"), true},
		{"request without a token answered 200", "GET", thermoGet, "", 200, jsonHeader(), fmt.Sprintf(thermoOK, `"1,0"`), false},
		{"malformed date answered 200", "GET", peakValleyPath + "?dateFrom=2024-10-27&dateTo=27/10/2024", "Bearer t", 200, jsonHeader(), fmt.Sprintf(pvOK, `""`, `"1.0"`), false},
		{"undocumented path answered 200", "GET", "/v3/anything", "", 200, jsonHeader(), `{}`, false},
		{"undocumented path answered 404", "GET", "/v3/anything", "", 404, http.Header{}, "404 page not found", true},
		{"undocumented method answered 200", "DELETE", thermoGet, "Bearer t", 200, jsonHeader(), `{}`, false},
		{"undocumented method answered 405", "GET", "/public-api/access-token", "", 405, jsonHeader("Cache-Control", "no-store"), `{"error":"invalid_request","error_description":"d"}`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, "http://api.test"+tc.target, nil)
			if tc.authz != "" {
				req.Header.Set("Authorization", tc.authz)
			}
			err := v.Check(req, nil, tc.status, tc.header, []byte(tc.body))
			if (err == nil) != tc.valid {
				t.Errorf("got error %v, want valid %v", err, tc.valid)
			}
		})
	}
}

func TestOpenAPIValidatorChecksTokenExchanges(t *testing.T) {
	t.Parallel()
	v := apitest.NewValidator(t)
	noStore := func(kv ...string) http.Header {
		h := http.Header{"Content-Type": {"application/json;charset=UTF-8"}, "Cache-Control": {"no-store"}}
		for i := 0; i+1 < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	const form = "client_id=a&client_secret=b&grant_type=client_credentials"
	cases := []struct {
		name   string
		body   string
		status int
		header http.Header
		answer string
		valid  bool
	}{
		{"token", form, 200, noStore(), `{"access_token":"x","token_type":"bearer","expires_in":300}`, true},
		{"expires_in as a string", form, 200, noStore(), `{"access_token":"x","token_type":"bearer","expires_in":"300"}`, false},
		{"token without no-store", form, 200, http.Header{"Content-Type": {"application/json"}}, `{"access_token":"x","token_type":"bearer","expires_in":300}`, false},
		{"token type capitalised", form, 200, noStore(), `{"access_token":"x","token_type":"Bearer","expires_in":300}`, false},
		{"password grant answered 200", "grant_type=password&client_id=a&client_secret=b", 200, noStore(), `{"access_token":"x","token_type":"bearer","expires_in":300}`, false},
		{"password grant refused", "grant_type=password&client_id=a&client_secret=b", 400, noStore(), `{"error":"unsupported_grant_type","error_description":"d"}`, true},
		{"error code outside RFC 6749", form, 401, noStore(), `{"error":"bad_secret","error_description":"d"}`, false},
		{"error in the data envelope", form, 401, noStore(), `{"result":{"message":"m","status":"ERROR"}}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"/public-api/access-token", "/transparency/oauth/accessToken"} {
				req := httptest.NewRequest(http.MethodPost, "http://api.test"+path, strings.NewReader(tc.body))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				err := v.Check(req, []byte(tc.body), tc.status, tc.header, []byte(tc.answer))
				if (err == nil) != tc.valid {
					t.Errorf("%s: got error %v, want valid %v", path, err, tc.valid)
				}
			}
		})
	}
}
