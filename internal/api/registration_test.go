package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/auth"
)

// regOperatorToken is the operator token of newRegistrationServer, also
// the initial access token of POST /register.
const regOperatorToken = "operator-token-for-tests"

// newRegistrationServer serves registration open, with an operator token.
func newRegistrationServer(tb testing.TB) *apitest.Server {
	tb.Helper()
	return apitest.NewServer(tb, apitest.Options{Adjust: func(o *api.Options) {
		o.Auth.SelfService = &auth.SelfService{Mode: auth.RegistrationOpen, Registry: o.Auth.Registry,
			Tokens: o.Auth.Tokens, OperatorToken: regOperatorToken}
	}})
}

// oauthAnswer is an answer in the OAuth error shape, or a registration.
type oauthAnswer struct {
	status      int
	Error       string `json:"error"`
	Description string `json:"error_description"`
	ClientName  string `json:"client_name"` // POST /register
	Name        string `json:"name"`        // POST /developers/register
}

func postJSON(tb testing.TB, url, token string, body []byte) oauthAnswer {
	tb.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(string(body)))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	ans := apitest.Do(tb, nil, req)
	a := oauthAnswer{status: ans.Status}
	if err := json.Unmarshal(ans.Body, &a); err != nil {
		tb.Fatalf("answer %d %q is not JSON: %v", ans.Status, ans.Body, err)
	}
	return a
}

// TestRegistrationBodiesStrict sends both registration endpoints bodies
// that encoding/json alone accepts or mends (trailing data, null, duplicate
// and case-folded members, invalid UTF-8 and lone surrogates, which it
// turns into U+FFFD) and names with control or bidi characters: each is
// refused with 400 in the endpoint's OAuth error shape, naming the fault;
// a body past the limit is 413, as at the token endpoint. Unknown members
// are ignored, and names that need ZWJ or ZWNJ are kept.
func TestRegistrationBodiesStrict(t *testing.T) {
	srv := newRegistrationServer(t)
	endpoints := []struct {
		name, path, token, code string
		body                    func(name string) string // a valid body naming name
		nameKey, listKey        string                   // a member to repeat or fold, and one whose name folds with ſ
	}{
		{"rfc7591", "/register", regOperatorToken, "invalid_client_metadata",
			func(n string) string { return `{"client_name":` + n + `,"contacts":["dev@example.com"]}` }, "client_name", "contacts"},
		{"developers", "/developers/register", "", "invalid_request",
			func(n string) string { return `{"name":` + n + `,"contact":"dev@example.com"}` }, "name", ""},
	}
	for _, ep := range endpoints {
		t.Run(ep.name, func(t *testing.T) {
			valid := ep.body(`"Acme"`)
			cases := []struct {
				name, body, want string // want: in error_description; "" for 201
			}{
				{"valid", valid, ""},
				{"unknown member ignored", `{"logo_uri":"x",` + valid[1:], ""},
				{"ZWJ emoji and ZWNJ kept", ep.body(`"Acme \ud83d\udc69\u200d\ud83d\udcbb \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"`), ""},
				{"trailing data", valid + ` x`, "after the JSON object"},
				{"second object", valid + valid, "after the JSON object"},
				{"truncated", valid[:len(valid)-1], "not valid JSON"},
				{"null", `null`, "one JSON object"},
				{"array", `[` + valid + `]`, "one JSON object"},
				{"duplicate member", `{"` + ep.nameKey + `":"Evil",` + valid[1:], `"` + ep.nameKey + `" appears twice`},
				{"wrong type", ep.body(`5`), `"` + ep.nameKey + `" holds a number where a string belongs`},
				{"case-folded member", strings.Replace(valid, `"`+ep.nameKey+`"`, `"`+strings.ToUpper(ep.nameKey[:1])+ep.nameKey[1:]+`"`, 1), "spelled"},
				{"invalid UTF-8", ep.body("\"Ac\xffme\""), "UTF-8"},
				{"lone surrogate", ep.body(`"Ac\udc00me"`), "UTF-16"},
				{"high surrogate without its low half", ep.body(`"Ac\ud83dme"`), `\ud83d`},
				{"high surrogate ending the string", ep.body(`"Acme\ud83d"`), `\ud83d`},
				{"escaped backslash before u kept", ep.body(`"Ac\\udc00me"`), ""},
				{"control character", ep.body(`"Ac\u0007me"`), "U+0007"},
				{"tab", ep.body(`"Ac\tme"`), "U+0009"},
				{"right-to-left override", ep.body(`"Acme\u202egpj.exe"`), "U+202E"},
				{"first strong isolate", ep.body(`"Acme\u2068x"`), "U+2068"},
				{"left-to-right mark", ep.body(`"Acme\u200e"`), "U+200E"},
				{"line separator", ep.body(`"Acme\u2028x"`), "U+2028"},
				{"control character in the contact", strings.Replace(valid, "dev@", "dev\u202e@", 1), "U+202E"},
			}
			if ep.listKey != "" {
				cases = append(cases, struct{ name, body, want string }{"member folded by long s", strings.Replace(valid, `"contacts"`, `"contact\u017f"`, 1), "spelled"})
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					a := postJSON(t, srv.URL+ep.path, ep.token, []byte(tc.body))
					if tc.want == "" {
						if a.status != http.StatusCreated {
							t.Errorf("%s: got %d %s %q, want 201", tc.body, a.status, a.Error, a.Description)
						}
						return
					}
					if a.status != http.StatusBadRequest || a.Error != ep.code || !strings.Contains(a.Description, tc.want) {
						t.Errorf("%q: got %d %s %q, want 400 %s saying %q", tc.body, a.status, a.Error, a.Description, ep.code, tc.want)
					}
				})
			}
			t.Run("1 MB body", func(t *testing.T) {
				big := ep.body(`"Acme"`)
				big = `{"padding":"` + strings.Repeat("x", 1<<20) + `",` + big[1:]
				a := postJSON(t, srv.URL+ep.path, ep.token, []byte(big))
				if a.status != http.StatusRequestEntityTooLarge || a.Error != "invalid_request" || !strings.Contains(a.Description, "larger than") {
					t.Errorf("got %d %s %q, want 413 invalid_request saying the body is larger than the limit", a.status, a.Error, a.Description)
				}
			})
		})
	}
}

// TestSelfServiceFormsPastTheLimit sends the form endpoints of
// self-service a body past the token request's limit: 413 in the OAuth
// error shape, as the token endpoint answers, not 400.
func TestSelfServiceFormsPastTheLimit(t *testing.T) {
	srv := newRegistrationServer(t)
	big := "token=x&client_id=" + apitest.ClientID + "&client_secret=" + apitest.ClientSecret + "&padding=" + strings.Repeat("x", 1<<20)
	for _, path := range []string{"/revoke", "/introspect", "/developers/app/rotate-secret", "/developers/app/delete"} {
		t.Run(path, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(big))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if path == "/introspect" {
				req.Header.Set("Authorization", "Bearer "+regOperatorToken)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var a oauthAnswer
			if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusRequestEntityTooLarge || a.Error != "invalid_request" || !strings.Contains(a.Description, "larger than") {
				t.Errorf("got %d %s %q, want 413 invalid_request saying the body is larger than the limit", resp.StatusCode, a.Error, a.Description)
			}
		})
	}
}
