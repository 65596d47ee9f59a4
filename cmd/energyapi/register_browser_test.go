package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/web/browsertest"

	"github.com/chromedp/chromedp"

	"github.com/energyapi/energyapi/internal/testwait"
)

// newBrowser starts a headless Chromium tab (browsertest).
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	return browsertest.Start(t, browsertest.Path(t))
}

// run runs browser actions or fails the test.
func runBrowser(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action) {
	t.Helper()
	if err := chromedp.Run(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// until waits for a JavaScript condition in the page.
func until(expr string) chromedp.Action {
	return chromedp.Poll(expr, nil, chromedp.WithPollingTimeout(testwait.Scale(30*time.Second)))
}

// TestRegistrationInBrowser registers an application on the developer page
// of replica A of two sharing one SQLite file, checks that the secret is
// shown once, signs in with it (the page obtains a token), rotates the
// secret on the page and checks that both replicas refuse the old secret
// and the tokens issued with it at once, then deletes the application.
func TestRegistrationInBrowser(t *testing.T) {
	env := sqliteEnv(t)
	a := startServe(t, env, "--registration", "open", "--allow-unmetered-registration", "--poll-interval", "5s")
	b := startServe(t, env, "--registration", "open", "--allow-unmetered-registration", "--poll-interval", "5s")
	replicas := map[string]*server{"A": a, "B": b}
	ctx := newBrowser(t)
	id, secret, _ := registerOnPage(t, ctx, a, "Grid Watch", "dev@example.com")
	if id == "" || len(secret) < 40 {
		t.Fatalf("credentials shown: id %q, secret %q", id, secret)
	}
	var html string
	runBrowser(t, ctx, "reload", chromedp.Reload(), chromedp.OuterHTML("html", &html, chromedp.ByQuery))
	if strings.Contains(html, secret) {
		t.Errorf("the secret is shown again after a reload")
	}
	old := map[string]string{}
	for name, s := range replicas {
		tok, st := s.token(t, id, secret)
		if st != http.StatusOK {
			t.Fatalf("token from %s with the registered credentials: got %d", name, st)
		}
		old[name] = tok
		for other, o := range replicas {
			if st, body := o.get(t, peakValleyOneDay, tok); st != http.StatusOK {
				t.Fatalf("%s's token on %s: got %d %s", name, other, st, body)
			}
		}
	}
	var shownID string
	runBrowser(t, ctx, "sign in",
		chromedp.SendKeys("#signin-id", id, chromedp.ByQuery),
		chromedp.SendKeys("#signin-secret", secret, chromedp.ByQuery),
		chromedp.Click(`#signin button`, chromedp.ByQuery),
		until(`!document.getElementById("app").hidden && window.developersPage.token !== null && window.developersPage.usage !== null`),
		chromedp.Text("#app-info-id", &shownID, chromedp.ByQuery),
	)
	if shownID != id {
		t.Errorf("signed in as %q, want %q", shownID, id)
	}
	// The page shows the client's usage from GET /usage: at least the two
	// data calls made on this replica (those made on the other reach the
	// store at its next flush).
	var today string
	var calls int
	runBrowser(t, ctx, "usage",
		chromedp.Text("#usage-today", &today, chromedp.ByQuery),
		chromedp.Evaluate(`window.developersPage.usage.today.calls`, &calls),
	)
	if calls < 2 || !strings.Contains(today, fmt.Sprintf("%d calls", calls)) {
		t.Errorf("usage shown: %q (%d calls); want the data calls made, at least 2", today, calls)
	}
	var rotated string
	runBrowser(t, ctx, "rotate",
		chromedp.Click("#rotate", chromedp.ByQuery),
		until(`!document.getElementById("rotated").hidden`),
		chromedp.Text("#rotated-secret", &rotated, chromedp.ByQuery),
	)
	refusedEverywhere(t, replicas, "the rotation on the page", id, secret, old)
	for name, s := range replicas {
		if _, st := s.token(t, id, rotated); st != http.StatusOK {
			t.Errorf("the new secret on %s: got %d, want 200", name, st)
		}
	}
	var status string
	runBrowser(t, ctx, "delete",
		until(`window.developersPage.token !== null`),
		chromedp.Click("#delete", chromedp.ByQuery),
		chromedp.Click("#delete", chromedp.ByQuery),
		until(`document.getElementById("signin-status").textContent.includes("deleted")`),
		chromedp.Text("#signin-status", &status, chromedp.ByQuery),
	)
	refusedEverywhere(t, replicas, "the deletion on the page", id, rotated, nil)
}

// registerOnPage registers an application on s's developer page and
// returns the credentials and the status the page shows.
func registerOnPage(t *testing.T, ctx context.Context, s *server, name, contact string) (id, secret, status string) {
	t.Helper()
	runBrowser(t, ctx, "register",
		chromedp.Navigate(s.base+"/developers"),
		chromedp.SendKeys("#app-name", name, chromedp.ByQuery),
		chromedp.SendKeys("#app-contact", contact, chromedp.ByQuery),
		chromedp.Click(`#register button`, chromedp.ByQuery),
		until(`!document.getElementById("credentials").hidden`),
		chromedp.Text("#new-client-id", &id, chromedp.ByQuery),
		chromedp.Text("#new-client-secret", &secret, chromedp.ByQuery),
		chromedp.Text("#new-status", &status, chromedp.ByQuery),
	)
	return id, secret, status
}

// refusedEverywhere checks that every replica refuses the secret and the
// tokens within credentialsEndWithin.
func refusedEverywhere(t *testing.T, replicas map[string]*server, what, id, secret string, toks map[string]string) {
	t.Helper()
	deadline := time.Now().Add(credentialsEndWithin(t))
	var checks []refusal
	for name, s := range replicas {
		checks = append(checks, refusal{name + " refusing the old secret", func() bool {
			_, st := s.token(t, id, secret)
			return st == http.StatusUnauthorized
		}})
		for issuer, tok := range toks {
			checks = append(checks, refusal{name + " refusing " + issuer + "'s earlier token", func() bool {
				st, _ := s.get(t, peakValleyOneDay, tok)
				return st == http.StatusUnauthorized
			}})
		}
	}
	if _, late := awaitAll(deadline, checks); len(late) > 0 {
		t.Errorf("after %s, not within %s: %v", what, credentialsEndWithin(t), late)
	}
}

// TestRegistrationApprovalInBrowser registers with --registration approval,
// finds sign-in refused, approves the client on the operator page with the
// operator token, and signs in.
func TestRegistrationApprovalInBrowser(t *testing.T) {
	s := startServe(t, sqliteEnv(t), operatorFlags(t, "approval")...)
	ctx := newBrowser(t)
	id, secret, status := registerOnPage(t, ctx, s, "Pending App", "ops@example.com")
	var refused string
	if !strings.Contains(status, "must approve") {
		t.Errorf("status after registering: got %q, want it to say the operator must approve", status)
	}
	signIn := []chromedp.Action{
		chromedp.SendKeys("#signin-id", id, chromedp.ByQuery),
		chromedp.SendKeys("#signin-secret", secret, chromedp.ByQuery),
		chromedp.Click(`#signin button`, chromedp.ByQuery),
	}
	runBrowser(t, ctx, "sign in before approval", append(signIn,
		until(`!["", "signing in…"].includes(document.getElementById("signin-status").textContent)`),
		chromedp.Text("#signin-status", &refused, chromedp.ByQuery))...)
	if !strings.Contains(refused, "awaits approval") {
		t.Errorf("sign-in before approval: page says %q, want that the client awaits approval", refused)
	}
	if _, st := s.token(t, id, secret); st != http.StatusUnauthorized {
		t.Errorf("token before approval: got %d, want 401", st)
	}
	runBrowser(t, ctx, "approve on the operator page",
		chromedp.Navigate(s.base+"/operator"),
		chromedp.SendKeys("#operator-token", rfcOperatorToken, chromedp.ByQuery),
		chromedp.Click(`#operator-signin button`, chromedp.ByQuery),
		until(`document.querySelector('tr[data-client-id="`+id+`"] button.approve') !== null`),
		chromedp.Click(`tr[data-client-id="`+id+`"] button.approve`, chromedp.ByQuery),
		until(`document.querySelector('tr[data-client-id="`+id+`"] button.approve') === null`),
	)
	runBrowser(t, ctx, "sign in after approval", append([]chromedp.Action{chromedp.Navigate(s.base + "/developers")},
		append(signIn, until(`!document.getElementById("app").hidden`))...)...)
}
