package api_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/web"
)

// fuzzToken stands, in a fuzzed request's headers, for a valid access token
// of the server the request goes to, so that inputs reach past the bearer
// check to the data endpoints.
const fuzzToken = "$TOKEN"

// fuzzHang is how long a request may take before the fuzzer reports it as
// a hang: far above any answer's time, on a busy machine too.
const fuzzHang = 20 * time.Second

// fuzzTarget is a server's handler and a valid token for it.
type fuzzTarget struct {
	h     http.Handler
	token string
}

// FuzzHTTP sends arbitrary requests (method, target with path and query,
// headers, body) to the whole API, as serve builds it with the site, the
// updates feed and asOf history, and with or without the sandbox, and fails
// on any 5xx answer or panic. Requests the server's own parser would refuse
// (a malformed request line or header) are skipped, as they never reach a
// handler.
//
// Run it for long with, for example:
//
//	go test -run '^$' -fuzz '^FuzzHTTP$' -parallel 1 -fuzztime 10000000x ./internal/api/
func FuzzHTTP(f *testing.F) {
	targets := [2]fuzzTarget{newFuzzServer(f), newFuzzSandbox(f)}
	for _, s := range fuzzSeeds {
		f.Add(s.method, s.target, s.headers, s.body, false)
		f.Add(s.method, s.target, s.headers, s.body, true)
	}
	f.Fuzz(func(t *testing.T, method, target, headers, body string, sandboxOn bool) {
		tg := targets[0]
		if sandboxOn {
			tg = targets[1]
		}
		r, ok := fuzzRequest(method, target, strings.ReplaceAll(headers, fuzzToken, tg.token), body)
		if !ok {
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		// A stream ends once it has begun: cancelling at the first write
		// is the client leaving.
		w := &cancelOnWrite{ResponseRecorder: httptest.NewRecorder(), cancel: cancel}
		done := make(chan struct{})
		go func() {
			defer close(done)
			tg.h.ServeHTTP(w, r.WithContext(ctx))
		}()
		select {
		case <-done:
		case <-time.After(fuzzHang):
			buf := make([]byte, 1<<20)
			t.Fatalf("%s %q (headers %q, body %q, sandbox %v): no answer after %s\n%s", method, target, headers, body, sandboxOn, fuzzHang, buf[:runtime.Stack(buf, true)])
		}
		if w.Code >= 500 {
			t.Fatalf("%s %q (headers %q, body %q, sandbox %v): got %d %s", method, target, headers, body, sandboxOn, w.Code, w.Body.String())
		}
	})
}

// fuzzRequest reads the request the server would read from the wire, with
// a Content-Length for body unless headers give one; ok is false for a
// request the server's parser refuses.
func fuzzRequest(method, target, headers, body string) (*http.Request, bool) {
	var raw strings.Builder
	raw.WriteString(method + " " + target + " HTTP/1.1\r\nHost: api.example\r\n")
	for line := range strings.SplitSeq(headers, "\n") {
		if line = strings.TrimSuffix(line, "\r"); line != "" {
			raw.WriteString(line + "\r\n")
		}
	}
	lower := strings.ToLower(headers)
	if body != "" && !strings.Contains(lower, "content-length") && !strings.Contains(lower, "transfer-encoding") {
		raw.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n")
	}
	raw.WriteString("\r\n" + body)
	r, err := http.ReadRequest(bufio.NewReader(strings.NewReader(raw.String())))
	if err != nil {
		return nil, false
	}
	r.RemoteAddr = "192.0.2.7:40000"
	return r, true
}

// cancelOnWrite is a recorder that cancels the request's context at the
// first byte written.
type cancelOnWrite struct {
	*httptest.ResponseRecorder
	cancel context.CancelFunc
}

func (w *cancelOnWrite) Write(b []byte) (int, error) {
	w.cancel()
	return w.ResponseRecorder.Write(b)
}

// newFuzzServer is the API over an in-memory store holding two imports of
// a day of North's total load (the second a correction), with history for
// asOf, the updates feed and the site, and tokens that outlive a long run.
func newFuzzServer(tb testing.TB) fuzzTarget {
	tb.Helper()
	ctx := context.Background()
	cat, err := catalog.New()
	if err != nil {
		tb.Fatal(err)
	}
	mem := dataset.NewMemory()
	live, err := dataset.NewLive(ctx, cat, mem)
	if err != nil {
		tb.Fatal(err)
	}
	d, _ := cat.Lookup("total-load")
	day := time.Date(2024, 3, 31, 0, 0, 0, 0, time.FixedZone("CET", 3600))
	for i, stamp := range []string{"2024-05-01T10:00:00Z", "2024-05-03T10:00:00Z"} {
		var rows []dataset.Row
		for q := range 92 { // the spring clock change leaves 92 quarter hours
			rows = append(rows, dataset.Row{Time: day.Add(time.Duration(q) * 15 * time.Minute).Unix(), Text: []string{"North"}, Num: []float64{30000 + float64(q*(i+1)), math.NaN()}})
		}
		at, _ := time.Parse(time.RFC3339, stamp)
		if _, err := dataset.Import(ctx, mem, cat, d, rows, at); err != nil {
			tb.Fatal(err)
		}
	}
	if _, err := live.Refresh(ctx); err != nil {
		tb.Fatal(err)
	}
	feed := api.NewFeed(mem, live.Snapshot)
	srv := apitest.NewServer(tb, apitest.Options{
		Catalog: cat, Source: mem, TokenTTL: 24 * time.Hour, LogLevel: slog.LevelError + 4,
		Adjust: func(o *api.Options) {
			o.Data.Snapshot, o.Data.AsOf, o.Data.Updates = live.Snapshot, live.AsOf, feed
			o.Web = web.New(web.Options{})
		},
	})
	return fuzzTarget{h: srv.Handler(), token: fuzzTokenOf(tb, srv.URL, apitest.ClientID, apitest.ClientSecret)}
}

// newFuzzSandbox is the sandbox's server (newSandboxServer) with no rules.
func newFuzzSandbox(tb testing.TB) fuzzTarget {
	tb.Helper()
	env := newSandboxServer(tb, "")
	return fuzzTarget{h: env.srv.Handler(), token: fuzzTokenOf(tb, env.srv.URL, "ci-a", sbSecretA)}
}

func fuzzTokenOf(tb testing.TB, base, id, secret string) string {
	tb.Helper()
	resp, err := http.PostForm(base+"/public-api/access-token", url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}})
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	tok, _, _ := strings.Cut(strings.TrimPrefix(string(b), `{"access_token":"`), `"`)
	if resp.StatusCode != http.StatusOK || tok == "" {
		tb.Fatalf("token: got %d %s", resp.StatusCode, b)
	}
	return tok
}

// fuzzSeeds start the fuzzer at every route, with valid and odd input.
var fuzzSeeds = []struct{ method, target, headers, body string }{
	{"POST", "/public-api/access-token", "Content-Type: application/x-www-form-urlencoded", "grant_type=client_credentials&client_id=apitest&client_secret=apitest-secret"},
	{"POST", "/transparency/oauth/accessToken", "Content-Type: application/x-www-form-urlencoded\nAuthorization: Basic YXBpdGVzdDphcGl0ZXN0LXNlY3JldA==", "grant_type=client_credentials"},
	{"POST", "/public-api/access-token", "Content-Type: application/x-www-form-urlencoded", "grant_type=client_credentials&client_id=ci-a&client_secret=x;y&client_id=%zz"},
	{"POST", "/public-api/access-token", "Content-Type: multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"grant_type\"\r\n\r\nclient_credentials\r\n--x--\r\n"},
	{"GET", "/public-api/access-token?client_id=apitest", "", ""},
	{"GET", "/load/v2.0/total-load?dateFrom=31/03/2024&dateTo=31/03/2024&biddingZone=North", "Authorization: Bearer $TOKEN", ""},
	{"GET", "/load/v2.0/total-load?dateFrom=31/03/2024&dateTo=31/03/2024&biddingZone=North;x&format=csv", "Authorization: Bearer $TOKEN", ""},
	{"GET", "/load/v2.0/total-load?dateFrom=31/03/2024&dateTo=31/03/2024&asOf=2024-05-02T00:00:00Z&include=meta&timeZone=UTC", "Authorization: Bearer $TOKEN\nAccept: text/csv;q=0.5, application/json", ""},
	{"GET", "/load/v2.0/total-load?dateFrom=31/03/2024&dateTo=31/03/2024&changedSince=2024-05-01T10:00:00Z", "Authorization: Bearer $TOKEN\nIf-None-Match: \"x\"\nIf-Modified-Since: Wed, 01 May 2024 10:00:00 GMT", ""},
	{"GET", "/load/v2.0/peak-valley-load?dateFrom=31/03/2024&dateTo=31/03/2024&asOf=1969-01-01T00:00:00Z", "Authorization: Bearer $TOKEN", ""},
	{"GET", "/generation/v2.0/thermoelectric-production?year=2023&region=Puglia", "Authorization: Bearer $TOKEN", ""},
	{"GET", "/fees/v1.0/daily-prices?dateFrom=22/11/23&dateTo=22/11/23&dataType=Orario", "Authorization: Bearer $TOKEN", ""},
	{"HEAD", "/load/v2.0/total-load?dateFrom=%zz", "Authorization: Bearer $TOKEN", ""},
	{"DELETE", "/load/v2.0/total-load", "Authorization: Bearer $TOKEN", ""},
	{"GET", "/updates?since=2024-05-01T10:00:00Z&after=1", "", ""},
	{"GET", "/updates/stream?after=0", "Last-Event-ID: 1", ""},
	{"GET", "/catalog", "Accept: application/json", ""},
	{"GET", "/openapi.yaml", "If-None-Match: *", ""},
	{"GET", "/openapi.json", "", ""},
	{"GET", "/.well-known/jwks.json", "", ""},
	{"GET", "/healthz", "", ""},
	{"GET", "/readyz", "", ""},
	{"GET", "/", "", ""},
	{"GET", "/docs", "", ""},
	{"GET", "/assets/app.js", "Range: bytes=0-10", ""},
	{"GET", "/assets/%ff", "", ""},
	{"GET", "/web/config.json", "", ""},
	{"GET", "/sandbox/journal?client_id=ci-a", "Authorization: Bearer nope", ""},
	{"OPTIONS", "*", "", ""},
	{"GET", "http://api.example/catalog?x=%", "", ""},
}
