package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/testwait"
)

// rfcOperatorToken is the bearer token of RFC 7662 section 2.1's example
// request, used here as the operator token so that the example is sent as
// printed.
const rfcOperatorToken = "23410913-abewfq.123483"

// exchange sends one request and returns the status, headers and body.
func exchange(tb testing.TB, method, url string, header map[string]string, body string) (int, http.Header, string) {
	tb.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// operatorFlags writes the operator token file and returns serve's flags
// for it, with registration in mode; open registration without plans, which
// these tests do not exercise.
func operatorFlags(tb testing.TB, mode string) []string {
	tb.Helper()
	file := filepath.Join(tb.TempDir(), "operator-token")
	if err := os.WriteFile(file, []byte(rfcOperatorToken+"\n"), 0o600); err != nil {
		tb.Fatal(err)
	}
	flags := []string{"--registration", mode, "--operator-token-file", file}
	if mode == "open" {
		flags = append(flags, "--allow-unmetered-registration")
	}
	return flags
}

// sqliteEnv returns the environment of a fresh SQLite store: a copy of
// the one `energyapi init` created for the first caller, since each init
// runs every migration (seconds of the package's time under the race
// detector, for a store the tests use only as their setup).
func sqliteEnv(tb testing.TB) map[string]string {
	tb.Helper()
	initialized.once.Do(func() {
		dir, err := os.MkdirTemp("", "energyapi-init-")
		if err != nil {
			initialized.err = err
			return
		}
		defer os.RemoveAll(dir)
		path := filepath.Join(dir, "e.db")
		if _, err := runCmd(tb, map[string]string{"ENERGYAPI_DB": path}, "init"); err != nil {
			initialized.err = err
			return
		}
		initialized.file, initialized.err = os.ReadFile(path)
	})
	if initialized.err != nil {
		tb.Fatal(initialized.err)
	}
	env := map[string]string{"ENERGYAPI_DB": filepath.Join(tb.TempDir(), "e.db")}
	if err := os.WriteFile(env["ENERGYAPI_DB"], initialized.file, 0o600); err != nil {
		tb.Fatal(err)
	}
	return env
}

// initialized is the file of the store sqliteEnv's first call initialized.
var initialized struct {
	once sync.Once
	file []byte
	err  error
}

func TestRegistrationOffByDefault(t *testing.T) {
	t.Parallel()
	s := startServe(t, sqliteEnv(t), operatorFlags(t, "off")[2:]...) // an operator token, but no --registration
	for _, c := range []struct{ method, path string }{
		{"GET", "/developers"}, {"POST", "/developers/register"}, {"GET", "/developers/app"},
		{"POST", "/developers/app/rotate-secret"}, {"POST", "/developers/app/delete"},
		{"POST", "/register"}, {"GET", "/operator"}, {"GET", "/operator/clients"}, {"POST", "/operator/clients/x/approve"},
	} {
		st, _, body := exchange(t, c.method, s.base+c.path, map[string]string{"Content-Type": "application/json"}, `{}`)
		if st != http.StatusNotFound {
			t.Errorf("%s %s with registration off: got %d (%s), want 404", c.method, c.path, st, body)
		}
	}
	st, _, body := exchange(t, "GET", s.base+auth.MetadataPath, nil, "")
	if st != http.StatusOK || strings.Contains(body, "registration_endpoint") {
		t.Errorf("metadata with registration off: got %d %s, want 200 without registration_endpoint", st, body)
	}
}

// register registers an application through the developer endpoint.
func register(tb testing.TB, s *server, name, contact string) (int, createdClient, string) {
	tb.Helper()
	st, _, body := exchange(tb, "POST", s.base+"/developers/register", map[string]string{"Content-Type": "application/json"},
		`{"name":`+quoteJSON(name)+`,"contact":`+quoteJSON(contact)+`}`)
	var c createdClient
	_ = json.Unmarshal([]byte(body), &c)
	return st, c, body
}

func quoteJSON(s string) string { b, _ := json.Marshal(s); return string(b) }

func TestRegistrationApprovalSQLite(t *testing.T) {
	t.Parallel()
	env := sqliteEnv(t)
	checkApproval(t, env, startServe(t, env, operatorFlags(t, "approval")...), startServe(t, env, operatorFlags(t, "approval")...))
}

func TestRegistrationApprovalPostgreSQL(t *testing.T) {
	t.Parallel()
	env := map[string]string{"ENERGYAPI_DB": cluster.Database(t)}
	checkApproval(t, env, startServe(t, env, operatorFlags(t, "approval")...), startServe(t, env, operatorFlags(t, "approval")...))
}

// checkApproval registers two clients on replica a, checks that both are
// refused until approved (one through the CLI, one through the operator
// API), and that then each obtains tokens on both replicas at once.
func checkApproval(t *testing.T, env map[string]string, a, b *server) {
	st, first, body := register(t, a, "Grid Watch", "dev@example.com")
	if st != http.StatusCreated || first.ClientSecret == "" || !strings.Contains(body, `"status":"pending"`) {
		t.Fatalf("register: got %d %s, want 201 with credentials and status pending", st, body)
	}
	_, second, _ := register(t, a, "Second", "two@example.com")
	for name, s := range map[string]*server{"A": a, "B": b} {
		st, _, body := exchange(t, "POST", s.base+"/public-api/access-token", map[string]string{"Content-Type": "application/x-www-form-urlencoded"},
			"grant_type=client_credentials&client_id="+first.ClientID+"&client_secret="+first.ClientSecret)
		if st != http.StatusUnauthorized || !strings.Contains(body, `"error":"invalid_client"`) || !strings.Contains(body, "awaits approval") {
			t.Errorf("token on %s before approval: got %d %s, want 401 invalid_client saying it awaits approval", name, st, body)
		}
		if _, st := s.token(t, first.ClientID, "wrong"); st != http.StatusUnauthorized {
			t.Errorf("wrong secret on %s: got %d, want 401", name, st)
		}
	}
	out, err := runCmd(t, env, "clients", "list")
	if err != nil || !strings.Contains(out, `"client_id":"`+first.ClientID+`","name":"Grid Watch","created"`) || !strings.Contains(out, `"pending":true,"contact":"dev@example.com"`) {
		t.Fatalf("clients list: got %q (%v), want the client pending with its contact", out, err)
	}
	if _, err := runCmd(t, env, "clients", "approve", first.ClientID); err != nil {
		t.Fatal(err)
	}
	st, _, body = exchange(t, "POST", b.base+"/operator/clients/"+second.ClientID+"/approve", map[string]string{"Authorization": "Bearer not-the-operator-token"}, "")
	if st != http.StatusUnauthorized {
		t.Errorf("approve with a wrong operator token: got %d %s, want 401", st, body)
	}
	st, _, body = exchange(t, "POST", b.base+"/operator/clients/"+second.ClientID+"/approve", map[string]string{"Authorization": "Bearer " + rfcOperatorToken}, "")
	if st != http.StatusOK || !strings.Contains(body, `"status":"active"`) {
		t.Fatalf("approve through the operator API: got %d %s, want 200 active", st, body)
	}
	deadline := time.Now().Add(credentialsEndWithin(t))
	var checks []refusal
	for name, s := range map[string]*server{"A": a, "B": b} {
		for _, c := range []createdClient{first, second} {
			checks = append(checks, refusal{name + " issuing a token to approved " + c.ClientID, func() bool {
				_, st := s.token(t, c.ClientID, c.ClientSecret)
				return st == http.StatusOK
			}})
		}
	}
	if _, late := awaitAll(deadline, checks); len(late) > 0 {
		t.Errorf("not within %s of the approval: %v", credentialsEndWithin(t), late)
	}
	st, _, body = exchange(t, "GET", a.base+"/operator/clients", map[string]string{"Authorization": "Bearer " + rfcOperatorToken}, "")
	if st != http.StatusOK || strings.Contains(body, `"pending"`) {
		t.Errorf("operator list after approvals: got %d %s, want 200 with no client pending", st, body)
	}
}

func TestRegistrationsPerAddressPerHour(t *testing.T) {
	t.Parallel()
	env := sqliteEnv(t)
	a := startServe(t, env, "--registration", "open", "--allow-unmetered-registration", "--registrations-per-hour", "2")
	b := startServe(t, env, "--registration", "open", "--allow-unmetered-registration", "--registrations-per-hour", "2")
	for i, s := range []*server{a, b} { // the limit counts across replicas
		if st, _, body := register(t, s, "app", "dev@example.com"); st != http.StatusCreated {
			t.Fatalf("registration %d: got %d %s, want 201", i+1, st, body)
		}
	}
	for name, s := range map[string]*server{"A": a, "B": b} {
		st, _, body := register(t, s, "app", "dev@example.com")
		if st != http.StatusTooManyRequests || !strings.Contains(body, "At most 2 registrations an hour") {
			t.Errorf("third registration on %s: got %d %s, want 429", name, st, body)
		}
	}
	st, _, body := register(t, a, "", "not an address")
	if st != http.StatusBadRequest {
		t.Errorf("registration without a name: got %d %s, want 400", st, body)
	}
}

// registerFrom registers an application through the developer endpoint, as
// forwarded by a proxy whose X-Forwarded-For is xff.
func registerFrom(tb testing.TB, s *server, xff string) (int, string) {
	tb.Helper()
	st, _, body := exchange(tb, "POST", s.base+"/developers/register",
		map[string]string{"Content-Type": "application/json", "X-Forwarded-For": xff}, `{"name":"app","contact":"dev@example.com"}`)
	return st, body
}

// TestRegistrationsPerAddressPrefix: behind a trusted proxy, registrations
// count per IPv6 /64 and per IPv4 address, as the proxy's last entry of
// X-Forwarded-For says: its port is not part of the address, and an entry
// that does not parse is skipped rather than replaced by the proxy's
// address, which would put every user in one bucket.
func TestRegistrationsPerAddressPrefix(t *testing.T) {
	t.Parallel()
	s := startServe(t, sqliteEnv(t), "--registration", "open", "--allow-unmetered-registration", "--registrations-per-hour", "1", "--trust-proxy-headers")
	for _, c := range []struct {
		name, xff string
		want      int
	}{
		{"an IPv6 address", "2001:db8:1:2::1", http.StatusCreated},
		{"another address of its /64", "198.51.100.99, 2001:db8:1:2:ffff::7", http.StatusTooManyRequests},
		{"another /64", "2001:db8:1:3::1", http.StatusCreated},
		{"a user behind garbage", "198.51.100.1, garbage", http.StatusCreated},
		{"another user behind garbage", "198.51.100.2, garbage", http.StatusCreated},
		{"the first of them again", "198.51.100.1", http.StatusTooManyRequests},
		{"an IPv4 address with a port", "198.51.100.3:1", http.StatusCreated},
		{"the same address, another port", "198.51.100.3:2", http.StatusTooManyRequests},
		{"an IPv6 address with a port", "[2001:db8:9::1]:443", http.StatusCreated},
		{"its /64 without a port", "2001:db8:9::2", http.StatusTooManyRequests},
	} {
		if st, body := registerFrom(t, s, c.xff); st != c.want {
			t.Errorf("%s (X-Forwarded-For: %s): got %d %s, want %d", c.name, c.xff, st, body, c.want)
		}
	}

	// --registration-prefix-v6 128 counts every IPv6 address alone, and
	// --registration-prefix-v4 24 an IPv4 /24 as one.
	s = startServe(t, sqliteEnv(t), "--registration", "open", "--allow-unmetered-registration", "--registrations-per-hour", "1", "--trust-proxy-headers",
		"--registration-prefix-v6", "128", "--registration-prefix-v4", "24")
	for _, c := range []struct {
		name, xff string
		want      int
	}{
		{"an IPv6 address", "2001:db8:1:2::1", http.StatusCreated},
		{"another address of its /64", "2001:db8:1:2::2", http.StatusCreated},
		{"an IPv4 address", "198.51.100.1", http.StatusCreated},
		{"another address of its /24", "198.51.100.200", http.StatusTooManyRequests},
	} {
		if st, body := registerFrom(t, s, c.xff); st != c.want {
			t.Errorf("with prefixes 128 and 24, %s (X-Forwarded-For: %s): got %d %s, want %d", c.name, c.xff, st, body, c.want)
		}
	}
}

// ensureClient creates (or resets) a client with a chosen ID and secret,
// as RFC examples name them.
func ensureClient(tb testing.TB, env map[string]string, id, secret string) {
	tb.Helper()
	ctx := context.Background()
	st, err := openStore(ctx, env["ENERGYAPI_DB"], false)
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	reg, err := auth.NewRegistry(ctx, st, st, time.Now, rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	if err := reg.Ensure(ctx, id, "rfc example", secret); err != nil {
		tb.Fatal(err)
	}
}

// TestRotatingAPendingClientKeepsItPending: a rotation must not approve.
func TestRotatingAPendingClientKeepsItPending(t *testing.T) {
	t.Parallel()
	env := sqliteEnv(t)
	s := startServe(t, env, operatorFlags(t, "approval")...)
	_, c, body := register(t, s, "app", "dev@example.com")
	if c.ClientID == "" {
		t.Fatalf("register: %s", body)
	}
	out, err := runCmd(t, env, "clients", "rotate-secret", c.ClientID)
	var rotated createdClient
	if err != nil || json.Unmarshal([]byte(out), &rotated) != nil || rotated.ClientSecret == "" {
		t.Fatalf("clients rotate-secret: %q (%v)", out, err)
	}
	if _, st := s.token(t, c.ClientID, rotated.ClientSecret); st != http.StatusUnauthorized {
		t.Errorf("the rotated secret before approval: got %d, want 401", st)
	}
	if _, err := runCmd(t, env, "clients", "approve", c.ClientID); err != nil {
		t.Fatal(err)
	}
	if _, err := runCmd(t, env, "clients", "approve", c.ClientID); err == nil {
		t.Errorf("approving twice: got no error, want one (not pending)")
	}
	testwait.For(t, 5*time.Second, "the rotated secret working after approval", func() bool {
		_, st := s.token(t, c.ClientID, rotated.ClientSecret)
		return st == http.StatusOK
	})
	if _, st := s.token(t, c.ClientID, c.ClientSecret); st != http.StatusUnauthorized {
		t.Errorf("the first secret after rotation and approval: got %d, want 401", st)
	}
}

// TestDemoClientReserved: with serve --demo and registration on, the
// developer endpoints refuse to rotate or delete the demo client, whose
// secret is public, and it keeps obtaining tokens.
func TestDemoClientReserved(t *testing.T) {
	t.Parallel()
	env := map[string]string{"ENERGYAPI_DB": filepath.Join(t.TempDir(), "e.db")}
	s := startServe(t, env, "--demo", "--registration", "open", "--allow-unmetered-registration")
	form := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	creds := "client_id=" + demoClientID + "&client_secret=" + demoClientSecret
	for _, path := range []string{"/developers/app/rotate-secret", "/developers/app/delete"} {
		st, _, body := exchange(t, "POST", s.base+path, form, creds)
		if st != http.StatusForbidden || !strings.Contains(body, `"error":"access_denied"`) || !strings.Contains(body, "client demo is reserved") {
			t.Errorf("POST %s as the demo client: got %d %s, want 403 access_denied saying the client is reserved", path, st, body)
		}
		if _, st := s.token(t, demoClientID, demoClientSecret); st != http.StatusOK {
			t.Errorf("demo token after POST %s: got %d, want 200", path, st)
		}
	}
	// Another client is still served: the refusal is the demo client's alone.
	_, c, body := register(t, s, "app", "dev@example.com")
	if c.ClientID == "" {
		t.Fatalf("register: %s", body)
	}
	st, _, body := exchange(t, "POST", s.base+"/developers/app/delete", form, "client_id="+c.ClientID+"&client_secret="+c.ClientSecret)
	if st != http.StatusNoContent {
		t.Errorf("delete a registered client: got %d %s, want 204", st, body)
	}
}

// TestServeDemoRestoresTheDemoClient: a store whose demo client was revoked
// (or given another secret) does not stop serve --demo; it restores the
// demo client, which a replica already running hears of too.
func TestServeDemoRestoresTheDemoClient(t *testing.T) {
	t.Parallel()
	env := map[string]string{"ENERGYAPI_DB": filepath.Join(t.TempDir(), "e.db")}
	a := startServe(t, env, "--demo", "--poll-interval", "100ms")
	if _, err := runCmd(t, env, "clients", "revoke", demoClientID); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, 30*time.Second, "the revoked demo client refused", func() bool {
		_, st := a.token(t, demoClientID, demoClientSecret)
		return st == http.StatusUnauthorized
	})
	b := startServe(t, env, "--demo")
	if _, st := b.token(t, demoClientID, demoClientSecret); st != http.StatusOK {
		t.Errorf("demo token from serve --demo started on the revoked client: got %d, want 200", st)
	}
	testwait.For(t, 30*time.Second, "the restored demo client served by the replica already running", func() bool {
		_, st := a.token(t, demoClientID, demoClientSecret)
		return st == http.StatusOK
	})
	out, err := runCmd(t, env, "clients", "rotate-secret", demoClientID)
	if err != nil || !strings.Contains(out, "client_secret") {
		t.Fatalf("clients rotate-secret demo: %q (%v)", out, err)
	}
	c := startServe(t, env, "--demo")
	if _, st := c.token(t, demoClientID, demoClientSecret); st != http.StatusOK {
		t.Errorf("demo token from serve --demo started on a rotated demo client: got %d, want 200", st)
	}
}

// TestOpenRegistrationNeedsDefaultPlan: --registration open gives every
// client it registers the plan --default-plan names; while the store holds
// no such plan those clients would meet no plan at all, so serve refuses to
// start (exit 2), naming the plan and the ways out, and starts once the
// operator takes one. Approval needs no plan: the operator sees each client.
func TestOpenRegistrationNeedsDefaultPlan(t *testing.T) {
	t.Parallel()
	env := sqliteEnv(t)
	for _, c := range []struct {
		args []string
		plan string
	}{
		{[]string{"--registration", "open"}, `"default"`},
		{[]string{"--registration", "open", "--default-plan", "gold"}, `"gold"`},
	} {
		// Bounded: a serve that does not refuse runs until the context ends.
		ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(20*time.Second))
		_, stderr, code := runFull(t, ctx, env, append([]string{"serve", "--addr", "127.0.0.1:0"}, c.args...)...)
		cancel()
		var missing []string
		for _, want := range []string{c.plan, "--default-plan", "--plans", "energyapi plans set", "--allow-unmetered-registration"} {
			if !strings.Contains(stderr, want) {
				missing = append(missing, want)
			}
		}
		if code != exitUsage || len(missing) > 0 {
			t.Errorf("%v: got exit %d, %q; want exit %d naming %q", c.args, code, stderr, exitUsage, missing)
		}
	}
	gold := sqliteEnv(t)
	if _, err := runCmd(t, gold, "plans", "set", "gold", "--per-day", "1000"); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		env  map[string]string
		args []string
	}{
		"explicitly unmetered":        {sqliteEnv(t), []string{"--registration", "open", "--allow-unmetered-registration"}},
		"the default plan in --plans": {sqliteEnv(t), []string{"--registration", "open", "--plans", writePlans(t, `[{"name":"default","per_second":5,"per_day":1000}]`)}},
		"a plan set before":           {gold, []string{"--registration", "open", "--default-plan", "gold"}},
		"approval":                    {sqliteEnv(t), []string{"--registration", "approval"}},
	} {
		t.Run(name, func(t *testing.T) { startServe(t, c.env, c.args...) })
	}
}
