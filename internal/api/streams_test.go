package api_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/dataset"
)

// manyImports is an EventSource of n imports, made when asked, whose
// dataset names are big: a stream that replays them writes megabytes.
type manyImports struct {
	n    int64
	name string
}

func (m manyImports) ImportEvents(_ context.Context, after int64, _ time.Time, limit int) ([]dataset.ImportEvent, error) {
	var out []dataset.ImportEvent
	for id := after + 1; id <= m.n && len(out) < limit; id++ {
		out = append(out, dataset.ImportEvent{ID: id, Dataset: m.name})
	}
	return out, nil
}

// streamServer serves a feed of src's imports, moved past all of them, so
// that a stream opened with after=0 replays them all.
func streamServer(t *testing.T, src dataset.EventSource, adjust func(*api.Options)) *apitest.Server {
	t.Helper()
	var feed *api.Feed
	srv := apitest.NewServer(t, apitest.Options{Adjust: func(o *api.Options) {
		feed = api.NewFeed(src, o.Data.Snapshot)
		o.Data.Updates = feed
		if adjust != nil {
			adjust(o)
		}
	}})
	for range 100 {
		if err := feed.Push(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	return srv
}

// transportFrom returns a transport whose connections come from the
// loopback address ip (127.0.0.1, 127.0.0.2, ...), the server's idea of the
// caller, with keep-alives off so that every request has its connection.
func transportFrom(ip string) *http.Transport {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}
}

// openStream opens GET path through rt and, for a 200, reads the stream's
// opening comment, so that the server counts it when openStream returns.
// The stream stays open until the test ends or the caller closes its body.
func openStream(t *testing.T, rt http.RoundTripper, url string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode == http.StatusOK {
		line, err := bufio.NewReader(resp.Body).ReadString('\n')
		if err != nil || line != ": energyapi updates\n" {
			t.Fatalf("stream opens with %q, %v; want the comment", line, err)
		}
	}
	return resp
}

// TestStreamsPerAddress: one address holds its maximum of streams at the
// default limit; its next stream is refused with 429, Retry-After and the
// result envelope, while another address is still served, and the first
// address is served again once it closes one.
func TestStreamsPerAddress(t *testing.T) {
	srv := streamServer(t, manyImports{}, nil)
	contract := apitest.NewValidator(t)
	url := srv.URL + "/updates/stream"
	crowd := transportFrom("127.0.0.2")
	var held []*http.Response
	for i := range api.DefaultStreamsPerAddr {
		r := openStream(t, crowd, url)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("stream %d of 127.0.0.2: got %d, want 200", i+1, r.StatusCode)
		}
		held = append(held, r)
	}
	// Bounded: a stream served instead of refused would never end.
	refused, err := (&http.Client{Transport: contract.Transport(t, crowd), Timeout: 10 * time.Second}).Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(refused.Body)
	refused.Body.Close()
	wantError(t, response{status: refused.StatusCode, header: refused.Header, body: body}, http.StatusTooManyRequests,
		"Too many update streams from this address", fmt.Sprint(api.DefaultStreamsPerAddr))
	if refused.Header.Get("Retry-After") == "" {
		t.Errorf("refused stream: no Retry-After")
	}
	if r := openStream(t, transportFrom("127.0.0.1"), url); r.StatusCode != http.StatusOK {
		t.Errorf("stream of 127.0.0.1 while 127.0.0.2 holds its maximum: got %d, want 200", r.StatusCode)
	}
	// Once 127.0.0.2 closes a stream, the server notices and serves its next.
	held[0].Body.Close()
	waitForStream(t, crowd, url, 10*time.Second)
}

// waitForStream opens streams through rt until one is served, for up to d.
func waitForStream(t *testing.T, rt http.RoundTripper, url string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		r := openStream(t, rt, url)
		if r.StatusCode == http.StatusOK {
			return
		}
		r.Body.Close()
		if time.Now().After(deadline) {
			t.Fatalf("after %s: stream still refused with %d", d, r.StatusCode)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSlowStreamReaderIsDisconnected opens a stream that replays megabytes
// and does not read it: once the server's writes have blocked for the
// stream write timeout it closes the stream, which frees the address's one
// stream, and the connection ends once the client drains what was sent.
func TestSlowStreamReaderIsDisconnected(t *testing.T) {
	const events = 4000
	src := manyImports{n: events, name: strings.Repeat("x", 16<<10)} // 64 MiB replayed: more than any socket buffers
	srv := streamServer(t, src, func(o *api.Options) {
		o.Limits.StreamsPerAddr = 1
		o.Limits.StreamWriteTimeout = 200 * time.Millisecond
	})
	addr := strings.TrimPrefix(srv.URL, "http://")
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}
	conn, err := d.DialContext(t.Context(), "tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := fmt.Fprintf(conn, "GET /updates/stream?after=0 HTTP/1.1\r\nHost: %s\r\n\r\n", addr); err != nil {
		t.Fatal(err)
	}
	// The slow reader holds 127.0.0.2's one stream until the server gives
	// up on it. Its answer is read to the status line first: on a busy
	// machine the stream asked for below could otherwise be served first
	// and the slow reader's refused.
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	br := bufio.NewReader(conn)
	if line, err := br.ReadString('\n'); err != nil || !strings.HasPrefix(line, "HTTP/1.1 200 ") {
		t.Fatalf("the slow reader's stream: %q, %v", line, err)
	}
	waitForStream(t, transportFrom("127.0.0.2"), srv.URL+"/updates/stream", 30*time.Second)
	n, err := io.Copy(io.Discard, br)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the slow reader's connection is still open after %d bytes", n)
	}
	if want := int64(events) * int64(len(src.name)); n >= want {
		t.Errorf("the slow reader got %d bytes, want fewer than the %d replayed", n, want)
	}
	t.Logf("the slow reader got %d bytes before the server closed its stream", n)
}
