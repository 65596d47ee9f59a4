package auth_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/limit"
)

func FuzzBearerToken(f *testing.F) {
	// The reference notes' example token, in the Bearer form the
	// specification states and bare, as one published example sends it.
	for _, s := range []string{
		"Bearer d8bmzggu72dy69tzkffe6vaa", "d8bmzggu72dy69tzkffe6vaa", "bearer\td8bmzggu72dy69tzkffe6vaa",
		"BEARER   tok  ", "Bearer", "Bearer ", "Bearer a b", "Bearer a,b", "Basic ZGVtbzpkZW1vLXNlY3JldA==",
		"Bearer Bearer x", "\u00a0Bearer\u00a0x", "", " ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		tok, ok := auth.BearerToken(header)
		if !ok {
			if tok != "" {
				t.Fatalf("BearerToken(%q) = %q, false; want no token with false", header, tok)
			}
			return
		}
		if tok == "" || strings.ContainsAny(tok, " \t,") {
			t.Fatalf("BearerToken(%q) = %q: want a non-empty token without spaces, tabs or commas", header, tok)
		}
		if !strings.Contains(header, tok) {
			t.Fatalf("BearerToken(%q) = %q: not taken from the header", header, tok)
		}
		// Whatever was accepted is accepted again in the Bearer form.
		if again, ok := auth.BearerToken("Bearer " + tok); !ok || again != tok {
			t.Fatalf("BearerToken(%q) = %q, %v; want %q, true", "Bearer "+tok, again, ok, tok)
		}
	})
}

// oauthErrors are the error codes of RFC 6749 section 5.2.
var oauthErrors = map[string]bool{
	"invalid_request": true, "invalid_client": true, "invalid_grant": true,
	"unauthorized_client": true, "unsupported_grant_type": true, "invalid_scope": true,
	"server_error": true, // RFC 6749 section 4.1.2.1; the endpoint's answer when the store fails
}

// FuzzTokenEndpoint sends arbitrary methods, headers and bodies to the token
// endpoint: it must never panic or answer 500 for anything a client sends,
// and must always answer RFC 6749 JSON, uncacheable.
func FuzzTokenEndpoint(f *testing.F) {
	const id, secret = "fuzz-client", "fuzz-secret"
	form := "application/x-www-form-urlencoded"
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte(id+":"+secret))
	good := "client_id=" + id + "&client_secret=" + secret + "&grant_type=client_credentials"
	for _, s := range []struct {
		method, ctype, authz, body string
		failures                   uint8
	}{
		{"POST", form, "", good, 0},
		{"POST", form, "", good, 5}, // the address is over its failure limit
		{"POST", form, basic, "grant_type=client_credentials", 0},
		{"POST", form, basic, "grant_type=client_credentials&client_id=" + id, 0},
		// The specification's placeholders, sent literally.
		{"POST", form, "", "client_id=<CLIENT_ID>&client_secret=<CLIENT_SECRET>&grant_type=client_credentials", 0},
		{"POST", form + "; charset=UTF-8", "", good + "&client_id=" + id, 0},
		{"POST", form, "", "client_id=" + id + "&client_secret=wrong&grant_type=client_credentials", 1},
		{"POST", form, "", "client_id=" + id + "&client_secret=" + secret + "&grant_type=password", 0},
		{"POST", "application/json", "", `{"client_id":"fuzz-client"}`, 0},
		{"POST", form, "Basic !!!", "grant_type=client_credentials", 0},
		{"POST", form, "Bearer x", "grant_type=client_credentials", 0},
		{"POST", form, "", "%zz", 0},
		{"GET", "", "", "", 0},
		{"PUT", form, "", good, 0},
	} {
		f.Add(s.method, s.ctype, s.authz, []byte(s.body), s.failures)
	}
	e := newEnv(f)
	if err := e.reg.Ensure(context.Background(), id, "fuzz", secret); err != nil {
		f.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	f.Fuzz(func(t *testing.T, method, ctype, authz string, body []byte, failures uint8) {
		const remote = "192.0.2.1"
		// A fresh guard each time, primed with the case's failures, so that
		// one input's failures do not decide the next input's answer.
		guard := limit.NewFailureGuard(limit.Rate{N: 2, Per: time.Minute}, limit.Rate{N: 3, Per: time.Minute}, 100, e.clock.Now)
		for range failures % 8 {
			guard.Failed("", remote)
		}
		var outcomes []auth.TokenOutcome
		te := &auth.TokenEndpoint{
			Registry: e.reg, Tokens: e.tokens, Log: log, Guard: guard,
			Observe: func(o auth.TokenOutcome) { outcomes = append(outcomes, o) },
			Remote:  func(*http.Request) string { return remote },
		}
		req, err := http.NewRequest(method, "http://api.test/public-api/access-token", bytes.NewReader(body))
		if err != nil {
			return // not a method a server would ever pass to a handler
		}
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		if authz != "" {
			req.Header.Set("Authorization", authz)
		}
		rec := httptest.NewRecorder()
		te.ServeHTTP(rec, req)

		if rec.Code == http.StatusInternalServerError {
			t.Fatalf("status 500 for client input: %s", rec.Body)
		}
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Fatalf("Content-Type %q, want application/json", ct)
		}
		if cc := rec.Header().Get("Cache-Control"); cc != "no-store" {
			t.Fatalf("Cache-Control %q, want no-store", cc)
		}
		if len(outcomes) != 1 {
			t.Fatalf("Observe called with %v, want exactly one outcome", outcomes)
		}
		if rec.Code == http.StatusOK {
			var ok struct {
				AccessToken string `json:"access_token"`
				TokenType   string `json:"token_type"`
				ExpiresIn   *int   `json:"expires_in"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &ok); err != nil {
				t.Fatalf("200 body %q: %v", rec.Body, err)
			}
			if ok.TokenType != "bearer" || ok.ExpiresIn == nil || *ok.ExpiresIn != 300 || outcomes[0] != auth.Issued {
				t.Fatalf("200 body %q with outcome %q: want a bearer token for 300 s, outcome issued", rec.Body, outcomes[0])
			}
			if got, err := e.tokens.Verify(context.Background(), ok.AccessToken); err != nil || got != id {
				t.Fatalf("issued token verifies as %q, %v; want %q", got, err, id)
			}
			return
		}
		var oe struct {
			Error       string `json:"error"`
			Description string `json:"error_description"`
		}
		dec := json.NewDecoder(bytes.NewReader(rec.Body.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&oe); err != nil {
			t.Fatalf("%d body %q is not an RFC 6749 error: %v", rec.Code, rec.Body, err)
		}
		if !oauthErrors[oe.Error] || oe.Description == "" {
			t.Fatalf("%d body %q: want an RFC 6749 error code and a description", rec.Code, rec.Body)
		}
		if outcomes[0] == auth.Issued {
			t.Fatalf("status %d with outcome issued", rec.Code)
		}
		switch rec.Code {
		case http.StatusBadRequest, http.StatusUnauthorized, http.StatusMethodNotAllowed, http.StatusRequestEntityTooLarge:
		case http.StatusTooManyRequests:
			if s, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || s < 1 {
				t.Fatalf("429 with Retry-After %q, want a positive number of seconds", rec.Header().Get("Retry-After"))
			}
		default:
			t.Fatalf("status %d, want 200, 400, 401, 405, 413 or 429", rec.Code)
		}
		if strings.Contains(rec.Body.String(), secret) {
			t.Fatalf("error body %q repeats the client secret", rec.Body)
		}
	})
}
