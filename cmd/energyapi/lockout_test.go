package main

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
)

// clientFrom returns an HTTP client whose connections come from the local
// address ip, so that a server on 127.0.0.1 sees callers on several
// addresses.
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		},
	}}
}

// tokenStatusFrom returns the status of a token request sent through hc.
func tokenStatusFrom(t *testing.T, hc *http.Client, base, id, secret string) int {
	t.Helper()
	resp, err := hc.PostForm(base+"/public-api/access-token", url.Values{"client_id": {id}, "client_secret": {secret}, "grant_type": {"client_credentials"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestStrangersCannotLockAClientOut sends a client's ID with wrong secrets
// from 127.0.0.2 until serve (default limits) refuses them with 429, and
// checks that the client itself, on 127.0.0.1, still gets its tokens, and
// is limited only by its own failures.
func TestStrangersCannotLockAClientOut(t *testing.T) {
	env := map[string]string{"ENERGYAPI_DB": filepath.Join(t.TempDir(), "e.db")}
	if _, err := runCmd(t, env, "init"); err != nil {
		t.Fatal(err)
	}
	c := createClient(t, env, "--name", "victim")
	srv := startServe(t, env)
	if !strings.HasPrefix(srv.base, "http://127.0.0.1:") {
		t.Fatalf("serve listens on %s, want 127.0.0.1", srv.base)
	}
	stranger, owner := clientFrom("127.0.0.2"), clientFrom("127.0.0.1")

	var statuses []int
	for range 30 {
		statuses = append(statuses, tokenStatusFrom(t, stranger, srv.base, c.ClientID, "guess"))
	}
	if last := statuses[len(statuses)-1]; last != http.StatusTooManyRequests {
		t.Fatalf("30 wrong secrets from 127.0.0.2: got statuses %v, want the last ones 429", statuses)
	}
	if st := tokenStatusFrom(t, owner, srv.base, c.ClientID, c.ClientSecret); st != http.StatusOK {
		t.Fatalf("the client from 127.0.0.1 after a stranger's failures: got %d, want 200", st)
	}
	// The client's own failures still count against it, from its address.
	statuses = statuses[:0]
	for range 30 {
		statuses = append(statuses, tokenStatusFrom(t, owner, srv.base, c.ClientID, "typo"))
	}
	if last := statuses[len(statuses)-1]; last != http.StatusTooManyRequests {
		t.Fatalf("30 wrong secrets from 127.0.0.1: got statuses %v, want the last ones 429", statuses)
	}
}
