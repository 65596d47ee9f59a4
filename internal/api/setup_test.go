package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/energy"
)

// harness is the real server (apitest) on a settable clock, with a token,
// whose exchanges are all checked against the OpenAPI document.
type harness struct {
	srv    *apitest.Server
	clock  *apitest.Clock
	token  string
	logBuf *apitest.Buffer
	// contract checks every exchange against the OpenAPI document.
	contract *apitest.Validator
	// plain is the transport of client: one per harness, so that its
	// connections are kept between requests and closed with the test.
	plain *http.Transport
}

// client returns an HTTP client that reports to tb every request and answer
// that does not match the OpenAPI document.
func (h *harness) client(tb testing.TB) *http.Client {
	return &http.Client{Transport: h.contract.Transport(tb, h.plain)}
}

// plainTransport returns a transport that asks for no content coding
// unless the request does: Go's default asks for gzip and decodes it
// unseen, which had the server compress, and the test decode, every answer
// of the package (compression has tests of its own, over every dataset).
func plainTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DisableCompression = true
	return t
}

const (
	testClientID     = apitest.ClientID
	testClientSecret = apitest.ClientSecret
)

func newHarness(tb testing.TB, data apitest.Rows) *harness {
	tb.Helper()
	return newHarnessWith(tb, apitest.Options{Data: data})
}

// newHarnessWith starts the harness on o, whose clock and log it sets.
func newHarnessWith(tb testing.TB, o apitest.Options) *harness {
	tb.Helper()
	h := &harness{clock: apitest.NewClock(time.Now()), logBuf: &apitest.Buffer{}, contract: apitest.NewValidator(tb), plain: plainTransport()}
	tb.Cleanup(h.plain.CloseIdleConnections)
	o.Now, o.Log = h.clock.Now, h.logBuf
	h.srv = apitest.NewServer(tb, o)
	h.token = h.obtainToken(tb)
	return h
}

func (h *harness) obtainToken(tb testing.TB) string {
	tb.Helper()
	return h.srv.Token(tb, h.client(tb))
}

type response struct {
	status int
	header http.Header
	body   []byte
}

// get sends GET path with the harness's token (unless headers override
// Authorization) and the given headers.
func (h *harness) get(tb testing.TB, path string, headers ...string) response {
	tb.Helper()
	return h.send(tb, h.client(tb), http.MethodGet, path, headers...)
}

// send sends method path through hc with the harness's token and the given
// headers, name and value in turn: an empty value removes the header, the
// token's included.
func (h *harness) send(tb testing.TB, hc *http.Client, method, path string, headers ...string) response {
	tb.Helper()
	req, err := http.NewRequest(method, h.srv.URL+path, nil)
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+h.token)
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	a := apitest.Do(tb, hc, req)
	return response{status: a.Status, header: a.Header, body: a.Body}
}

type envelope struct {
	Result struct {
		Message string `json:"message"`
		Status  string `json:"status"`
	} `json:"result"`
}

// wantError asserts an error answer in the result envelope.
func wantError(tb testing.TB, r response, status int, msgParts ...string) {
	tb.Helper()
	if r.status != status {
		tb.Errorf("status: got %d, want %d (body %s)", r.status, status, r.body)
	}
	var e envelope
	if err := json.Unmarshal(r.body, &e); err != nil {
		tb.Fatalf("body %q is not the result envelope: %v", r.body, err)
	}
	if e.Result.Status != "ERROR" {
		tb.Errorf("result.status: got %q, want ERROR", e.Result.Status)
	}
	for _, p := range msgParts {
		if !strings.Contains(e.Result.Message, p) {
			tb.Errorf("result.message %q does not contain %q", e.Result.Message, p)
		}
	}
}

// wantBody asserts a 200 answer whose body is want to the byte; what names
// the request in the failure.
func wantBody(tb testing.TB, what string, r response, want string) {
	tb.Helper()
	if r.status != http.StatusOK || string(r.body) != want {
		tb.Errorf("%s: got %d\n%s\nwant 200\n%s", what, r.status, r.body, want)
	}
}

// wantEmpty asserts the spec's empty-body answer.
func wantEmpty(tb testing.TB, r response) {
	tb.Helper()
	if r.status != http.StatusOK || len(r.body) != 0 || r.header.Get("Content-Length") != "0" {
		tb.Errorf("got %d, Content-Length %q, body %q; want 200 with an empty body", r.status, r.header.Get("Content-Length"), r.body)
	}
}

func rome(tb testing.TB, s string) time.Time {
	tb.Helper()
	t, err := time.ParseInLocation("2006-01-02 15:04:05 -07:00", s, energy.Rome())
	if err != nil {
		tb.Fatal(err)
	}
	return t
}
