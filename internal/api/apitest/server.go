// Package apitest helps tests of code that talks to the API: Start runs the
// real server (api.NewServer on a SQLite store, with a registered client) and
// records what it saw, and Validator checks HTTP exchanges against the
// OpenAPI document the server embeds. It is imported only by tests.
package apitest

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/coding"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store/sqlite"
)

// The client registered on every server Start builds.
const (
	ClientID     = "apitest"
	ClientSecret = "apitest-secret"
)

// Options configure Start. The zero value serves no data with the server's
// defaults: 300 s tokens, the real clock and a 60-day range limit.
type Options struct {
	// Data are served as the datasets' records, imported as such.
	Data Rows
	// Catalog and Source, when set, are what the server serves instead of
	// Data and Load: the datasets of Catalog, from the parts of Source.
	Catalog *dataset.Catalog
	Source  dataset.PartSource
	// Load is served as total-load (and the peak-valley days it derives,
	// where Data has none).
	Load []energy.LoadPoint
	// Now is the server's clock, for tokens and the request log.
	Now func() time.Time
	// TokenTTL is the lifetime of issued tokens; 0 means 300 s.
	TokenTTL time.Duration
	// MaxRangeDays bounds date ranges; 0 means 60, negative means no limit.
	MaxRangeDays int
	// Wrap, if set, wraps the API handler, inside the recording: a test puts
	// fault injection here, and the server's record shows the injected answers.
	Wrap func(http.Handler) http.Handler
	// Log receives the server's log; nil discards it.
	Log io.Writer
	// LogLevel is the least level logged; the zero value is Info.
	LogLevel slog.Level
	// Clients are registered besides ClientID, as client ID to secret.
	Clients map[string]string
	// Adjust, if set, changes the server's options before it starts: a test
	// sets limits, metrics or the token endpoint's hooks here.
	Adjust func(*api.Options)
}

// Seen is one request the server answered.
type Seen struct {
	Method string
	Path   string
	Query  string // the raw query
	// Authorization is the request's Authorization header, so that a test
	// can tell which token each request carried.
	Authorization string
	UserAgent     string
	Status        int
}

// Server is a running API server.
type Server struct {
	URL string

	srv     *httptest.Server
	handler http.Handler
	st      *sqlite.Store
	dir     string

	mu   sync.Mutex
	seen []Seen
}

// Start runs a server. Close it when done. Examples use Start; tests use NewServer.
func Start(o Options) (*Server, error) {
	dir, err := os.MkdirTemp("", "apitest")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir}
	if err := s.start(o.withDefaults()); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// withDefaults returns o with the zero values that mean a default replaced.
func (o Options) withDefaults() Options {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.TokenTTL == 0 {
		o.TokenTTL = 300 * time.Second
	}
	switch {
	case o.MaxRangeDays == 0:
		o.MaxRangeDays = 60
	case o.MaxRangeDays < 0:
		o.MaxRangeDays = 0
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	return o
}

// start opens the store in s.dir, registers the clients and serves.
func (s *Server) start(o Options) error {
	ctx := context.Background()
	schema, err := migratedStore()
	if err != nil {
		return err
	}
	path := filepath.Join(s.dir, "api.db")
	if err := os.WriteFile(path, schema, 0o600); err != nil {
		return err
	}
	if s.st, err = sqlite.Open(ctx, path); err != nil {
		return err
	}
	authn, err := s.auth(ctx, o)
	if err != nil {
		return err
	}
	data, err := serveData(ctx, o)
	if err != nil {
		return err
	}
	ao := api.Options{
		// The JSON log serve writes, request lines encoded by the API itself.
		Log:  slog.New(api.NewJSONLog(o.Log, &slog.HandlerOptions{Level: o.LogLevel})),
		Now:  o.Now,
		Data: data,
		Auth: authn,
		// Large enough that tests exercise cached answers; compression on,
		// as serve has it: Go's HTTP client asks for gzip unasked.
		Cache:         api.Cache{AnswerBytes: 8 << 20, Compression: coding.New()},
		Observability: api.Observability{Ready: s.st.Ping},
	}
	if o.Adjust != nil {
		o.Adjust(&ao)
	}
	s.handler = api.NewServer(ao)
	h := s.handler
	if o.Wrap != nil {
		h = o.Wrap(h)
	}
	s.srv = httptest.NewServer(s.record(h))
	s.URL = s.srv.URL
	return nil
}

// auth registers ClientID and o.Clients in the store and returns what
// issues and checks their tokens.
func (s *Server) auth(ctx context.Context, o Options) (api.Auth, error) {
	reg, err := auth.NewRegistry(ctx, s.st, s.st, o.Now, rand.Reader)
	if err == nil {
		err = reg.Ensure(ctx, ClientID, "apitest", ClientSecret)
	}
	for id, secret := range o.Clients {
		if err == nil {
			err = reg.Ensure(ctx, id, id, secret)
		}
	}
	if err == nil {
		// Token requests are served from the registry's in-memory table, as
		// in serve (which keeps it current with Registry.Sync).
		_, err = reg.Load(ctx)
	}
	var keys *auth.Keyring
	if err == nil {
		keys, err = auth.NewKeyring(ctx, s.st, auth.KeyringConfig{Rotation: 24 * time.Hour, Activation: 2 * time.Minute, TokenTTL: o.TokenTTL}, o.Now, rand.Reader)
	}
	if err != nil {
		return api.Auth{}, err
	}
	tokens := auth.NewTokens(keys, reg, auth.DefaultIssuer, o.TokenTTL, o.Now, rand.Reader)
	return api.Auth{Registry: reg, Tokens: tokens, Keys: keys}, nil
}

// serveData returns the data o asks the server to serve: o.Catalog from
// o.Source (with asOf reads), or else o.Data and o.Load.
func serveData(ctx context.Context, o Options) (api.Data, error) {
	if o.Catalog != nil && o.Source != nil {
		live, err := dataset.NewLive(ctx, o.Catalog, o.Source)
		if err != nil {
			return api.Data{}, err
		}
		snap := live.Snapshot()
		return api.Data{Catalog: o.Catalog, Snapshot: func() *dataset.Snapshot { return snap }, AsOf: live.AsOf, MaxRangeDays: o.MaxRangeDays}, nil
	}
	cat, snap, err := Snapshot(o.Data, o.Load...)
	return api.Data{Catalog: cat, Snapshot: func() *dataset.Snapshot { return snap }, MaxRangeDays: o.MaxRangeDays}, err
}

// migratedStore returns the file of a SQLite store that sqlite.Open has
// just created and migrated, made once per process: each server's store
// starts as a copy of it, which Open finds up to date, rather than running
// every migration again (under the race detector, a tenth of
// internal/api's tests' time went to them).
var migratedStore = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "apitest-schema")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "schema.db")
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		return nil, err
	}
	if err := st.Close(); err != nil {
		return nil, err
	}
	// Closed, the store's write-ahead log is checkpointed into the file.
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		return nil, fmt.Errorf("apitest: %s-wal holds %d bytes after Close", path, fi.Size())
	}
	return os.ReadFile(path)
})

// NewServer starts a server that is closed when the test ends.
func NewServer(tb testing.TB, o Options) *Server {
	tb.Helper()
	s, err := Start(o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s
}

// Close stops the server and removes its store.
func (s *Server) Close() {
	if s.srv != nil {
		s.srv.Close()
	}
	if s.st != nil {
		s.st.Close()
	}
	os.RemoveAll(s.dir)
}

// Handler returns the API handler itself, without the network, recording or
// Wrap, for benchmarks.
func (s *Server) Handler() http.Handler { return s.handler }

// Seen returns the requests answered so far, in the order they were answered.
func (s *Server) Seen() []Seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Seen(nil), s.seen...)
}

// SeenPath returns the requests to path answered so far.
func (s *Server) SeenPath(path string) []Seen {
	var out []Seen
	for _, r := range s.Seen() {
		if r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

// statusRecorder reports the status when the handler first writes, before
// any byte reaches the client: a test that reads Seen after its request
// returned must find the request there.
type statusRecorder struct {
	http.ResponseWriter
	onStatus func(int)
}

func (w *statusRecorder) report(code int) {
	if w.onStatus != nil {
		w.onStatus(code)
		w.onStatus = nil
	}
}

func (w *statusRecorder) WriteHeader(code int) {
	w.report(code)
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusRecorder) Write(b []byte) (int, error) {
	w.report(http.StatusOK)
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (s *Server) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen := Seen{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Authorization: r.Header.Get("Authorization"), UserAgent: r.UserAgent()}
		sw := &statusRecorder{ResponseWriter: w, onStatus: func(code int) {
			seen.Status = code
			s.mu.Lock()
			defer s.mu.Unlock()
			s.seen = append(s.seen, seen)
		}}
		next.ServeHTTP(sw, r)
		sw.report(http.StatusOK) // a handler that wrote nothing answered 200
	})
}

// Token returns an access token for the registered client (ClientID),
// fetched the way any client does: a client-credentials POST through hc
// (http.DefaultClient if nil).
func (s *Server) Token(tb testing.TB, hc *http.Client) string {
	tb.Helper()
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.PostForm(s.URL+auth.TokenPath, url.Values{
		"client_id": {ClientID}, "client_secret": {ClientSecret}, "grant_type": {"client_credentials"}})
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var tr struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tr); err != nil || tr.AccessToken == "" {
		tb.Fatalf("token: status %d, %v", resp.StatusCode, err)
	}
	return tr.AccessToken
}

// Clock is a settable time source for a server and its clients.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a Clock set to t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Buffer collects what a server or command writes (its log, its output)
// while a test reads it; it is safe for concurrent use.
type Buffer struct {
	mu sync.Mutex
	b  []byte
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.b = append(b.b, p...)
	return len(p), nil
}

// String returns everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.b)
}
