package main

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// metadataAnswer is the RFC 8414 metadata as one request received it.
type metadataAnswer struct {
	header http.Header
	links  map[string]string // issuer and every *_endpoint, jwks_uri, service_documentation
	body   string
}

// fetchMetadata asks s for its metadata with the request headers hdr
// ("Host" among them sets the request's Host).
func fetchMetadata(t *testing.T, s *server, hdr map[string]string) metadataAnswer {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, s.base+"/.well-known/oauth-authorization-server", nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(b, &m); resp.StatusCode != http.StatusOK || err != nil {
		t.Fatalf("metadata: got %d %s (%v), want 200 JSON", resp.StatusCode, b, err)
	}
	links := map[string]string{}
	for k, v := range m {
		if s, ok := v.(string); ok {
			links[k] = s
		}
	}
	return metadataAnswer{header: resp.Header, links: links, body: string(b)}
}

// wantLinks checks that every link of the metadata starts with base and
// that issuer is base itself.
func wantLinks(t *testing.T, what string, m metadataAnswer, base string) {
	t.Helper()
	if m.links["issuer"] != base {
		t.Errorf("%s: issuer %q, want %q", what, m.links["issuer"], base)
	}
	for _, k := range []string{"token_endpoint", "jwks_uri", "revocation_endpoint", "service_documentation"} {
		if !strings.HasPrefix(m.links[k], base+"/") {
			t.Errorf("%s: %s %q, want it under %s/", what, k, m.links[k], base)
		}
	}
}

// tokenClaim returns the claims iss and aud of an access token.
func tokenClaim(t *testing.T, token string) (iss string, aud []string) {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("token %q: want three parts", token)
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Iss string   `json:"iss"`
		Aud []string `json:"aud"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c.Iss, c.Aud
}

// TestMetadataWithPublicURL: with --public-url, the metadata's issuer is
// that address (a trailing slash trimmed) and equals the tokens' iss (RFC
// 9068 section 4, RFC 8414 section 3.3), its links are absolute under it
// whatever Host or proxy header the request carries, and the answer, being
// the same for everyone, may be cached publicly; the tokens so issued are
// accepted.
func TestMetadataWithPublicURL(t *testing.T) {
	t.Parallel()
	env := sqliteEnv(t)
	ensureClient(t, env, rfcExampleClient, rfcExampleSecret)
	const public = "https://api.example.org"
	s := startServe(t, env, "--public-url", public+"/", "--trust-proxy-headers")
	plain := fetchMetadata(t, s, nil)
	wantLinks(t, "public URL", plain, public)
	other := fetchMetadata(t, s, map[string]string{"Host": "elsewhere.example:8443", "X-Forwarded-Proto": "http", "Forwarded": "proto=http"})
	if other.body != plain.body {
		t.Errorf("another Host and proxy headers: got %s, want the same answer %s", other.body, plain.body)
	}
	if cc := plain.header.Get("Cache-Control"); !strings.Contains(cc, "public") {
		t.Errorf("Cache-Control %q, want public: the answer depends on no request", cc)
	}
	tok, st := s.token(t, rfcExampleClient, rfcExampleSecret)
	if st != http.StatusOK {
		t.Fatalf("token: got %d, want 200", st)
	}
	if iss, aud := tokenClaim(t, tok); iss != plain.links["issuer"] || len(aud) != 1 || aud[0] != iss {
		t.Errorf("token iss %q aud %q, want both the metadata's issuer %q", iss, aud, plain.links["issuer"])
	}
	if st, body := s.get(t, peakValleyOneDay, tok); st != http.StatusOK {
		t.Errorf("data request with the token: got %d %s, want 200", st, body)
	}
}

// TestMetadataFromRequest: without --public-url the tokens keep iss
// "energyapi" and the metadata's links are built from the request: its Host,
// and the scheme a trusted proxy names only with --trust-proxy-headers. Such
// an answer differs by host, so no shared cache may keep it.
func TestMetadataFromRequest(t *testing.T) {
	t.Parallel()
	env := sqliteEnv(t)
	ensureClient(t, env, rfcExampleClient, rfcExampleSecret)
	untrusting, trusting := startServe(t, env), startServe(t, env, "--trust-proxy-headers")
	proxied := map[string]string{"Host": "api.example.org", "X-Forwarded-Proto": "https"}
	for _, c := range []struct {
		name string
		s    *server
		hdr  map[string]string
		base string
	}{
		{"as reached", untrusting, nil, untrusting.base},
		{"another Host", untrusting, map[string]string{"Host": "api.example.org"}, "http://api.example.org"},
		{"proxy header untrusted", untrusting, proxied, "http://api.example.org"},
		{"X-Forwarded-Proto trusted", trusting, proxied, "https://api.example.org"},
		{"Forwarded trusted", trusting, map[string]string{"Host": "api.example.org", "Forwarded": "for=192.0.2.1;proto=http, for=192.0.2.2;proto=https"}, "https://api.example.org"},
		{"a proto that is no scheme", trusting, map[string]string{"Host": "api.example.org", "X-Forwarded-Proto": "gopher"}, "http://api.example.org"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := fetchMetadata(t, c.s, c.hdr)
			wantLinks(t, c.name, m, c.base)
			if cc := m.header.Get("Cache-Control"); strings.Contains(cc, "public") || !strings.Contains(cc, "private") && !strings.Contains(cc, "no-store") {
				t.Errorf("Cache-Control %q, want private or no-store: the answer depends on the request", cc)
			}
			if v := strings.Join(m.header.Values("Vary"), ","); !strings.Contains(v, "Host") {
				t.Errorf("Vary %q, want Host among them", v)
			}
		})
	}
	if v := strings.Join(fetchMetadata(t, trusting, nil).header.Values("Vary"), ","); !strings.Contains(v, "X-Forwarded-Proto") {
		t.Errorf("trusting proxy headers: Vary %q, want X-Forwarded-Proto among them", v)
	}
	tok, st := untrusting.token(t, rfcExampleClient, rfcExampleSecret)
	if iss, aud := tokenClaim(t, tok); st != http.StatusOK || iss != "energyapi" || len(aud) != 1 || aud[0] != "energyapi" {
		t.Errorf("token: got %d, iss %q aud %q; want 200 and iss and aud energyapi, as before", st, iss, aud)
	}
}

// TestPublicURLChecked: --public-url must be an absolute http or https URL
// naming a host and nothing after it, as an RFC 8414 issuer placed at the
// root (its metadata is served at /.well-known/oauth-authorization-server).
func TestPublicURLChecked(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"api.example.org", "ftp://api.example.org", "https://", "https://api.example.org/?a=1",
		"https://api.example.org/#top", "https://api.example.org/energy", "https://user@api.example.org", "/relative"} {
		_, err := parseServeFlags([]string{"--public-url", bad}, envOf(nil), io.Discard)
		if !errors.Is(err, errUsage) || !strings.Contains(fmt.Sprint(err), "--public-url") {
			t.Errorf("--public-url %q: got %v, want a usage error naming --public-url", bad, err)
		}
	}
	for in, want := range map[string]string{"https://api.example.org/": "https://api.example.org", "http://127.0.0.1:8080": "http://127.0.0.1:8080"} {
		c, err := parseServeFlags([]string{"--public-url", in}, envOf(nil), io.Discard)
		if err != nil || c.publicURL != want {
			t.Errorf("--public-url %q: got %q, %v; want %q", in, c.publicURL, err, want)
		}
	}
}
