// Package yardstick holds the minimal net/http handlers that energyapi is
// measured against: Static, which sends stored answers as they are (the
// yardstick of scripts/bench-ratio, served by scripts/staticserve), and
// TokenForm, which parses a client-credentials form and answers a token of
// the same size, signing it or not (the yardstick of
// scripts/bench-token-ratio, served by cmd/loadtest/baseline). They live
// here, not in those commands, so that the in-process benchmarks of
// internal/api set energyapi against the very same code, under callgrind as
// over the network.
package yardstick

import (
	"crypto/ed25519"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// TokenPath is where Static hands out its fixed token.
const TokenPath = "/public-api/access-token"

// Answer is one target's body and ETag, as it is and in gzip if stored.
type Answer struct {
	Body, Gzip []byte
	Tag, GzTag string
}

// Static answers each target (path and query) with its stored answer, and
// TokenPath with tokenBody: the least a net/http server can do to send the
// same bytes. A request whose Accept-Encoding names gzip gets the stored
// gzip form, with Content-Encoding and Vary; one whose If-None-Match is the
// form's tag gets 304 with no body.
func Static(answers map[string]Answer, tokenBody []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == TokenPath {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", strconv.Itoa(len(tokenBody)))
			_, _ = w.Write(tokenBody)
			return
		}
		a, ok := answers[r.URL.RequestURI()]
		if !ok {
			http.NotFound(w, r)
			return
		}
		body, tag := a.Body, a.Tag
		if a.Gzip != nil && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			body, tag = a.Gzip, a.GzTag
			w.Header().Set("Content-Encoding", "gzip")
			w.Header().Set("Vary", "Accept-Encoding")
		}
		if tag != "" {
			w.Header().Set("ETag", tag)
			if r.Header.Get("If-None-Match") == tag {
				w.WriteHeader(http.StatusNotModified)
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body)
	})
}

// tokenTail is what follows the token in TokenAnswer's body.
const tokenTail = `","token_type":"bearer","expires_in":300}`

// TokenAnswer is a token response padded to size bytes.
func TokenAnswer(size int) ([]byte, error) {
	const head = `{"access_token":"`
	pad := size - len(head) - len(tokenTail)
	if pad < 100 {
		return nil, fmt.Errorf("a token answer must be at least %d bytes", len(head)+len(tokenTail)+100)
	}
	return []byte(head + strings.Repeat("x", pad) + tokenTail), nil
}

// TokenForm parses the form as the token endpoint does and answers body (a
// TokenAnswer), with the part before the token's signature signed by key
// when key is not nil, as a token endpoint must sign.
func TokenForm(body []byte, key ed25519.PrivateKey) http.Handler {
	signed := body[:len(body)-len(tokenTail)-86] // what a JWS signature covers
	length := strconv.Itoa(len(body))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
		if r.Method != http.MethodPost || r.ParseForm() != nil ||
			r.PostForm.Get("grant_type") != "client_credentials" || r.PostForm.Get("client_id") == "" || r.PostForm.Get("client_secret") == "" {
			http.Error(w, `{"error":"invalid_request"}`, http.StatusBadRequest)
			return
		}
		if key != nil {
			_ = ed25519.Sign(key, signed)
		}
		h := w.Header()
		h.Set("Content-Type", "application/json;charset=UTF-8")
		h.Set("Content-Length", length)
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
	})
}
