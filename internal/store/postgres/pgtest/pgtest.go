// Package pgtest gives tests a real PostgreSQL server: the one that
// ENERGYAPI_TEST_POSTGRES names (a postgres:// URL of a role that may create
// databases), or else a throwaway cluster that it starts from the installed
// server binaries on a free port of 127.0.0.1 and removes afterwards.
//
// A test binary shares one Cluster (create it in TestMain, close it after
// m.Run) and each test gets its own database from it, so tests stay
// independent and the cluster starts once. The cluster starts on the first
// Database call, so a test binary whose PostgreSQL tests are filtered out
// pays nothing.
//
// When no server can be found, Database skips the test, loudly; with
// ENERGYAPI_REQUIRE_POSTGRES=1 (set by CI) it fails it instead.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Environment variables that the package reads.
const (
	// EnvServer names a running server to use instead of a throwaway one.
	EnvServer = "ENERGYAPI_TEST_POSTGRES"
	// EnvRequire, set to 1, turns a skip for want of a server into a failure.
	EnvRequire = "ENERGYAPI_REQUIRE_POSTGRES"
)

// errNoServer marks the one failure that skips rather than fails: there is
// neither a server named nor binaries to start one.
var errNoServer = errors.New("no PostgreSQL server")

// Cluster is a PostgreSQL server shared by the tests of one test binary.
// Its methods are safe for concurrent use.
type Cluster struct {
	once  sync.Once
	admin *url.URL // the maintenance database, as the superuser or the named role
	err   error    // why there is no server; wraps errNoServer for a skip
	srv   *server  // nil unless this process started the server

	warn sync.Once
}

// New returns a cluster that starts on first use.
func New() *Cluster { return &Cluster{} }

// Database creates a new, empty database for tb, drops it when tb ends, and
// returns its postgres:// URL. It skips tb when no server can be found, and
// fails it instead when ENERGYAPI_REQUIRE_POSTGRES=1.
func (c *Cluster) Database(tb testing.TB) string {
	tb.Helper()
	c.once.Do(c.start)
	if c.err != nil {
		if errors.Is(c.err, errNoServer) && os.Getenv(EnvRequire) != "1" {
			c.warn.Do(func() {
				// Skips are quiet without -v; this is not.
				fmt.Fprintf(os.Stderr, "\n*** pgtest: SKIPPING PostgreSQL tests: %v ***\n\n", c.err)
			})
			tb.Skipf("SKIPPING PostgreSQL test: %v", c.err)
		}
		tb.Fatalf("pgtest: %v", c.err)
	}
	name := "energyapi_test_" + randomHex(8)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.exec(ctx, "CREATE DATABASE "+name); err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	tb.Cleanup(func() {
		// tb's own context has ended by now.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		// FORCE ends sessions a failed test left open.
		if err := c.exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			tb.Errorf("pgtest: %v", err)
		}
	})
	u := *c.admin
	u.Path = "/" + name
	return u.String()
}

// exec runs one statement, outside any transaction, on the maintenance database.
func (c *Cluster) exec(ctx context.Context, sql string) error {
	conn, err := pgx.Connect(ctx, c.admin.String())
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, sql); err != nil {
		return fmt.Errorf("%s: %w", sql, err)
	}
	return nil
}

// Run runs a test binary's tests, then stops the server if they started one,
// and returns the exit code for os.Exit: a server that fails to stop fails
// the run. It is all a TestMain needs:
//
//	func TestMain(m *testing.M) { cluster = pgtest.New(); os.Exit(cluster.Run(m)) }
func (c *Cluster) Run(m *testing.M) int {
	code := m.Run()
	if err := c.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "pgtest: stopping the server:", err)
		code = 1
	}
	return code
}

// Close stops the server if this process started it, and removes its files.
func (c *Cluster) Close() error {
	if c.srv == nil {
		return nil
	}
	return c.srv.stop()
}

func (c *Cluster) start() {
	if dsn := os.Getenv(EnvServer); dsn != "" {
		c.admin, c.err = named(dsn)
		return
	}
	bin, err := findBinaries()
	if err != nil {
		c.err = err
		return
	}
	c.srv, c.err = startServer(bin)
	if c.err == nil {
		c.admin = c.srv.url()
	}
}

// named checks the server that ENERGYAPI_TEST_POSTGRES names. Naming a server
// that does not answer is a failure, not a skip: someone asked for it.
func named(dsn string) (*url.URL, error) {
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return nil, fmt.Errorf("%s must be a postgres:// URL", EnvServer)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", EnvServer, err)
	}
	return u, conn.Close(ctx)
}

// findBinaries returns the directory that holds initdb and postgres: on
// PATH, or in the places Debian, Red Hat and source builds install them,
// newest major version first.
func findBinaries() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		dir := filepath.Dir(p)
		if isExec(filepath.Join(dir, "postgres")) {
			return dir, nil
		}
	}
	var dirs []string
	for _, pattern := range []string{"/usr/lib/postgresql/*/bin", "/usr/pgsql-*/bin"} {
		m, _ := filepath.Glob(pattern) // the patterns are valid
		slices.SortFunc(m, func(a, b string) int { return majorOf(b) - majorOf(a) })
		dirs = append(dirs, m...)
	}
	dirs = append(dirs, "/usr/local/pgsql/bin")
	for _, dir := range dirs {
		if isExec(filepath.Join(dir, "initdb")) && isExec(filepath.Join(dir, "postgres")) {
			return dir, nil
		}
	}
	return "", fmt.Errorf("%w: found no initdb and postgres on PATH or in /usr/lib/postgresql/*/bin, /usr/pgsql-*/bin, /usr/local/pgsql/bin; install the PostgreSQL server or set %s=postgres://user@host:port/postgres",
		errNoServer, EnvServer)
}

// majorOf returns the major version in a path like /usr/lib/postgresql/15/bin.
func majorOf(dir string) int {
	base := filepath.Base(filepath.Dir(dir))
	n, _ := strconv.Atoi(strings.TrimPrefix(base, "pgsql-"))
	return n
}

func isExec(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// server is a postgres process this package started.
type server struct {
	dir  string // temporary: data directory and log
	port int
	cmd  *exec.Cmd
	exit chan struct{} // closed when cmd has been waited for
	err  error         // cmd's exit status, once exit is closed
}

func (s *server) url() *url.URL {
	return &url.URL{Scheme: "postgres", User: url.User("postgres"),
		Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)), Path: "/postgres",
		RawQuery: "sslmode=disable"}
}

// startServer initialises a cluster in a new temporary directory and starts
// it. PostgreSQL refuses to run as root, so when the tests run as root the
// server runs as the unprivileged user nobody, which owns the directory.
func startServer(bin string) (*server, error) {
	cred, err := serverUser()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "energyapi-pg-")
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*server, error) {
		os.RemoveAll(dir)
		return nil, err
	}
	if cred != nil {
		// MkdirTemp made the directory 0700 and owned by root.
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return fail(err)
		}
	}
	data := filepath.Join(dir, "data")
	if err := initdb(bin, dir, data, cred); err != nil {
		return fail(err)
	}
	// Another process may take the free port between our probe and the
	// server's bind; a few tries make that harmless.
	for attempt := 1; ; attempt++ {
		port, err := freePort()
		if err != nil {
			return fail(err)
		}
		s, err := launch(bin, dir, data, port, cred)
		if err == nil {
			return s, nil
		}
		if attempt == 3 || !strings.Contains(err.Error(), "already in use") {
			return fail(err)
		}
	}
}

// serverUser returns the credentials the server must run under: nil when the
// tests do not run as root, nobody's when they do.
func serverUser() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	uid, gid := uint32(65534), uint32(65534) // nobody on most systems
	if u, err := user.Lookup("nobody"); err == nil {
		if n, err := strconv.ParseUint(u.Uid, 10, 32); err == nil {
			uid = uint32(n)
		}
		if n, err := strconv.ParseUint(u.Gid, 10, 32); err == nil {
			gid = uint32(n)
		}
	}
	return &syscall.Credential{Uid: uid, Gid: gid}, nil
}

// serverEnv is the environment of initdb and postgres: ours without PG*
// variables, which could point them elsewhere, and with English messages,
// which startServer reads.
func serverEnv() []string {
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "PG") || strings.HasPrefix(kv, "LC_") || strings.HasPrefix(kv, "LANG")
	})
	return append(env, "LC_ALL=C")
}

// initdb creates the cluster: superuser postgres, trusted on the loopback
// address only, UTF-8. The default collation is ICU English, a locale where
// "a" sorts before "B", so that tests notice a query that needs COLLATE "C"
// and lacks it; without ICU support it falls back to C. Durability is off:
// the cluster lives as long as one test binary.
func initdb(bin, dir, data string, cred *syscall.Credential) error {
	base := []string{"-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"}
	out, err := command(bin, "initdb", dir, cred, append(base, "--locale=C", "--locale-provider=icu", "--icu-locale=en")...).CombinedOutput()
	if err == nil {
		return nil
	}
	os.RemoveAll(data) // initdb leaves it behind when it fails
	out2, err := command(bin, "initdb", dir, cred, append(base, "--locale=C")...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("initdb: %w\nwith ICU:\n%s\nwithout:\n%s", err, out, out2)
	}
	return nil
}

// launch starts postgres on port of 127.0.0.1 and waits until it accepts
// connections. Its log goes to dir/postgres.log, after what an earlier run
// wrote there.
func launch(bin, dir, data string, port int, cred *syscall.Credential) (*server, error) {
	logPath := filepath.Join(dir, "postgres.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer logFile.Close() // the child has its own descriptor
	cmd := command(bin, "postgres", dir, cred,
		"-D", data, "-p", strconv.Itoa(port),
		"-c", "listen_addresses=127.0.0.1",
		"-c", "unix_socket_directories=", // TCP only: no socket directory to own
		"-c", "max_connections=300", // every test's store has a pool
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start postgres: %w", err)
	}
	s := &server{dir: dir, port: port, cmd: cmd, exit: make(chan struct{})}
	go func() {
		s.err = cmd.Wait()
		close(s.exit)
	}()

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		conn, err := pgx.Connect(ctx, s.url().String())
		if err == nil {
			return s, conn.Close(ctx)
		}
		select {
		case <-s.exit:
			log, _ := os.ReadFile(logPath)
			return nil, fmt.Errorf("postgres exited at start (%v):\n%s", s.err, log)
		case <-ctx.Done():
			log, _ := os.ReadFile(logPath)
			s.stop()
			return nil, fmt.Errorf("postgres did not accept connections within 60 s: %v\n%s", err, log)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// command returns the named server program, to run in dir as cred (nil:
// as this process) with serverEnv.
func command(bin, name, dir string, cred *syscall.Credential, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(bin, name), args...)
	cmd.Dir = dir // nobody may not be able to enter our working directory
	cmd.Env = serverEnv()
	cmd.SysProcAttr = procAttr(cred)
	return cmd
}

// freePort returns a TCP port of 127.0.0.1 that nothing listens on now.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// stop shuts the server down and removes its directory.
func (s *server) stop() error {
	s.shutdown()
	return os.RemoveAll(s.dir)
}

// shutdown stops the server (fast shutdown: sessions are ended) and waits
// for it to exit; its directory stays. A server hung by SIGSTOP is
// continued too, so that it can shut down.
func (s *server) shutdown() {
	if err := s.cmd.Process.Signal(syscall.SIGINT); err != nil && !errors.Is(err, os.ErrProcessDone) {
		s.cmd.Process.Kill()
	}
	_ = s.signalAll(syscall.SIGCONT)
	select {
	case <-s.exit:
	case <-time.After(30 * time.Second):
		s.cmd.Process.Kill()
		<-s.exit
	}
}

// signalAll sends sig to the postmaster, then to every process it
// started. They are not in its process group: each backend calls setsid.
func (s *server) signalAll(sig syscall.Signal) error {
	pid := s.cmd.Process.Pid
	if err := syscall.Kill(pid, sig); err != nil {
		return err
	}
	kids, err := children(pid)
	if err != nil {
		return err
	}
	for _, kid := range kids {
		if err := syscall.Kill(kid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
			return err
		}
	}
	return nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}
