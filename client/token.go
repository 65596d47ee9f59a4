package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// tokenCache holds the current access token and fetches a new one with
// clientcredentials when it is about to expire or was refused. Expiry is
// judged by the client's clock rather than by oauth2.Token.Valid, which reads
// the system clock: tests move a fake clock past a token's lifetime.
type tokenCache struct {
	cfg clientcredentials.Config
	hc  *http.Client
	now func() time.Time
	// fetching admits one token request at a time; waiting for it honours
	// the caller's context, which a mutex would not.
	fetching chan struct{}

	mu        sync.Mutex
	token     string
	refreshAt time.Time // zero: the server gave no lifetime; keep until refused
}

func newTokenCache(tokenURL, id, secret string, hc *http.Client, now func() time.Time) *tokenCache {
	return &tokenCache{
		cfg: clientcredentials.Config{
			ClientID: id, ClientSecret: secret, TokenURL: tokenURL,
			// The API's documented form: credentials in the body. Auto-detection
			// would first try HTTP Basic and spend a failed request on servers
			// that only take the form.
			AuthStyle: oauth2.AuthStyleInParams,
		},
		hc:       hc,
		now:      now,
		fetching: make(chan struct{}, 1),
	}
}

// refreshMargin is how long before expiry a token is replaced: clients of
// the public deployment use 5 to 60 s; a tenth of a short lifetime at most.
func refreshMargin(life time.Duration) time.Duration {
	return min(30*time.Second, life/10)
}

// cached returns the current token if it is still good to use.
func (t *tokenCache) cached() (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.token == "" || (!t.refreshAt.IsZero() && !t.now().Before(t.refreshAt)) {
		return "", false
	}
	return t.token, true
}

// get returns a token good to use, fetching one if needed. Errors from the
// token endpoint are *APIError.
func (t *tokenCache) get(ctx context.Context) (string, error) {
	if tok, ok := t.cached(); ok {
		return tok, nil
	}
	select {
	case t.fetching <- struct{}{}:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	defer func() { <-t.fetching }()
	if tok, ok := t.cached(); ok { // fetched while we waited
		return tok, nil
	}
	start := t.now()
	tok, err := t.cfg.Token(context.WithValue(ctx, oauth2.HTTPClient, t.hc))
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.Response != nil {
			return "", newAPIError(re.Response.StatusCode, re.Response.Header, re.Body, t.now())
		}
		return "", fmt.Errorf("client: access token: %w", err)
	}
	var refreshAt time.Time
	if life := lifetime(tok); life > 0 {
		// Counted from before the request: the server's clock started earlier
		// than the answer arrived.
		refreshAt = start.Add(life - refreshMargin(life))
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.token, t.refreshAt = tok.AccessToken, refreshAt
	return tok.AccessToken, nil
}

// lifetime returns the token's expires_in. clientcredentials does not copy
// it into Token.ExpiresIn, and Token.Expiry is on the system clock, so it is
// read from the raw answer; Expiry serves only for answers in no known shape.
func lifetime(tok *oauth2.Token) time.Duration {
	if tok.ExpiresIn > 0 {
		return time.Duration(tok.ExpiresIn) * time.Second
	}
	switch v := tok.Extra("expires_in").(type) {
	case float64: // a JSON number
		return time.Duration(v * float64(time.Second))
	case string: // a form-encoded answer, or a server that quotes numbers
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return time.Duration(n) * time.Second
		}
	}
	if !tok.Expiry.IsZero() {
		return time.Until(tok.Expiry)
	}
	return 0
}

// invalidate drops token, which the server refused, unless a newer one has
// replaced it already.
func (t *tokenCache) invalidate(token string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.token == token {
		t.token = ""
	}
}
