package auth

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The token endpoint's hand-made parts against what they stand in for.

// TestClaimsMarshalAsJSON: the claims appended by hand are json.Marshal's
// bytes, for plain strings and for those it escapes (which take its path).
func TestClaimsMarshalAsJSON(t *testing.T) {
	now := time.Date(2024, 10, 27, 1, 30, 0, 0, time.UTC)
	for _, tc := range []struct{ name, issuer, client string }{
		{"plain", DefaultIssuer, "18226e497b634539e22157393c6529ec"},
		{"url issuer", "https://api.example.com/x?a=1&b=2", "demo"},
		{"html and quotes", `<"iss">`, `c\d`},
		{"non-ASCII", "énergie\u2028", "client\x01"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newAccessClaims(tc.issuer, tc.client, Fingerprint("h"), now, 5*time.Minute, "jti-1")
			got, err := c.marshal()
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(c)
			if string(got) != string(want) {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
}

// TestWriteTokenAsWriteJSON: the token answer appended by hand has
// writeJSON's bytes and headers.
func TestWriteTokenAsWriteJSON(t *testing.T) {
	e := &TokenEndpoint{Tokens: NewTokens(nil, nil, DefaultIssuer, 5*time.Minute, time.Now, rand.Reader)}
	for _, tok := range []string{"eyJh.eyJj.sig-_", "eyJhbGciOiJFZERTQSJ9.eyJjbGllbnRfaWQiOiJ4In0.c2ln_-"} {
		got, want := httptest.NewRecorder(), httptest.NewRecorder()
		e.writeToken(got, tok)
		writeJSON(want, http.StatusOK, tokenResponse{AccessToken: tok, TokenType: "bearer", ExpiresIn: 300})
		if got.Body.String() != want.Body.String() || !reflect.DeepEqual(got.Header(), want.Header()) || got.Code != want.Code {
			t.Errorf("%s: got %d %v %s, want %d %v %s", tok, got.Code, got.Header(), got.Body, want.Code, want.Header(), want.Body)
		}
	}
}

// TestParsePostFormAsParseForm: the token endpoint's form parsing fails
// where ParseForm fails, with a MaxBytesError past the limit, and leaves
// the same PostForm.
func TestParsePostFormAsParseForm(t *testing.T) {
	for _, tc := range []struct{ name, target, body string }{
		{"plain", "/t", "client_id=a&client_secret=b&grant_type=client_credentials"},
		{"escaped", "/t", "client_id=a%20b&x=%2F"},
		{"bad body", "/t", "client_id=a&x=%zz"},
		{"bad query", "/t?%zz", "client_id=a"},
		{"query ignored", "/t?client_id=q", "client_secret=b"},
		{"too large", "/t", "client_id=" + strings.Repeat("a", MaxTokenRequest)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mine, std := newFormRequest(tc.target, tc.body), newFormRequest(tc.target, tc.body)
			errMine, errStd := parsePostForm(mine), std.ParseForm()
			var tooBig *http.MaxBytesError
			if (errMine == nil) != (errStd == nil) || errors.As(errMine, &tooBig) != errors.As(errStd, &tooBig) {
				t.Errorf("error: got %v, want %v", errMine, errStd)
			}
			if !reflect.DeepEqual(mine.PostForm, std.PostForm) {
				t.Errorf("PostForm: got %v, want %v", mine.PostForm, std.PostForm)
			}
		})
	}
}

func newFormRequest(target, body string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, target, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, MaxTokenRequest)
	return r
}
