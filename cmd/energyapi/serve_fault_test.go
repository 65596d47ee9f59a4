package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store/sqlite"
	"github.com/energyapi/energyapi/internal/testwait"
)

// These tests run energyapi as a real child process, so that it can be
// killed and signalled: the test binary runs itself again with
// faultChildEnv set, and TestMain turns into the command (faultChild).

const faultChildEnv = "FAULT_CHILD_ARGS"

// faultChild is the child process's main, which TestMain runs instead of
// the tests when faultChildEnv holds the command's arguments (raw, JSON);
// it returns the exit code.
func faultChild(raw string) int {
	var args []string
	if err := json.Unmarshal([]byte(raw), &args); err != nil {
		fmt.Fprintln(os.Stderr, "energyapi:", err)
		return 2
	}
	return exitCode(run(context.Background(), args, os.Getenv, os.Stdin, os.Stdout, os.Stderr), os.Stderr)
}

// child is a running energyapi process.
type child struct {
	cmd    *exec.Cmd
	stdout *apitest.Buffer
	stderr *apitest.Buffer
	exited chan struct{} // closed when the process has exited
	err    error         // its exit status, once exited is closed
}

// startChild runs "energyapi args..." as a child process. The environment is
// the test's own minus any ENERGYAPI_* variable, which would change the
// command's flags.
func startChild(tb testing.TB, args ...string) *child {
	tb.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ENERGYAPI_") && !strings.HasPrefix(kv, faultChildEnv+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, faultChildEnv+"="+string(raw))
	c := &child{cmd: cmd, stdout: &apitest.Buffer{}, stderr: &apitest.Buffer{}, exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = c.stdout, c.stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	go func() {
		c.err = cmd.Wait()
		close(c.exited)
	}()
	tb.Cleanup(func() {
		_ = cmd.Process.Kill() // already gone in a passing test
		<-c.exited
	})
	return c
}

// waitFor polls cond every few milliseconds until it holds, failing the test
// after within. It is a bounded wait for an event, not a timing assertion.
// outputMatch waits until the child's stdout matches re and returns the first group.
func (c *child) outputMatch(tb testing.TB, re *regexp.Regexp) string {
	tb.Helper()
	var m []string
	testwait.For(tb, 60*time.Second, "child output "+re.String(), func() bool {
		select {
		case <-c.exited:
			tb.Fatalf("child exited early (%v): stdout %q stderr %q", c.err, c.stdout.String(), c.stderr.String())
		default:
		}
		m = re.FindStringSubmatch(c.stdout.String())
		return m != nil
	})
	return m[1]
}

// fltRun runs a command in this process and returns its stdout.
func fltRun(tb testing.TB, args ...string) string {
	tb.Helper()
	out, err := runCmd(tb, nil, args...)
	if err != nil {
		tb.Fatalf("energyapi %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// fltClient registers a client in db, creating the store if need be, and
// returns its ID and secret.
func fltClient(tb testing.TB, db string) (id, secret string) {
	tb.Helper()
	fltRun(tb, "init", "--db", db)
	var c struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	if err := json.Unmarshal([]byte(fltRun(tb, "clients", "create", "--db", db, "--name", "fault")), &c); err != nil {
		tb.Fatal(err)
	}
	return c.ClientID, c.ClientSecret
}

// loadCSV writes a total-load export with one row per quarter hour and zone
// for days days from first, each value offset by bias, and returns its path.
// It stays clear of the daylight-saving days, whose rules other tests cover.
func loadCSV(tb testing.TB, name string, first energy.Date, days, bias int) string {
	tb.Helper()
	var b strings.Builder
	b.WriteString("Date,Total Load [MW],Forecast Total load [MW],Bidding zone\n")
	zones := energy.Zones()
	for d := range days {
		day := first.AddDays(d)
		for q, at := 0, day.Start(); at.Before(day.End()); q, at = q+1, at.Add(15*time.Minute) {
			stamp := at.In(energy.Rome()).Format("02/01/2006 15:04:05")
			for z, zone := range zones {
				fmt.Fprintf(&b, "%s,%d,%d,%s\n", stamp, 20000+bias+q*7+z, 20100+bias+z, zone)
			}
		}
	}
	path := filepath.Join(tb.TempDir(), name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// storeState is what a store holds: its data version, a digest of every
// part, and the days of peaks and valleys it serves.
type storeState struct {
	Version    int64
	Parts      map[dataset.PartRef][32]byte
	PeakValley int // days
}

func readAll(tb testing.TB, db string) storeState {
	tb.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, db)
	if err != nil {
		tb.Fatalf("opening the store: %v", err)
	}
	defer st.Close()
	ch, err := st.ChangedParts(ctx, nil)
	if err != nil {
		tb.Fatalf("reading the store: %v", err)
	}
	out := storeState{Version: ch.Version, Parts: map[dataset.PartRef][32]byte{}}
	for _, p := range ch.Parts {
		out.Parts[p.PartRef] = sha256.Sum256(p.Data)
	}
	cat, err := catalog.New()
	if err != nil {
		tb.Fatal(err)
	}
	live, err := dataset.NewLive(ctx, cat, st)
	if err != nil {
		tb.Fatalf("loading the store: %v", err)
	}
	pv, _ := cat.Lookup("peak-valley")
	out.PeakValley = live.Snapshot().Table(pv).Records() / 2
	return out
}

// writeLockHeld reports whether another connection holds SQLite's write
// lock on db, that is, whether a write transaction is open: BEGIN IMMEDIATE
// with no busy timeout fails at once with SQLITE_BUSY if so.
func writeLockHeld(tb testing.TB, probe *sql.DB) bool {
	tb.Helper()
	ctx := context.Background()
	conn, err := probe.Conn(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		if strings.Contains(err.Error(), "SQLITE_BUSY") || strings.Contains(err.Error(), "database is locked") {
			return true
		}
		tb.Fatalf("probe: %v", err)
	}
	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		tb.Fatal(err)
	}
	return false
}

// TestSIGKILLDuringImport kills an import in the middle of its transaction
// and checks that the store opens cleanly and serves exactly what it served
// before that import.
func TestSIGKILLDuringImport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "kill.db")
	jan := energy.Date{Year: 2023, Month: 1, Day: 1}
	fltRun(t, "import", "--db", db, "--dataset", "total-load", loadCSV(t, "base.csv", jan, 3, 0))
	before := readAll(t, db)
	if before.PeakValley != 3 {
		t.Fatalf("base import: got %d days, want 3", before.PeakValley)
	}
	// The large import overwrites the base days with other values and adds
	// 362 more, a whole year, so that its write transaction lasts long
	// enough to be caught: any part of it that reached the store would show.
	big := loadCSV(t, "big.csv", jan, 365, 500)

	probe, err := sql.Open("sqlite", (&url.URL{Scheme: "file", Path: db, RawQuery: "_pragma=busy_timeout(0)"}).String())
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	probe.SetMaxOpenConns(1)

	c := startChild(t, "import", "--db", db, "--dataset", "total-load", big)
	// The import parses the whole file before it opens the store; then it
	// holds the write lock for the whole transaction. Opening the store takes
	// the lock too, for a moment, so wait until it is held on several probes
	// in a row before killing.
	held := 0
	testwait.For(t, 120*time.Second, "the import's write transaction", func() bool {
		select {
		case <-c.exited:
			t.Fatalf("the import finished (%v) before it could be killed; stdout %q", c.err, c.stdout.String())
		default:
		}
		if writeLockHeld(t, probe) {
			held++
		} else {
			held = 0
		}
		return held >= 5
	})
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-c.exited
	var exit *exec.ExitError
	if !errors.As(c.err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child ended with %v, want killed by SIGKILL", c.err)
	}
	if out := c.stdout.String(); strings.Contains(out, "rows_read") {
		t.Fatalf("the import reported success before it was killed: %s", out)
	}

	after := readAll(t, db)
	if !reflect.DeepEqual(after, before) {
		t.Fatalf("after SIGKILL: got version %d with %d days, want the data from before the import: version %d with %d days",
			after.Version, after.PeakValley, before.Version, before.PeakValley)
	}
	// The same import, run to the end, does change what is served: the
	// comparison above could have failed. Run by the binary built without
	// the race detector: the import itself is not what this test is about.
	if out, err := exec.Command(energyapiBinary(t), "import", "--db", db, "--dataset", "total-load", big).CombinedOutput(); err != nil {
		t.Fatalf("energyapi import: %v\n%s", err, out)
	}
	if done := readAll(t, db); done.Version == before.Version || done.PeakValley != 365 {
		t.Fatalf("completed import: got version %d with %d days, want a new version with 365 days", done.Version, done.PeakValley)
	}
}

var (
	apiAddr     = regexp.MustCompile(`listening on http://(\S+)`)
	metricsAddr = regexp.MustCompile(`metrics on http://(\S+)/metrics`)
)

// inFlight scrapes the in-flight gauge.
func inFlight(tb testing.TB, metricsURL string) int {
	tb.Helper()
	resp, err := http.Get(metricsURL)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "energyapi_http_requests_in_flight "); ok {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				tb.Fatal(err)
			}
			return int(n)
		}
	}
	tb.Fatal("no energyapi_http_requests_in_flight in the metrics")
	return 0
}

// TestSIGTERMDrainsInFlightRequests signals a server while token requests
// are in flight, their bodies still arriving from slow clients. The listener
// must close at once, every in-flight request must complete, and only then
// may the process exit.
func TestSIGTERMDrainsInFlightRequests(t *testing.T) {
	db := filepath.Join(t.TempDir(), "term.db")
	id, secret := fltClient(t, db)
	c := startChild(t, "serve", "--db", db, "--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0",
		// The slow requests below take as long as the test needs; the
		// deadlines must not end them first.
		"--request-timeout", "0", "--read-timeout", "2m", "--write-timeout", "2m", "--shutdown-timeout", "2m")
	metrics := "http://" + c.outputMatch(t, metricsAddr) + "/metrics"
	addr := c.outputMatch(t, apiAddr)

	body := url.Values{"client_id": {id}, "client_secret": {secret}, "grant_type": {"client_credentials"}}.Encode()
	const slow = 6
	conns := make([]net.Conn, slow)
	for i := range conns {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conns[i] = conn
		// Headers and half the body: the handler is reading the form.
		head := fmt.Sprintf("POST /public-api/access-token HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n", addr, len(body))
		if _, err := io.WriteString(conn, head+body[:len(body)/2]); err != nil {
			t.Fatal(err)
		}
	}
	testwait.For(t, 30*time.Second, "all slow requests in flight", func() bool { return inFlight(t, metrics) == slow })

	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// The listener closes at once: new connections are refused while the
	// slow requests are still in flight.
	testwait.For(t, 30*time.Second, "new connections refused", func() bool {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			return true
		}
		conn.Close()
		return false
	})
	select {
	case <-c.exited:
		t.Fatalf("the server exited (%v) with requests in flight", c.err)
	default:
	}

	for i, conn := range conns {
		if _, err := io.WriteString(conn, body[len(body)/2:]); err != nil {
			t.Fatalf("request %d: finishing the body: %v", i, err)
		}
	}
	for i, conn := range conns {
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		var tok struct {
			AccessToken string `json:"access_token"`
		}
		err = json.NewDecoder(resp.Body).Decode(&tok)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || err != nil || tok.AccessToken == "" {
			t.Errorf("request %d: got %d (%v), want 200 with a token", i, resp.StatusCode, err)
		}
		if !resp.Close {
			t.Errorf("request %d: the answer keeps the connection open, want Connection: close during shutdown", i)
		}
	}
	select {
	case <-c.exited:
	case <-time.After(testwait.Scale(60 * time.Second)):
		t.Fatal("the server did not exit after its last request")
	}
	if c.err != nil {
		t.Fatalf("server exit: %v\n%s", c.err, c.stderr.String())
	}
	if !strings.Contains(c.stderr.String(), `"msg":"stopped"`) {
		t.Errorf("the log does not end with a clean stop:\n%s", c.stderr.String())
	}
}
