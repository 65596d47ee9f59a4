package client_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/energyapi/energyapi/client"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/demo"
)

// wire records, for each data request, what the client asked for and how
// the server answered: Accept-Encoding, If-None-Match, status,
// Content-Encoding and ETag.
type wire struct {
	base http.RoundTripper
	mu   sync.Mutex
	seen []exchange
}

type exchange struct {
	acceptEncoding, ifNoneMatch string
	status                      int
	contentEncoding, etag       string
}

func (w *wire) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := w.base.RoundTrip(r)
	if err != nil || r.URL.Path == tokenPath {
		return resp, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen = append(w.seen, exchange{r.Header.Get("Accept-Encoding"), r.Header.Get("If-None-Match"), resp.StatusCode, resp.Header.Get("Content-Encoding"), resp.Header.Get("ETag")})
	return resp, nil
}

// TestCompressedAnswersAndCache: the client asks for gzip and zstd, reads
// the compressed answer as the records the identity answer holds, and its
// cache keeps the answer's own tag (the gzip form's), which the server
// answers 304 on the next fetch.
func TestCompressedAnswersAndCache(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: apitest.Rows{"thermoelectric": demo.Thermoelectric()}})
	w := &wire{base: apitest.NewValidator(t).Transport(t, nil)}
	dir := filepath.Join(t.TempDir(), "answers")
	c := client.New(srv.URL, client.WithHTTPClient(&http.Client{Transport: w}),
		client.WithCredentials(apitest.ClientID, apitest.ClientSecret), client.WithCache(client.DirCache(dir)))
	year := url.Values{"year": {"2023"}}
	first, err := c.Get(t.Context(), thermoPath, year)
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.Get(t.Context(), thermoPath, year)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) < 100 || len(again) != len(first) {
		t.Fatalf("records: got %d, then %d; want the year's, twice", len(first), len(again))
	}
	if len(w.seen) != 2 {
		t.Fatalf("data requests: got %d, want 2", len(w.seen))
	}
	got, rev := w.seen[0], w.seen[1]
	if got.acceptEncoding != "gzip, zstd" || got.status != 200 || got.contentEncoding != "gzip" || !strings.HasSuffix(got.etag, `-gz"`) {
		t.Errorf("first fetch: %+v; want Accept-Encoding gzip, zstd answered 200 in gzip under a -gz tag", got)
	}
	if rev.ifNoneMatch != got.etag || rev.status != http.StatusNotModified || rev.etag != got.etag {
		t.Errorf("revalidation: %+v; want If-None-Match %s answered 304", rev, got.etag)
	}
	// The cache holds the answer as the identity bytes, whatever came on the wire.
	req, _ := http.NewRequest(http.MethodGet, srv.URL+thermoPath+"?year=2023", nil)
	req.Header.Set("Authorization", "Bearer "+srv.Token(t, nil))
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	var identity bytes.Buffer
	identity.ReadFrom(resp.Body)
	resp.Body.Close()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("cache: %d entries, want 1", len(entries))
	}
	stored, _ := os.ReadFile(filepath.Join(dir, entries[0].Name()))
	if _, body, _ := bytes.Cut(stored, []byte("\n")); !bytes.Equal(body, identity.Bytes()) {
		t.Errorf("cached body: %d bytes, not the %d identity bytes", len(body), identity.Len())
	}
}

// TestZstdAnswerDecoded: an answer in zstd (from a server that prefers it)
// is decoded too.
func TestZstdAnswerDecoded(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: apitest.Rows{"thermoelectric": demo.Thermoelectric()}})
	w := &wire{base: onlyZstd{apitest.NewValidator(t).Transport(t, nil)}}
	c := client.New(srv.URL, client.WithHTTPClient(&http.Client{Transport: w}), client.WithCredentials(apitest.ClientID, apitest.ClientSecret))
	recs, err := c.Get(t.Context(), thermoPath, url.Values{"year": {"2023"}})
	if err != nil || len(recs) < 100 {
		t.Fatalf("got %d records, %v", len(recs), err)
	}
	if len(w.seen) != 1 || w.seen[0].contentEncoding != "zstd" {
		t.Errorf("exchanges %+v, want one answered in zstd", w.seen)
	}
}

// onlyZstd narrows the client's Accept-Encoding to zstd.
type onlyZstd struct{ base http.RoundTripper }

func (o onlyZstd) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Header.Get("Accept-Encoding") != "" {
		r = r.Clone(r.Context())
		r.Header.Set("Accept-Encoding", "zstd")
	}
	return o.base.RoundTrip(r)
}

// TestOversizedAnswerRefused: an answer larger than the client's bound
// (32 MiB decoded) is refused with an error that says so, whether it comes
// as it is, in gzip, or in zstd with or without its size in the frame;
// one well within it, in each coding, is read.
func TestOversizedAnswerRefused(t *testing.T) {
	t.Parallel()
	const bound = 32 << 20
	answer := func(n int) []byte { // a valid answer of n bytes: padded with JSON's spaces
		doc := []byte(`{"result": {"status": "OK"}, "records": []}`)
		return append(doc, bytes.Repeat([]byte(" "), n-len(doc))...)
	}
	zstdOf := func(body []byte, size int64) []byte {
		var b bytes.Buffer
		e, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest))
		e.ResetContentSize(&b, size)
		e.Write(body)
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	gzipOf := func(body []byte) []byte {
		var b bytes.Buffer
		w, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
		w.Write(body)
		w.Close()
		return b.Bytes()
	}
	for _, n := range []int{1 << 10, bound + 1} {
		body := answer(n)
		for _, c := range []struct {
			name, coding string
			wire         []byte
		}{
			{"identity", "", body},
			{"gzip", "gzip", gzipOf(body)},
			{"zstd stating its size", "zstd", zstdOf(body, int64(n))},
			{"zstd without its size", "zstd", zstdOf(body, -1)},
		} {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == tokenPath {
					w.Header().Set("Content-Type", "application/json")
					io.WriteString(w, `{"access_token": "t", "token_type": "Bearer", "expires_in": 3600}`)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				if c.coding != "" {
					w.Header().Set("Content-Encoding", c.coding)
				}
				w.Write(c.wire)
			}))
			cl := client.New(srv.URL, client.WithCredentials("id", "secret"))
			_, err := cl.Get(t.Context(), thermoPath, url.Values{"year": {"2023"}})
			switch {
			case n <= bound && err != nil:
				t.Errorf("%s, %d bytes: %v, want it read", c.name, n, err)
			case n > bound && (err == nil || !strings.Contains(err.Error(), "larger than 33554432 bytes")):
				t.Errorf("%s, %d bytes: %v, want it refused as larger than 33554432 bytes", c.name, n, err)
			}
			srv.Close()
		}
	}
}
