package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/testwait"
)

func envOf(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

// runCmd runs a command to completion and returns its stdout.
func runCmd(tb testing.TB, env map[string]string, args ...string) (string, error) {
	tb.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), args, envOf(env), strings.NewReader(""), &stdout, &stderr)
	if err != nil {
		tb.Logf("energyapi %s: %v\nstderr: %s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String(), err
}

// calmQueue adds --queue-target 0 to serve's args unless they set the
// admission queue themselves: the queue's shedding answers 503 when the
// scheduler lags, which a test machine busy with the race detector makes
// it do at random, and only the overload tests are about it.
func calmQueue(args []string) []string {
	for _, a := range args {
		if strings.HasPrefix(a, "--queue-target") || strings.HasPrefix(a, "--max-in-flight") {
			return args
		}
	}
	return append([]string{"--queue-target", "0"}, args...)
}

// server is a running "energyapi serve".
type server struct {
	base   string
	stderr *apitest.Buffer
}

var listening = regexp.MustCompile(`listening on (http://\S+)`)

// startServe runs serve on 127.0.0.1:0 in this process and waits until
// /healthz answers.
func startServe(tb testing.TB, env map[string]string, args ...string) *server {
	tb.Helper()
	stdout, stderr := serveInProcess(tb, env, append([]string{"--addr", "127.0.0.1:0"}, calmQueue(args)...)...)
	return awaitServing(tb, stdout, stderr)
}

// awaitServing waits until the serve writing to stdout and stderr, started
// with --addr 127.0.0.1:0, reports its address and /healthz answers.
func awaitServing(tb testing.TB, stdout, stderr *apitest.Buffer) *server {
	tb.Helper()
	s := &server{stderr: stderr}
	// Generous: a loaded machine running the race detector is slow to start.
	testwait.For(tb, 2*time.Minute, "serve reporting its address", func() bool {
		if strings.Contains(stderr.String(), serveExited) {
			tb.Fatalf("serve exited early:\n%s", stderr.String())
		}
		m := listening.FindStringSubmatch(stdout.String())
		if m != nil {
			s.base = m[1]
		}
		return m != nil
	})
	testwait.For(tb, time.Minute, "healthz answering 200", func() bool {
		resp, err := http.Get(s.base + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return s
}

func (s *server) token(tb testing.TB, id, secret string) (string, int) {
	tb.Helper()
	resp, err := http.PostForm(s.base+"/public-api/access-token", url.Values{"client_id": {id}, "client_secret": {secret}, "grant_type": {"client_credentials"}})
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var tr struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
		ExpiresIn   int    `json:"expires_in"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&tr)
	return tr.AccessToken, resp.StatusCode
}

func (s *server) get(tb testing.TB, path, token string) (int, []byte) {
	tb.Helper()
	a := s.do(tb, http.MethodGet, path, token, "")
	return a.status, a.body
}

type createdClient struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	Name         string `json:"name"`
}

func TestClientsLifecycleAgainstRunningServer(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "e.db")
	env := map[string]string{"ENERGYAPI_DB": db} // the environment names the store
	if _, err := runCmd(t, env, "init"); err != nil {
		t.Fatal(err)
	}
	out, err := runCmd(t, env, "clients", "create", "--name", "acme")
	if err != nil {
		t.Fatal(err)
	}
	var c createdClient
	if err := json.Unmarshal([]byte(out), &c); err != nil || c.ClientID == "" || c.ClientSecret == "" || c.Name != "acme" {
		t.Fatalf("clients create: got %q (%v), want one JSON object with client_id, client_secret and name", out, err)
	}
	if strings.Count(strings.TrimSpace(out), "\n") != 0 {
		t.Errorf("clients create printed more than one line: %q", out)
	}
	srv := startServe(t, env, "--poll-interval", "50ms")
	tok, st := srv.token(t, c.ClientID, c.ClientSecret)
	if st != http.StatusOK {
		t.Fatalf("token: got %d, want 200", st)
	}
	if st, _ := srv.get(t, "/load/v2.0/peak-valley-load?dateFrom=01/01/2024&dateTo=01/01/2024", tok); st != http.StatusOK {
		t.Fatalf("data request: got %d, want 200", st)
	}

	list, err := runCmd(t, env, "clients", "list")
	if err != nil || !strings.Contains(list, c.ClientID) || strings.Contains(list, c.ClientSecret) || strings.Contains(list, "client_secret") {
		t.Errorf("clients list: got %q, want the client without any secret", list)
	}

	out, err = runCmd(t, env, "clients", "rotate-secret", c.ClientID)
	if err != nil {
		t.Fatal(err)
	}
	var rotated createdClient
	if err := json.Unmarshal([]byte(out), &rotated); err != nil || rotated.ClientID != c.ClientID || rotated.ClientSecret == c.ClientSecret {
		t.Fatalf("rotate-secret: got %q, want the same id with a new secret", out)
	}
	// The new secret works at once (the server asks the store about what its
	// in-memory table refuses); the old one stops when the table reloads,
	// within the poll interval, which the requirement bounds at 5 s.
	if _, st := srv.token(t, c.ClientID, rotated.ClientSecret); st != http.StatusOK {
		t.Errorf("new secret: got %d, want 200", st)
	}
	testwait.For(t, 5*time.Second, "old secret refused after rotation", func() bool {
		_, st := srv.token(t, c.ClientID, c.ClientSecret)
		return st == http.StatusUnauthorized
	})

	if _, err := runCmd(t, env, "clients", "revoke", c.ClientID); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, 5*time.Second, "token request refused after revocation", func() bool {
		_, st := srv.token(t, c.ClientID, rotated.ClientSecret)
		return st == http.StatusUnauthorized
	})
	testwait.For(t, 5*time.Second, "outstanding token refused after revocation", func() bool {
		st, _ := srv.get(t, "/load/v2.0/peak-valley-load?dateFrom=01/01/2024&dateTo=01/01/2024", tok)
		return st == http.StatusUnauthorized
	})
}

// TestServeDemo runs serve --demo on a store seeded with one small import, so
// that it adds the demo client but no demo data (TestEnsureDemo covers that),
// and shows an import from another process served without a restart.
func TestServeDemo(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "e.db")
	env := map[string]string{"ENERGYAPI_DB": db}
	dir := t.TempDir()
	const header = "year;capacity_type;region;province;category;subcategory;production_GWh\n"
	seed, update := filepath.Join(dir, "seed.csv"), filepath.Join(dir, "update.csv")
	if err := os.WriteFile(seed, []byte(header+"2024;Lorda;Puglia;Brindisi;Non cogenerativa;Condensazione;100\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(update, []byte(header+"2024;Lorda;Abruzzo;Chieti;Cogenerativa;Contropressione;\"4.321,5\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := runCmd(t, env, "import", "--dataset", "thermoelectric", seed); err != nil {
		t.Fatal(err)
	}
	srv := startServe(t, env, "--demo", "--poll-interval", "100ms")
	tok, st := srv.token(t, "demo", "demo-secret")
	if st != http.StatusOK {
		t.Fatalf("demo token: got %d, want 200", st)
	}
	const q = "/generation/v2.0/thermoelectric-production?year=2024&region=Abruzzo"
	if st, body := srv.get(t, q, tok); st != 200 || strings.Contains(string(body), "Chieti") {
		t.Fatalf("before the import: got %d %s, want 200 without Chieti", st, body)
	}
	out, err := runCmd(t, env, "import", "--dataset", "thermoelectric", update)
	if err != nil {
		t.Fatal(err)
	}
	var sum map[string]any
	if err := json.Unmarshal([]byte(out), &sum); err != nil || sum["rows_read"] != float64(1) || sum["files"] != float64(1) || sum["inserted"] != float64(1) {
		t.Fatalf("import summary: got %q, want one JSON line with files 1, rows_read 1, inserted 1", out)
	}
	// The server polls every 100 ms; 2 s is the production bound, but under
	// the race detector on a busy machine a reload can take longer, so this
	// waits for the event rather than timing it.
	testwait.For(t, 30*time.Second, "imported row served", func() bool {
		_, b := srv.get(t, q, tok)
		return strings.Contains(string(b), `"province":"Chieti"`) && strings.Contains(string(b), `"production_GWh":"4.321,500"`)
	})
}

// recordingWriter records what ensureDemo asks of a store: its markers and
// the fills, without a store.
type recordingWriter struct {
	version int64
	floors  []int64 // of each FillParts call
	parts   int     // filled
	secrets map[string][]byte
}

func (w *recordingWriter) ServerSecret(_ context.Context, name string, gen func() ([]byte, error)) ([]byte, error) {
	if v, ok := w.secrets[name]; ok {
		return v, nil
	}
	v, err := gen()
	if err != nil {
		return nil, err
	}
	if w.secrets == nil {
		w.secrets = map[string][]byte{}
	}
	w.secrets[name] = v
	return v, nil
}

func (w *recordingWriter) DataVersion(context.Context) (int64, error) { return w.version, nil }

func (w *recordingWriter) ListParts(context.Context) (dataset.Changes, error) {
	return dataset.Changes{Version: w.version}, nil
}

func (w *recordingWriter) FillParts(_ context.Context, floor int64, parts []dataset.StoredPart) (int, error) {
	w.floors, w.parts, w.version = append(w.floors, floor), w.parts+len(parts), max(w.version, floor)
	return len(parts), nil
}

// createClient runs clients create with args and returns the client it
// printed, failing the test unless it printed one with an ID and a secret.
func createClient(tb testing.TB, env map[string]string, args ...string) createdClient {
	tb.Helper()
	out, err := runCmd(tb, env, append([]string{"clients", "create"}, args...)...)
	var c createdClient
	if err != nil || json.Unmarshal([]byte(out), &c) != nil || c.ClientID == "" || c.ClientSecret == "" {
		tb.Fatalf("clients create: got %q (%v), want a client_id and client_secret", out, err)
	}
	return c
}

// demoRegistry returns the client registry of a new store, closed when the
// test ends, as ensureDemo registers the demo client in it.
func demoRegistry(tb testing.TB) *auth.Registry {
	tb.Helper()
	ctx := context.Background()
	st, err := openStore(ctx, filepath.Join(tb.TempDir(), "d.db"), true)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	reg, err := auth.NewRegistry(ctx, st, st, time.Now, rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	return reg
}

// TestEnsureDemo: the demo client is ensured, twice without harm; an
// empty store is marked as holding the default demo on demand, with a data
// version of at least dataset.DemoVersion and nothing generated; a store
// that has data gets no demo data.
func TestEnsureDemo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	reg := demoRegistry(t)
	for range 2 {
		full := &recordingWriter{version: 7}
		if err := ensureDemo(ctx, full, reg); err != nil {
			t.Fatal(err)
		}
		if _, err := reg.Authenticate(ctx, "demo", "demo-secret"); err != nil {
			t.Errorf("demo client: got %v, want demo/demo-secret to authenticate", err)
		}
		if got := string(full.secrets[demoRangeMarker]); got != "none" || full.floors != nil {
			t.Errorf("non-empty store: marker %q, fills %v; want none and no fill", got, full.floors)
		}
	}
	empty := &recordingWriter{}
	for range 2 {
		if err := ensureDemo(ctx, empty, reg); err != nil {
			t.Fatal(err)
		}
	}
	if got := string(empty.secrets[demoRangeMarker]); got != demoRange(defaultDemo()) || empty.version != dataset.DemoVersion || empty.parts != 0 {
		t.Errorf("empty store: marker %q, data version %d, %d parts filled; want %q, %d, none", got, empty.version, empty.parts, demoRange(defaultDemo()), dataset.DemoVersion)
	}
}

func TestDemoRefusesPublicAddress(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "e.db")
	_, err := runCmd(t, nil, "serve", "--demo", "--db", db, "--addr", "0.0.0.0:0")
	if err == nil || !strings.Contains(err.Error(), "--allow-public") {
		t.Errorf("got %v, want a refusal that names --allow-public", err)
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("the refused command created the store")
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"clients"},
		{"clients", "create"},
		{"clients", "revoke"},
		{"import", "--dataset", "thermoelectric"},
		{"import", "--dataset", "nope", "x.csv"},
		{"serve", "--max-range-days", "-1"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			if _, err := runCmd(t, map[string]string{"ENERGYAPI_DB": filepath.Join(t.TempDir(), "u.db")}, args...); err == nil {
				t.Error("got success, want an error")
			}
		})
	}
}

// TestServeCompression: serve compresses what Accept-Encoding asks for,
// and --compression=false (or ENERGYAPI_COMPRESSION=false) turns it off.
func TestServeCompression(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "e.db")
	env := map[string]string{"ENERGYAPI_DB": db}
	if _, err := runCmd(t, env, "init"); err != nil {
		t.Fatal(err)
	}
	ask := func(s *server, path string) http.Header {
		req, _ := http.NewRequest(http.MethodGet, s.base+path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.Header
	}
	on := startServe(t, env)
	for _, p := range []string{"/openapi.json", "/catalog", "/assets/app.js"} {
		if h := ask(on, p); h.Get("Content-Encoding") != "gzip" || h.Get("Vary") != "Accept-Encoding" {
			t.Errorf("serve, %s: Content-Encoding %q, Vary %q; want gzip, Accept-Encoding", p, h.Get("Content-Encoding"), h.Get("Vary"))
		}
	}
	for _, off := range []*server{
		startServe(t, env, "--compression=false"),
		startServe(t, map[string]string{"ENERGYAPI_DB": db, "ENERGYAPI_COMPRESSION": "false"}),
	} {
		for _, p := range []string{"/openapi.json", "/catalog", "/assets/app.js"} {
			if h := ask(off, p); h.Get("Content-Encoding") != "" || h.Get("Vary") != "" {
				t.Errorf("compression off, %s: Content-Encoding %q, Vary %q; want neither", p, h.Get("Content-Encoding"), h.Get("Vary"))
			}
		}
	}
}

// flagNeedCase is how TestFlagNeedsAnother exercises one dependent flag.
type flagNeedCase struct {
	value   string   // the flag's value
	without []string // other flags that leave its need unmet (none: the defaults do)
	with    []string // other flags that meet it
	needs   string   // what the refusal names after "--FLAG needs "
}

// TestFlagNeedsAnother: a flag that means something only with another
// setting (the table flagNeeds) is refused alone, given on the command line
// or in the environment, with a usage error naming what it needs, and taken
// with it; defaults never trip the rule. Every entry of the table has a
// case here and every case an entry.
func TestFlagNeedsAnother(t *testing.T) {
	t.Parallel()
	tokens := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(tokens, []byte("initial-access-token-0001\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	sandbox := []string{"--sandbox"}
	cases := map[string]flagNeedCase{
		"allow-public":                 {"true", nil, []string{"--demo"}, "--demo"},
		"initial-access-token-file":    {tokens, nil, []string{"--registration", "approval"}, "--registration approval or open"},
		"registrations-per-hour":       {"3", []string{"--registration", "off"}, []string{"--registration", "approval"}, "--registration approval or open"},
		"registration-prefix-v4":       {"24", nil, []string{"--registration", "open", "--allow-unmetered-registration"}, "--registration approval or open"},
		"registration-prefix-v6":       {"56", []string{"--registration", "off"}, []string{"--registration", "approval"}, "--registration approval or open"},
		"allow-unmetered-registration": {"true", []string{"--registration", "approval"}, []string{"--registration", "open"}, "--registration open"},
		"rate-burst":                   {"5", []string{"--rate-limit", "0"}, []string{"--rate-limit", "10/s"}, "--rate-limit"},
		"queue-target":                 {"10ms", []string{"--max-in-flight", "0"}, nil, "--max-in-flight"},
		"tls-cert":                     {"cert.pem", nil, []string{"--tls-key", "key.pem"}, "--tls-key"},
		"tls-key":                      {"key.pem", nil, []string{"--tls-cert", "cert.pem"}, "--tls-cert"},
		"sandbox-admin-token":          {"sandbox-admin-token-0001", nil, sandbox, "--sandbox"},
		"sandbox-seed":                 {"7", nil, sandbox, "--sandbox"},
		"faults":                       {"faults.yaml", nil, sandbox, "--sandbox"},
		"journal-size":                 {"50", nil, []string{"--demo"}, "--sandbox"}, // --demo implies the sandbox
		"now":                          {"2025-06-30T12:00:00+02:00", []string{"--demo", "--sandbox=false"}, sandbox, "--sandbox"},
	}
	if _, err := parseServeFlags(nil, envOf(nil), io.Discard); err != nil {
		t.Errorf("defaults: got %v, want them taken", err)
	}
	inTable := map[string]bool{}
	for _, n := range flagNeeds() {
		inTable[n.flag] = true
		if _, ok := cases[n.flag]; !ok {
			t.Errorf("flagNeeds has --%s, but no case here tests it", n.flag)
		}
	}
	for flag, c := range cases {
		if !inTable[flag] {
			t.Errorf("a case tests --%s, which flagNeeds does not list", flag)
		}
		t.Run(flag, func(t *testing.T) { checkFlagNeed(t, flag, c) })
	}
}

func checkFlagNeed(t *testing.T, flag string, c flagNeedCase) {
	given := "--" + flag + "=" + c.value
	want := "--" + flag + " needs " + c.needs
	for how, try := range map[string]struct {
		args []string
		env  map[string]string
	}{
		"on the command line": {append([]string{given}, c.without...), nil},
		"in the environment":  {c.without, map[string]string{envName(flag): c.value}},
	} {
		_, err := parseServeFlags(try.args, envOf(try.env), io.Discard)
		if !errors.Is(err, errUsage) || !strings.Contains(fmt.Sprint(err), want) {
			t.Errorf("%s %v: got %v, want a usage error saying %q", how, try.args, err, want)
		}
	}
	if _, err := parseServeFlags(append([]string{given}, c.with...), envOf(nil), io.Discard); err != nil {
		t.Errorf("with %v: got %v, want it taken", c.with, err)
	}
}
