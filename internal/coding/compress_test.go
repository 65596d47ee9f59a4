package coding_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/energyapi/energyapi/internal/coding"
)

// Decode returns b decoded from coding c, failing tb if it does not decode.
func decode(tb testing.TB, c coding.Coding, b []byte) []byte {
	tb.Helper()
	var r io.Reader
	switch c {
	case coding.Identity:
		return b
	case coding.Gzip:
		gr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			tb.Fatalf("gzip: %v", err)
		}
		r = gr
	case coding.Zstd:
		zr, err := zstd.NewReader(bytes.NewReader(b))
		if err != nil {
			tb.Fatalf("zstd: %v", err)
		}
		defer zr.Close()
		r = zr
	}
	out, err := io.ReadAll(r)
	if err != nil {
		tb.Fatalf("%v: %v", c, err)
	}
	return out
}

func sampleBody() []byte {
	return []byte(strings.Repeat(`{"date":"2024-10-27 02:15:00","total_load_MW":"25012.5","bidding_zone":"Nord"},`, 500))
}

// TestCompressRoundTrip: each coding decodes to the body, and writing
// (as a large answer is streamed) gives the same bytes as the cached form.
func TestCompressRoundTrip(t *testing.T) {
	z := coding.New()
	body := sampleBody()
	for _, c := range []coding.Coding{coding.Identity, coding.Gzip, coding.Zstd} {
		t.Run(c.String(), func(t *testing.T) {
			cached := z.Append(nil, c, body)
			if got := decode(t, c, cached); !bytes.Equal(got, body) {
				t.Fatalf("decoded %d bytes, want the %d of the body", len(got), len(body))
			}
			var streamed bytes.Buffer
			if err := z.Write(&streamed, c, body); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(streamed.Bytes(), cached) {
				t.Errorf("streamed %d bytes differ from the cached %d", streamed.Len(), len(cached))
			}
			if c != coding.Identity && len(cached) >= len(body)/4 {
				t.Errorf("%d bytes compressed to %d: want under a quarter", len(body), len(cached))
			}
		})
	}
}

// TestWriterStreamsChunks: a body written to a Writer a chunk at a time,
// its size unknown, decodes to the body in each coding, and the Writer
// refuses writes once closed.
func TestWriterStreamsChunks(t *testing.T) {
	z := coding.New()
	body := sampleBody()
	for _, c := range []coding.Coding{coding.Identity, coding.Gzip, coding.Zstd} {
		t.Run(c.String(), func(t *testing.T) {
			var out bytes.Buffer
			w := z.NewWriter(&out, c, -1)
			for rest := body; len(rest) > 0; rest = rest[min(len(rest), 1000):] {
				if _, err := w.Write(rest[:min(len(rest), 1000)]); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if got := decode(t, c, out.Bytes()); !bytes.Equal(got, body) {
				t.Fatalf("decoded %d bytes, want the %d of the body", len(got), len(body))
			}
			if _, err := w.Write(body); err == nil {
				t.Error("a write after Close was taken")
			}
		})
	}
}

// TestFormsMadeOnce: a form is compressed the first time it is asked for
// and kept, also when many ask at once.
func TestFormsMadeOnce(t *testing.T) {
	z := coding.New()
	f := coding.NewForms(sampleBody())
	if _, ok := f.Get(coding.Gzip); ok {
		t.Fatal("a gzip form before any was asked for")
	}
	var wg sync.WaitGroup
	got := make([][]byte, 8)
	for i := range got {
		wg.Go(func() { got[i] = f.Make(z, coding.Gzip) })
	}
	wg.Wait()
	for i := range got {
		if !bytes.Equal(got[i], got[0]) {
			t.Fatalf("caller %d got other bytes than caller 0", i)
		}
	}
	before := z.Made()
	for range 3 {
		f.Make(z, coding.Gzip)
	}
	if n := z.Made() - before; n != 0 {
		t.Errorf("%d compressions for a form already made, want 0", n)
	}
	if want := cap(f.Identity()) + cap(got[0]); f.Size() != want {
		t.Errorf("Size %d, want %d", f.Size(), want)
	}
	if c := cap(got[0]); c > len(got[0])+len(got[0])/8 {
		t.Errorf("the gzip form holds %d bytes for %d", c, len(got[0]))
	}
}

// TestServeBody: headers and body of a document served in each coding.
func TestServeBody(t *testing.T) {
	z := coding.New()
	f := coding.NewForms(sampleBody())
	for _, tt := range []struct {
		accept string
		want   coding.Coding
	}{{"", coding.Identity}, {"gzip", coding.Gzip}, {"gzip;q=0.5, zstd", coding.Zstd}, {"identity;q=0, br", coding.Identity}} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		if tt.accept != "" {
			r.Header.Set("Accept-Encoding", tt.accept)
		}
		w := httptest.NewRecorder()
		z.ServeBody(w, r, http.StatusOK, f)
		if got := w.Header().Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("%q: Vary %q, want Accept-Encoding", tt.accept, got)
		}
		wantCE := tt.want.String()
		if tt.want == coding.Identity {
			wantCE = ""
		}
		if got := w.Header().Get("Content-Encoding"); got != wantCE {
			t.Errorf("%q: Content-Encoding %q, want %q", tt.accept, got, wantCE)
		}
		if got := decode(t, tt.want, w.Body.Bytes()); !bytes.Equal(got, f.Identity()) {
			t.Errorf("%q: body does not decode to the document", tt.accept)
		}
		if got, want := w.Header().Get("Content-Length"), strconv.Itoa(w.Body.Len()); got != want {
			t.Errorf("%q: Content-Length %s, want %s", tt.accept, got, want)
		}
	}
	// Compression off: no Vary, identity.
	var off *coding.Compressor
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set("Accept-Encoding", "gzip")
	w := httptest.NewRecorder()
	off.ServeBody(w, r, http.StatusOK, f)
	if w.Header().Get("Vary") != "" || w.Header().Get("Content-Encoding") != "" || !bytes.Equal(w.Body.Bytes(), f.Identity()) {
		t.Errorf("compression off: Vary %q, Content-Encoding %q: want neither, and the body as it is", w.Header().Get("Vary"), w.Header().Get("Content-Encoding"))
	}
}
