package web_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/energyapi/energyapi/internal/coding"
	"github.com/energyapi/energyapi/internal/web"
)

func serve(h http.Handler, method, path string, header ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func decode(tb testing.TB, encoding string, b []byte) []byte {
	tb.Helper()
	var r io.Reader
	switch encoding {
	case "":
		return b
	case "gzip":
		gr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			tb.Fatal(err)
		}
		r = gr
	case "zstd":
		zr, err := zstd.NewReader(bytes.NewReader(b))
		if err != nil {
			tb.Fatal(err)
		}
		defer zr.Close()
		r = zr
	}
	out, err := io.ReadAll(r)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// TestAssetsCompressed: the pages and assets come in the coding the
// browser asks for, compressed once each, decoding to the bytes served
// without Accept-Encoding, with the same headers besides; small files and
// callers that ask nothing get them as they are.
func TestAssetsCompressed(t *testing.T) {
	z := coding.New()
	h := web.New(web.Options{Compression: z})
	for _, path := range []string{"/", "/assets/app.js", "/assets/site.css", "/assets/vendor/swagger-ui/swagger-ui-bundle.js", "/assets/vendor/uplot/uPlot.min.css", "/assets/favicon.svg"} {
		plain := serve(h, http.MethodGet, path)
		if plain.Code != http.StatusOK || plain.Header().Get("Content-Encoding") != "" || plain.Header().Get("Vary") != "Accept-Encoding" {
			t.Fatalf("%s without Accept-Encoding: got %d, Content-Encoding %q, Vary %q; want 200 as it is, Vary Accept-Encoding",
				path, plain.Code, plain.Header().Get("Content-Encoding"), plain.Header().Get("Vary"))
		}
		for _, enc := range []string{"gzip", "zstd"} {
			before := z.Made()
			w := serve(h, http.MethodGet, path, "Accept-Encoding", enc)
			serve(h, http.MethodGet, path, "Accept-Encoding", enc)
			want := enc
			if plain.Body.Len() < coding.MinSize {
				want = ""
			}
			if got := w.Header().Get("Content-Encoding"); got != want {
				t.Errorf("%s %s: Content-Encoding %q, want %q (%d bytes)", path, enc, got, want, plain.Body.Len())
			}
			if !bytes.Equal(decode(t, w.Header().Get("Content-Encoding"), w.Body.Bytes()), plain.Body.Bytes()) {
				t.Errorf("%s %s: does not decode to the plain bytes", path, enc)
			}
			for _, k := range []string{"Content-Type", "Content-Security-Policy", "Cache-Control", "Vary"} {
				if w.Header().Get(k) != plain.Header().Get(k) {
					t.Errorf("%s %s: %s %q, want %q as without compression", path, enc, k, w.Header().Get(k), plain.Header().Get(k))
				}
			}
			if made := z.Made() - before; (want != "" && made != 1) || (want == "" && made != 0) {
				t.Errorf("%s %s: %d compressions for two requests", path, enc, made)
			}
		}
	}
	// Without a Compressor: no Vary, nothing compressed.
	off := web.New(web.Options{})
	if w := serve(off, http.MethodGet, "/assets/app.js", "Accept-Encoding", "gzip"); w.Header().Get("Content-Encoding") != "" || w.Header().Get("Vary") != "" {
		t.Errorf("compression off: Content-Encoding %q, Vary %q; want neither", w.Header().Get("Content-Encoding"), w.Header().Get("Vary"))
	}
}
