package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/store/postgres/pgtest"
	"github.com/energyapi/energyapi/internal/testwait"
)

// These tests take PostgreSQL away from a serving replica, stopped (its
// connections refused) and hung (SIGSTOP: connections accepted, nothing
// answered), and check that what the replica holds in memory is still
// served, that what needs the store is refused soon with 503 and
// Retry-After rather than 500 or a long hang, that requests waiting on the
// store never take the slots data requests need, and that the replica
// recovers without a restart once the database is back.

// storeFaultMaxInFlight is the replica's --max-in-flight: small, so that a
// few requests waiting on the store would take every slot if they could.
const storeFaultMaxInFlight = 4

// storeBoundBound is the longest a store-bound request may take to be
// answered while the database is away: the store timeout (2 s by default)
// and the wait for a slot, with room for a loaded machine, and well below
// the request deadline the replica runs with (30 s).
const storeBoundBound = 10 * time.Second

// storeFault is a replica on a PostgreSQL server of the test's own.
type storeFault struct {
	pg            *pgtest.Server
	base, metrics string
	id, secret    string
	token         string
	firstImport   time.Time // when the first of the two imports committed
	asOfs         atomic.Int64
	validator     *apitest.Validator
	client        *http.Client
}

// newStoreFault starts a PostgreSQL server, registers a client, imports a
// thermoelectric value and corrects it (so that an asOf between the two
// imports needs the replaced part from the store), and serves it.
func newStoreFault(t *testing.T) *storeFault {
	t.Helper()
	f := &storeFault{pg: pgtest.NewServer(t), validator: apitest.NewValidator(t), client: &http.Client{Timeout: time.Minute}}
	env := map[string]string{"ENERGYAPI_DB": f.pg.URL()}
	create := func(name string) createdClient {
		t.Helper()
		c := createClient(t, env, "--name", name)
		return c
	}
	c, gone := create("acme"), create("gone")
	f.id, f.secret = c.ClientID, c.ClientSecret
	for _, value := range []string{"4.321,5", "5.000,5"} {
		file := filepath.Join(t.TempDir(), "thermo.csv")
		row := "2024;Lorda;Abruzzo;Chieti;Cogenerativa;Contropressione;\"" + value + "\"\n"
		if err := os.WriteFile(file, []byte(thermoHeader+row), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := runCmd(t, env, "import", "--dataset", "thermoelectric", file); err != nil {
			t.Fatal(err)
		}
	}
	stdout, _ := serveInProcess(t, env, "--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0",
		"--max-in-flight", fmt.Sprint(storeFaultMaxInFlight),
		// A wait for a slot that a busy machine's scheduling cannot use up
		// (the default 100 ms could, with the CPUs shared by parallel
		// tests), still well within the bounds below: a request that found
		// no slot because the store-bound ones held them is refused with
		// 503 once it is over, and fails the test. For the same reason no
		// queue target: it counts the wait for a CPU, and on a busy machine
		// it refused requests that had slots free.
		"--queue-timeout", testwait.Scale(time.Second).String(), "--queue-target", "0",
		// A deadline far beyond storeBoundBound, so that only the store's
		// own bound can answer a store-bound request in time.
		"--request-timeout", "30s", "--write-timeout", "60s")
	f.base = "http://" + waitMatch(t, stdout, apiAddr)
	f.metrics = "http://" + waitMatch(t, stdout, metricsAddr) + "/metrics"

	st, _, body := f.tokenAnswer(t, f.id, f.secret)
	if st != http.StatusOK {
		t.Fatalf("token: got %d (%s), want 200", st, body)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(body, &tok); err != nil {
		t.Fatal(err)
	}
	f.token = tok.AccessToken
	f.awaitClientTable(t, env, gone)
	st, _, body = f.get(t, "/updates")
	var updates struct {
		Updates []struct {
			Time string `json:"time"`
		} `json:"updates"`
	}
	if err := json.Unmarshal(body, &updates); st != http.StatusOK || err != nil || len(updates.Updates) != 2 {
		t.Fatalf("/updates: got %d %s (%v), want the two imports", st, body, err)
	}
	var err error
	if f.firstImport, err = time.Parse(time.RFC3339Nano, updates.Updates[0].Time); err != nil {
		t.Fatal(err)
	}
	// The store answers everything before it goes away, and the data
	// answer is held in memory from then on.
	f.checkStoreBound(t, http.StatusOK, http.StatusUnauthorized)
	f.checkInMemory(t)
	return f
}

// awaitClientTable waits until the replica holds the client table in
// memory, from which it answers known clients while the store is away: it
// revokes gone and waits until the replica refuses gone's token, which it
// does once it has loaded the table since. (A replica loads the table
// shortly after it starts; a store that goes away before would leave it
// asking the store about every client.)
func (f *storeFault) awaitClientTable(t *testing.T, env map[string]string, gone createdClient) {
	t.Helper()
	st, _, body := f.tokenAnswer(t, gone.ClientID, gone.ClientSecret)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(body, &tok); st != http.StatusOK || err != nil {
		t.Fatalf("token for the client to revoke: got %d (%s), want 200", st, body)
	}
	if _, err := runCmd(t, env, "clients", "revoke", gone.ClientID); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, f.base+thermo2024, nil)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	testwait.For(t, 30*time.Second, "the revoked client's token refused", func() bool {
		st, _, _ := f.do(t, req, nil)
		return st == http.StatusUnauthorized
	})
}

// waitMatch waits until out shows re and returns its first group.
func waitMatch(t *testing.T, out *apitest.Buffer, re interface{ FindStringSubmatch(string) []string }) string {
	t.Helper()
	var m []string
	testwait.For(t, 2*time.Minute, "serve reporting its addresses", func() bool {
		m = re.FindStringSubmatch(out.String())
		return m != nil
	})
	return m[1]
}

// do sends req, checks the exchange against the OpenAPI document, and
// returns the answer.
func (f *storeFault) do(t testing.TB, req *http.Request, reqBody []byte) (int, http.Header, []byte) {
	t.Helper()
	resp, err := f.client.Do(req)
	if err != nil {
		t.Errorf("%s %s: %v", req.Method, req.URL.Path, err)
		return 0, nil, nil
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if err := f.validator.Check(req, reqBody, resp.StatusCode, resp.Header, body); err != nil {
		t.Errorf("%s %s: the answer (%d %s) does not match the OpenAPI document: %v", req.Method, req.URL, resp.StatusCode, body, err)
	}
	return resp.StatusCode, resp.Header, body
}

func (f *storeFault) tokenAnswer(t testing.TB, id, secret string) (int, http.Header, []byte) {
	t.Helper()
	form := []byte(url.Values{"client_id": {id}, "client_secret": {secret}, "grant_type": {"client_credentials"}}.Encode())
	req, _ := http.NewRequest(http.MethodPost, f.base+"/public-api/access-token", bytes.NewReader(form))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return f.do(t, req, form)
}

func (f *storeFault) get(t testing.TB, path string) (int, http.Header, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, f.base+path, nil)
	req.Header.Set("Authorization", "Bearer "+f.token)
	return f.do(t, req, nil)
}

// asOfPath is a query for the 2024 value as it stood between the two
// imports: its answer needs the replaced part from the store. Each call
// asks for another instant, so that no answer kept in memory can serve it.
func (f *storeFault) asOfPath() string {
	at := f.firstImport.Add(time.Duration(f.asOfs.Add(1)) * time.Microsecond)
	return thermo2024 + "&asOf=" + url.QueryEscape(at.Format(time.RFC3339Nano))
}

// storeBound is one kind of request that needs the store.
type storeBound struct {
	name string
	send func(t testing.TB, f *storeFault) (int, http.Header, []byte)
}

var storeBoundRequests = []storeBound{
	{"token with a wrong secret", func(t testing.TB, f *storeFault) (int, http.Header, []byte) {
		return f.tokenAnswer(t, f.id, "not-"+f.secret)
	}},
	{"token for an unknown client", func(t testing.TB, f *storeFault) (int, http.Header, []byte) {
		return f.tokenAnswer(t, "nobody-"+f.id, f.secret)
	}},
	{"asOf not in memory", func(t testing.TB, f *storeFault) (int, http.Header, []byte) {
		return f.get(t, f.asOfPath())
	}},
	{"updates", func(t testing.TB, f *storeFault) (int, http.Header, []byte) {
		return f.get(t, "/updates")
	}},
	{"readyz", func(t testing.TB, f *storeFault) (int, http.Header, []byte) {
		return f.get(t, "/readyz")
	}},
	{"update stream resuming after an event", func(t testing.TB, f *storeFault) (int, http.Header, []byte) {
		return f.stream(t, "1")
	}},
}

// stream opens /updates/stream resuming after the event lastID, and returns
// its status and headers, and its body unless it is the stream, which stays
// open: it is closed at once.
func (f *storeFault) stream(t testing.TB, lastID string) (int, http.Header, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, f.base+"/updates/stream", nil)
	req.Header.Set("Last-Event-ID", lastID)
	resp, err := f.client.Do(req)
	if err != nil {
		t.Errorf("GET /updates/stream: %v", err)
		return 0, nil, nil
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		return resp.StatusCode, resp.Header, nil
	}
	body, _ := io.ReadAll(resp.Body)
	if err := f.validator.Check(req, nil, resp.StatusCode, resp.Header, body); err != nil {
		t.Errorf("GET /updates/stream: the answer (%d %s) does not match the OpenAPI document: %v", resp.StatusCode, body, err)
	}
	return resp.StatusCode, resp.Header, body
}

// checkStoreBound sends each store-bound request once and checks its
// status: ok for those that succeed while the store answers, refused for
// the token requests with bad credentials.
func (f *storeFault) checkStoreBound(t *testing.T, ok, refused int) {
	t.Helper()
	for _, sb := range storeBoundRequests {
		want := ok
		if strings.HasPrefix(sb.name, "token") {
			want = refused
		}
		if st, _, body := sb.send(t, f); st != want {
			t.Errorf("%s: got %d (%s), want %d", sb.name, st, body, want)
		}
	}
}

// checkInMemory checks that what the replica holds in memory is served:
// data, and a token for a client it knows, with the right secret.
func (f *storeFault) checkInMemory(t testing.TB) {
	t.Helper()
	if st, _, body := f.get(t, thermo2024); st != http.StatusOK || !strings.Contains(string(body), `"5.000,500"`) {
		t.Errorf("data held in memory: got %d (%s), want 200 with the current value", st, body)
	}
	if st, _, body := f.tokenAnswer(t, f.id, f.secret); st != http.StatusOK {
		t.Errorf("token for a known client: got %d (%s), want 200", st, body)
	}
}

// checkUnavailable checks the answer to a store-bound request while the
// store is away: 503 with Retry-After, in the OAuth error shape from the
// token endpoint and the result envelope elsewhere.
func checkUnavailable(t testing.TB, name string, st int, h http.Header, body []byte) {
	t.Helper()
	if st != http.StatusServiceUnavailable || h.Get("Retry-After") == "" {
		t.Errorf("%s: got %d with Retry-After %q (%s), want 503 with Retry-After", name, st, h.Get("Retry-After"), body)
		return
	}
	var shape map[string]any
	if err := json.Unmarshal(body, &shape); err != nil {
		t.Errorf("%s: body %s: %v", name, body, err)
		return
	}
	if strings.HasPrefix(name, "token") {
		if shape["error"] != "temporarily_unavailable" || h.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: got %s with Cache-Control %q, want the OAuth error temporarily_unavailable with no-store", name, body, h.Get("Cache-Control"))
		}
	} else if _, ok := shape["result"]; !ok {
		t.Errorf("%s: got %s, want the result envelope", name, body)
	}
}

// checkRecovery waits until every store-bound request is answered as before
// the outage, and logs how long that took after the database came back.
func (f *storeFault) checkRecovery(t *testing.T, back time.Time) {
	t.Helper()
	for _, sb := range storeBoundRequests {
		want := http.StatusOK
		if strings.HasPrefix(sb.name, "token") {
			want = http.StatusUnauthorized
		}
		var last int
		testwait.For(t, 30*time.Second, sb.name+" answered as before the outage", func() bool {
			last, _, _ = sb.send(quiet{t}, f)
			return last == want
		})
		t.Logf("%s: answered %d %s after the database was back", sb.name, want, time.Since(back).Round(time.Millisecond))
	}
	st, _, body := f.get(t, f.asOfPath())
	if st != http.StatusOK || !strings.Contains(string(body), `"4.321,500"`) {
		t.Errorf("asOf after recovery: got %d (%s), want the value before the correction", st, body)
	}
	f.checkInMemory(t)
}

// quiet is a testing.TB whose errors do not fail the test: for polling.
type quiet struct{ testing.TB }

func (quiet) Errorf(string, ...any) {}
func (quiet) Helper()               {}

// TestStoreStopped stops PostgreSQL under a serving replica.
func TestStoreStopped(t *testing.T) {
	f := newStoreFault(t)
	f.pg.Stop()
	f.checkInMemory(t)
	for _, sb := range storeBoundRequests {
		start := time.Now()
		st, h, body := sb.send(t, f)
		checkUnavailable(t, sb.name, st, h, body)
		if d := time.Since(start); d > storeBoundBound {
			t.Errorf("%s: answered after %s, want within %s", sb.name, d, storeBoundBound)
		}
	}
	f.checkInMemory(t)
	f.pg.Start()
	f.checkRecovery(t, time.Now())
}

// TestStoreHung hangs PostgreSQL (SIGSTOP) under a serving replica while
// clients keep three times --max-in-flight store-bound requests waiting on
// it, and checks that data requests are still answered at once.
func TestStoreHung(t *testing.T) {
	t.Parallel()
	f := newStoreFault(t)
	f.pg.Hang()

	const waiting = 3 * storeFaultMaxInFlight
	var (
		stop    = make(chan struct{})
		wg      sync.WaitGroup
		mu      sync.Mutex
		answers = map[string]int{}
	)
	for i := range waiting {
		sb := storeBoundRequests[i%len(storeBoundRequests)]
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				start := time.Now()
				st, h, body := sb.send(t, f)
				checkUnavailable(t, sb.name, st, h, body)
				if d := time.Since(start); d > storeBoundBound {
					t.Errorf("%s: answered after %s, want within %s", sb.name, d, storeBoundBound)
				}
				mu.Lock()
				answers[sb.name]++
				mu.Unlock()
			}
		})
	}
	stopClients := sync.OnceFunc(func() { close(stop); wg.Wait() })
	defer stopClients() // also when the test fails: no goroutine outlives it
	// More requests are in flight than there are slots: those waiting on
	// the store hold none of them.
	testwait.For(t, 30*time.Second, fmt.Sprintf("more than %d requests in flight", storeFaultMaxInFlight), func() bool {
		return inFlight(t, f.metrics) > storeFaultMaxInFlight
	})
	for range 20 {
		start := time.Now()
		f.checkInMemory(t)
		// A bound for a loaded machine; a request that found no slot
		// would have been refused (503) after --queue-timeout instead.
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("data and token held in memory: answered after %s with store-bound requests waiting", d)
		}
	}
	// And they were still waiting meanwhile: the data requests were served
	// beside them, not after them.
	testwait.For(t, 30*time.Second, fmt.Sprintf("still more than %d requests in flight", storeFaultMaxInFlight), func() bool {
		return inFlight(t, f.metrics) > storeFaultMaxInFlight
	})
	stopClients()
	for _, sb := range storeBoundRequests {
		if answers[sb.name] == 0 {
			t.Errorf("%s: never answered while the database hung", sb.name)
		}
	}
	f.pg.Resume()
	f.checkRecovery(t, time.Now())
}
