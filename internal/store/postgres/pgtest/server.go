package pgtest

import (
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// Server is a throwaway PostgreSQL server that one test starts for itself,
// so that it may stop it, start it again and hang it: faults that the
// shared Cluster cannot take without disturbing every other test. It always
// comes from the installed server binaries (ENERGYAPI_TEST_POSTGRES names a
// server that a test must not stop); without them the test skips, or fails
// with ENERGYAPI_REQUIRE_POSTGRES=1. Its methods are for the test's own
// goroutine.
type Server struct {
	tb   testing.TB
	bin  string
	dir  string
	cred *syscall.Credential
	port int
	srv  *server // nil while stopped
	hung bool
}

// NewServer starts a server of tb's own on a free port of 127.0.0.1 and
// removes it when tb ends: continued if hung, shut down, its files deleted.
func NewServer(tb testing.TB) *Server {
	tb.Helper()
	bin, err := findBinaries()
	if err != nil {
		if os.Getenv(EnvRequire) != "1" {
			tb.Skipf("SKIPPING PostgreSQL test: %v", err)
		}
		tb.Fatalf("pgtest: %v", err)
	}
	srv, err := startServer(bin)
	if err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	cred, err := serverUser()
	if err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	s := &Server{tb: tb, bin: bin, dir: srv.dir, cred: cred, port: srv.port, srv: srv}
	tb.Cleanup(func() {
		if s.srv != nil {
			s.srv.shutdown() // continues a hung server first
		}
		if err := os.RemoveAll(s.dir); err != nil {
			tb.Errorf("pgtest: %v", err)
		}
	})
	return s
}

// URL returns the postgres:// URL of the server's maintenance database,
// "postgres", which is the test's to use as it likes. It stays the same
// across Stop and Start.
func (s *Server) URL() string {
	u := &url.URL{Scheme: "postgres", User: url.User("postgres"),
		Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)), Path: "/postgres", RawQuery: "sslmode=disable"}
	return u.String()
}

// Stop shuts the server down (fast shutdown: open sessions are ended), as
// an operator or a crash would: clients then have their connections refused.
func (s *Server) Stop() {
	s.tb.Helper()
	if s.srv == nil {
		s.tb.Fatal("pgtest: Stop: the server is not running")
	}
	s.srv.shutdown()
	s.srv, s.hung = nil, false
}

// Start starts a stopped server again, on the same port with the same data,
// and waits until it accepts connections.
func (s *Server) Start() {
	s.tb.Helper()
	if s.srv != nil {
		s.tb.Fatal("pgtest: Start: the server is running")
	}
	srv, err := launch(s.bin, s.dir, filepath.Join(s.dir, "data"), s.port, s.cred)
	if err != nil {
		s.tb.Fatalf("pgtest: restarting the server: %v", err)
	}
	s.srv = srv
}

// Hang stops the postmaster and every backend with SIGSTOP: the server
// accepts TCP connections (the kernel completes them) and reads nothing,
// answers nothing, as a server that hangs on a stalled disk or a swapped-out
// host. Resume continues it; so does a cleanup that Hang registers, which
// runs before the cleanups registered earlier (a server under test, say,
// whose shutdown may wait on the database), even when the test fails.
func (s *Server) Hang() {
	s.tb.Helper()
	if s.srv == nil {
		s.tb.Fatal("pgtest: Hang: the server is not running")
	}
	srv := s.srv
	s.tb.Cleanup(func() { _ = srv.signalAll(syscall.SIGCONT) }) // harmless if resumed
	if err := srv.signalAll(syscall.SIGSTOP); err != nil {
		s.tb.Fatalf("pgtest: SIGSTOP: %v", err)
	}
	s.hung = true
}

// Resume continues a server that Hang stopped.
func (s *Server) Resume() {
	s.tb.Helper()
	if s.srv == nil || !s.hung {
		s.tb.Fatal("pgtest: Resume: the server is not hung")
	}
	if err := s.srv.signalAll(syscall.SIGCONT); err != nil {
		s.tb.Fatalf("pgtest: SIGCONT: %v", err)
	}
	s.hung = false
}
