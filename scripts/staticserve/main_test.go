package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServesStoredForms: identity unless the request accepts gzip, then the
// stored gzip bytes with Content-Encoding and Vary; each form's ETag gets
// its 304; the token path hands out the token given.
func TestServesStoredForms(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"index.json": `{"/a?x=1": "0.json"}`,
		"0.json":     `{"plain":true}`, "0.json.etag": `"t1"` + "\n",
		"0.json.gz": "not really gzip", "0.json.gz.etag": `"t1-gz"`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	answers, err := load(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler(answers, []byte(`{"access_token":"tok"}`)))
	defer srv.Close()
	for _, tc := range []struct {
		name, encoding, inm string
		status              int
		body, ce, tag       string
	}{
		{"identity", "identity", "", 200, `{"plain":true}`, "", `"t1"`},
		{"gzip", "gzip, deflate", "", 200, "not really gzip", "gzip", `"t1-gz"`},
		{"identity 304", "identity", `"t1"`, 304, "", "", `"t1"`},
		{"gzip 304", "gzip", `"t1-gz"`, 304, "", "gzip", `"t1-gz"`},
		{"gzip, identity's tag", "gzip", `"t1"`, 200, "not really gzip", "gzip", `"t1-gz"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/a?x=1", nil)
			req.Header.Set("Accept-Encoding", tc.encoding)
			if tc.inm != "" {
				req.Header.Set("If-None-Match", tc.inm)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status || string(b) != tc.body || resp.Header.Get("Content-Encoding") != tc.ce || resp.Header.Get("ETag") != tc.tag {
				t.Errorf("got %d %q, Content-Encoding %q, ETag %q; want %d %q, %q, %q",
					resp.StatusCode, b, resp.Header.Get("Content-Encoding"), resp.Header.Get("ETag"), tc.status, tc.body, tc.ce, tc.tag)
			}
			if tc.ce != "" && resp.Header.Get("Vary") != "Accept-Encoding" {
				t.Errorf("Vary %q, want Accept-Encoding", resp.Header.Get("Vary"))
			}
		})
	}
	resp, err := http.Post(srv.URL+"/public-api/access-token", "application/x-www-form-urlencoded", strings.NewReader("grant_type=client_credentials"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if b, _ := io.ReadAll(resp.Body); string(b) != `{"access_token":"tok"}` {
		t.Errorf("token answer %q", b)
	}
}
