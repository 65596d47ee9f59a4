package main

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/testwait"
)

// credentialsEndWithin is how soon after `clients rotate-secret` or `clients
// revoke` returns every replica must refuse the old credentials, as the
// docs/operators.md promises: 100 ms, scaled by testwait for machines too loaded to
// keep it under the race detector.
func credentialsEndWithin(tb testing.TB) time.Duration {
	tb.Helper()
	return testwait.Scale(100 * time.Millisecond)
}

// TestRotationAndRevocationEndCredentialsAtOncePostgreSQL runs two replicas
// on one PostgreSQL database, polling only every 5 s, and checks that
// `clients rotate-secret` and `clients revoke`, run as an operator runs them,
// end the old secret and the tokens issued before on both within 100 ms.
func TestRotationAndRevocationEndCredentialsAtOncePostgreSQL(t *testing.T) {
	env := map[string]string{"ENERGYAPI_DB": cluster.Database(t)}
	checkCredentialsEndAtOnce(t, env)
}

// TestRotationAndRevocationEndCredentialsAtOnceSQLite does the same with two
// serve processes on one SQLite file.
func TestRotationAndRevocationEndCredentialsAtOnceSQLite(t *testing.T) {
	env := map[string]string{"ENERGYAPI_DB": filepath.Join(t.TempDir(), "e.db")}
	if _, err := runCmd(t, env, "init"); err != nil {
		t.Fatal(err)
	}
	checkCredentialsEndAtOnce(t, env)
}

func checkCredentialsEndAtOnce(t *testing.T, env map[string]string) {
	const load = "/load/v2.0/peak-valley-load?dateFrom=01/01/2024&dateTo=01/01/2024"
	c := createClient(t, env, "--name", "acme")
	// The slowest poll serve allows: what ends the credentials in time
	// must be the store telling the replicas, not their poll.
	replicas := map[string]*server{
		"A": startServe(t, env, "--poll-interval", "5s"),
		"B": startServe(t, env, "--poll-interval", "5s"),
	}
	// tokens issues a token on each replica and checks that it works on
	// every replica, so that each is in every verifier's cache.
	tokens := func(secret string) map[string]string {
		toks := map[string]string{}
		for name, s := range replicas {
			tok, st := s.token(t, c.ClientID, secret)
			if st != http.StatusOK {
				t.Fatalf("token from %s: got %d, want 200", name, st)
			}
			toks[name] = tok
			for other, o := range replicas {
				if st, body := o.get(t, load, tok); st != http.StatusOK {
					t.Fatalf("%s's token on %s: got %d (%s), want 200", name, other, st, body)
				}
			}
		}
		return toks
	}
	// refused waits, from the command's return, for every replica to
	// refuse the old secret and every token issued before. The checks run
	// side by side, so that the bound measures the replicas, not the
	// requests of this test one after another.
	refused := func(what, secret string, toks map[string]string) {
		t.Helper()
		start := time.Now()
		deadline := start.Add(credentialsEndWithin(t))
		var checks []refusal
		for name, s := range replicas {
			checks = append(checks, refusal{name + " refusing the old secret", func() bool {
				_, st := s.token(t, c.ClientID, secret)
				return st == http.StatusUnauthorized
			}})
			for issuer, tok := range toks {
				checks = append(checks, refusal{name + " refusing " + issuer + "'s earlier token", func() bool {
					st, _ := s.get(t, load, tok)
					return st == http.StatusUnauthorized
				}})
			}
		}
		last, late := awaitAll(deadline, checks)
		for _, l := range late {
			t.Errorf("%s after %s: not within %s", l, what, credentialsEndWithin(t))
		}
		if len(late) == 0 {
			t.Logf("after %s, the last first-refused request was sent %v after the command returned", what, last.Sub(start).Round(time.Millisecond))
		}
	}

	old := tokens(c.ClientSecret)
	out, err := runCmd(t, env, "clients", "rotate-secret", c.ClientID)
	if err != nil {
		t.Fatal(err)
	}
	refused("the rotation", c.ClientSecret, old)
	var rotated createdClient
	if err := json.Unmarshal([]byte(out), &rotated); err != nil || rotated.ClientSecret == "" {
		t.Fatalf("clients rotate-secret: got %q (%v), want the new client_secret", out, err)
	}

	current := tokens(rotated.ClientSecret)
	if _, err := runCmd(t, env, "clients", "revoke", c.ClientID); err != nil {
		t.Fatal(err)
	}
	refused("the revocation", rotated.ClientSecret, current)
}

// refusal is a condition that a replica refuses something.
type refusal struct {
	what string
	cond func() bool
}

// awaitAll polls every check's condition side by side until it holds or the
// deadline passes. It returns when the last check that held was last tried
// (its request sent), and what those still failing at the deadline check.
func awaitAll(deadline time.Time, checks []refusal) (last time.Time, late []string) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, c := range checks {
		wg.Go(func() {
			for {
				tried := time.Now()
				if c.cond() {
					mu.Lock()
					if tried.After(last) {
						last = tried
					}
					mu.Unlock()
					return
				}
				if time.Now().After(deadline) {
					mu.Lock()
					late = append(late, c.what)
					mu.Unlock()
					return
				}
				time.Sleep(2 * time.Millisecond)
			}
		})
	}
	wg.Wait()
	return last, late
}
