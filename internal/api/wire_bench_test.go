package api_test

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/limit"
	"github.com/energyapi/energyapi/internal/yardstick"
)

// BenchmarkWire measures energyapi and its yardstick (internal/yardstick,
// the code scripts/staticserve and cmd/loadtest/baseline serve) side by
// side, each behind a real net/http server on 127.0.0.1, over one
// keep-alive connection from a client that only writes the request's bytes
// and reads the answer: the lines of scripts/bench-ratio and
// scripts/bench-token-ratio, net/http's own work included. energyapi runs as
// serve runs it (asServed, the failed-authentication guard, the JSON request
// log, formatted and discarded). Rates here mean little on a shared machine;
// under callgrind (scripts/bench-callgrind) the instructions per request of
// the two, and their ratio, are the same whatever else runs.
func BenchmarkWire(b *testing.B) {
	lines := []struct{ name, path, encoding, revalidate string }{
		{"all-italy", thermoPath + "?year=2023", "identity", ""},
		{"one-province", thermoPath + "?year=2023&province=Brindisi", "identity", ""},
		{"peak-valley-31", peakValleyPath + "?dateFrom=01/01/2024&dateTo=31/01/2024", "identity", ""},
		{"all-italy-gzip", thermoPath + "?year=2023", "gzip", ""},
		{"all-italy-304", thermoPath + "?year=2023", "identity", "If-None-Match"},
	}
	for _, l := range lines {
		b.Run(l.name, func(b *testing.B) {
			api, static, req := wireData(b, l.path, l.encoding, l.revalidate != "")
			b.Run("energyapi", func(b *testing.B) { benchWire(b, api, req) })
			b.Run("yardstick", func(b *testing.B) { benchWire(b, static, req) })
		})
	}
	b.Run("token", func(b *testing.B) {
		srv := apitest.NewServer(b, apitest.Options{Log: io.Discard, Adjust: servedWithGuard(b)})
		form := "client_id=" + testClientID + "&client_secret=" + testClientSecret + "&grant_type=client_credentials"
		req := "POST /public-api/access-token HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: Go-http-client/1.1\r\n" +
			"Content-Length: " + strconv.Itoa(len(form)) + "\r\nContent-Type: application/x-www-form-urlencoded\r\nAccept-Encoding: gzip\r\n\r\n" + form
		body, err := yardstick.TokenAnswer(len(`{"access_token":"` + wireToken(b, srv.Handler()) + `","token_type":"bearer","expires_in":300}`))
		if err != nil {
			b.Fatal(err)
		}
		_, key, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("energyapi", func(b *testing.B) { benchWire(b, srv.Handler(), req) })
		b.Run("yardstick", func(b *testing.B) { benchWire(b, yardstick.TokenForm(body, nil), req) })
		b.Run("yardstick-signing", func(b *testing.B) { benchWire(b, yardstick.TokenForm(body, key), req) })
	})
}

// servedWithGuard is asServed with the failed-authentication guard serve
// sets by default (cmd/energyapi/serve_harden.go).
func servedWithGuard(tb testing.TB) func(*api.Options) {
	served := asServed(tb)
	return func(o *api.Options) {
		served(o)
		o.Auth.FailureGuard = limit.NewFailureGuard(limit.Rate{N: 10, Per: time.Minute}, limit.Rate{N: 100, Per: time.Minute}, 100_000, time.Now)
	}
}

// wireData returns energyapi's handler, as served, and a yardstick that
// sends its answer to path in encoding (with its ETag), and the raw request
// a Go client sends for it (naming the ETag in If-None-Match if revalidate).
func wireData(b *testing.B, path, encoding string, revalidate bool) (http.Handler, http.Handler, string) {
	srv := apitest.NewServer(b, apitest.Options{Data: demoData(b), Log: io.Discard, Adjust: servedWithGuard(b)})
	h := srv.Handler()
	tok := wireToken(b, h)
	r := httptest.NewRequest(http.MethodGet, path, nil)
	r.Header.Set("Authorization", "Bearer "+tok)
	r.Header.Set("Accept-Encoding", encoding)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusOK {
		b.Fatalf("%s: status %d", path, w.Code)
	}
	a := yardstick.Answer{Body: w.Body.Bytes(), Tag: w.Header().Get("ETag")}
	if encoding == "gzip" {
		a = yardstick.Answer{Body: []byte("unused"), Gzip: w.Body.Bytes(), GzTag: w.Header().Get("ETag")}
	}
	req := "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: Go-http-client/1.1\r\nAccept: application/json\r\n" +
		"Accept-Encoding: " + encoding + "\r\nAuthorization: Bearer " + tok + "\r\n"
	if revalidate {
		req += "If-None-Match: " + w.Header().Get("ETag") + "\r\n"
	}
	return h, yardstick.Static(map[string]yardstick.Answer{path: a}, nil), req + "\r\n"
}

// wireToken obtains a token from h.
func wireToken(b *testing.B, h http.Handler) string {
	form := "client_id=" + testClientID + "&client_secret=" + testClientSecret + "&grant_type=client_credentials"
	r := httptest.NewRequest(http.MethodPost, "/public-api/access-token", strings.NewReader(form))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	tok, _, _ := strings.Cut(strings.TrimPrefix(w.Body.String(), `{"access_token":"`), `"`)
	if w.Code != http.StatusOK || tok == "" {
		b.Fatalf("token: status %d", w.Code)
	}
	return tok
}

// benchWire serves h on 127.0.0.1 and sends it req b.N times over one
// keep-alive connection, reading each answer whole.
func benchWire(b *testing.B, h http.Handler, req string) {
	srv := httptest.NewServer(h)
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	br := bufio.NewReaderSize(conn, 64<<10)
	raw := []byte(req)
	status := readWire(b, conn, br, raw) // the first answer, as the others must be
	b.ReportAllocs()
	b.ResetTimer()
	loop(b, func() {
		if s := readWire(b, conn, br, raw); s != status {
			b.Fatalf("status %d, then %d", status, s)
		}
	})
}

// readWire writes req and reads one answer, returning its status.
func readWire(b *testing.B, conn net.Conn, br *bufio.Reader, req []byte) int {
	if _, err := conn.Write(req); err != nil {
		b.Fatal(err)
	}
	line, err := br.ReadSlice('\n')
	if err != nil || len(line) < 12 {
		b.Fatalf("status line %q: %v", line, err)
	}
	status, _ := strconv.Atoi(string(line[9:12]))
	size := 0
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			b.Fatal(err)
		}
		if len(line) <= 2 {
			break
		}
		if v, ok := bytes.CutPrefix(line, []byte("Content-Length: ")); ok {
			size, _ = strconv.Atoi(string(bytes.TrimSpace(v)))
		}
	}
	if status != http.StatusOK && status != http.StatusNotModified {
		b.Fatalf("status %d", status)
	}
	if _, err := br.Discard(size); err != nil {
		b.Fatal(err)
	}
	return status
}

// loop runs one measured request b.N times. Under callgrind started with
// --instr-atstart=no by scripts/bench-callgrind, which names a directory in
// ENERGYAPI_CALLGRIND, it counts the instructions of the loop alone: it
// turns instrumentation on, runs a third of the requests, has the counts
// dumped, runs the other two thirds, has them dumped again, and turns
// instrumentation off. The script takes the cost of a dump from the first
// run of a benchmark (b.N = 1, no request before the first dump) and
// divides what is left by b.N: instructions per request, whatever the
// set-up, the start-up or the rest of the machine cost.
func loop(b *testing.B, request func()) {
	dir := os.Getenv("ENERGYAPI_CALLGRIND")
	if dir == "" {
		for range b.N {
			request()
		}
		return
	}
	k := b.N / 3
	callgrind(b, dir, "-i on")
	for range k {
		request()
	}
	callgrind(b, dir, "-d one-third")
	for range b.N - k {
		request()
	}
	callgrind(b, dir, "-d two-thirds")
	callgrind(b, dir, "-i off")
}

// callgrind asks scripts/bench-callgrind to send callgrind_control args for
// this process, by a file in dir that it removes when done, and waits. The
// process does not run callgrind_control itself: the SIGCHLD of a child
// that ends trips an assertion in callgrind 3.19 on Go programs.
func callgrind(b *testing.B, dir, args string) {
	f := filepath.Join(dir, "command")
	if err := os.WriteFile(f+".tmp", []byte(args), 0o600); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(f+".tmp", f); err != nil {
		b.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := os.Stat(f); err != nil {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("callgrind_control %s: no answer in a minute", args)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
