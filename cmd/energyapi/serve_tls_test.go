package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/testwait"
)

// selfSigned writes a self-signed certificate for 127.0.0.1 and its key as
// PEM files and returns their paths and a pool that trusts the certificate.
func selfSigned(tb testing.TB) (certFile, keyFile string, pool *x509.CertPool) {
	tb.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "energyapi test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		tb.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		tb.Fatal(err)
	}
	pkcs8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		tb.Fatal(err)
	}
	dir := tb.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8}), 0o600); err != nil {
		tb.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

var httpsAddr = regexp.MustCompile(`listening on https://(\S+)`)

// serveExited marks, in stderr, a serve that stopped before its test ended.
const serveExited = "serve exited early:"

// serveInProcess runs serve with args and the environment env until the
// test ends and returns its stdout and stderr as they are written.
func serveInProcess(tb testing.TB, env map[string]string, args ...string) (stdout, stderr *apitest.Buffer) {
	tb.Helper()
	return serveFuncInProcess(tb, func(ctx context.Context, stdout, stderr io.Writer) error {
		return run(ctx, append([]string{"serve"}, args...), func(k string) string { return env[k] }, strings.NewReader(""), stdout, stderr)
	})
}

// serveFuncInProcess runs serve, a serve command, until the test ends and
// returns its stdout and stderr as they are written.
func serveFuncInProcess(tb testing.TB, serve func(ctx context.Context, stdout, stderr io.Writer) error) (stdout, stderr *apitest.Buffer) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr = &apitest.Buffer{}, &apitest.Buffer{}
	done := make(chan error, 1)
	go func() {
		err := serve(ctx, stdout, stderr)
		if err != nil && ctx.Err() == nil {
			fmt.Fprintf(stderr, "%s %v\n", serveExited, err)
		}
		done <- err
	}()
	tb.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				tb.Errorf("serve: %v\n%s", err, stderr.String())
			}
		case <-time.After(testwait.Scale(30 * time.Second)):
			tb.Error("serve did not stop within 30 s")
		}
	})
	return stdout, stderr
}

func TestServeTLS(t *testing.T) {
	t.Parallel()
	certFile, keyFile, pool := selfSigned(t)
	db := filepath.Join(t.TempDir(), "tls.db")
	id, secret := fltClient(t, db)
	stdout, _ := serveInProcess(t, nil, "--db", db, "--addr", "127.0.0.1:0", "--tls-cert", certFile, "--tls-key", keyFile)
	var addr string
	testwait.For(t, 60*time.Second, "serve reporting an https address", func() bool {
		m := httpsAddr.FindStringSubmatch(stdout.String())
		if m != nil {
			addr = m[1]
		}
		return m != nil
	})
	base := "https://" + addr
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}

	resp, err := client.PostForm(base+"/public-api/access-token", url.Values{"client_id": {id}, "client_secret": {secret}, "grant_type": {"client_credentials"}})
	if err != nil {
		t.Fatalf("token over TLS: %v", err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	err = json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || err != nil {
		t.Fatalf("token over TLS: got %d (%v), want 200", resp.StatusCode, err)
	}
	if resp.TLS == nil || resp.TLS.Version < tls.VersionTLS12 {
		t.Fatalf("token over TLS: connection state %+v, want TLS 1.2 or later", resp.TLS)
	}
	req, _ := http.NewRequest(http.MethodGet, base+"/load/v2.0/peak-valley-load?dateFrom=01/01/2024&dateTo=01/01/2024", nil)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("data over TLS: got %d, want 200", resp.StatusCode)
	}

	// TLS 1.1 and earlier are refused at the handshake.
	old := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MaxVersion: tls.VersionTLS11}}}
	if resp, err := old.Get(base + "/healthz"); err == nil {
		resp.Body.Close()
		t.Error("TLS 1.1 client: got an answer, want a failed handshake")
	}
	// Plain HTTP on the TLS port gets no API answer.
	resp, err = http.Get("http://" + addr + "/healthz")
	if err == nil {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || strings.Contains(string(body), `"status":"ok"`) {
			t.Errorf("plain HTTP to the TLS port: got %d %q, want 400 and no API answer", resp.StatusCode, body)
		}
	}
}

func TestServeTLSConfigErrors(t *testing.T) {
	t.Parallel()
	certFile, keyFile, _ := selfSigned(t)
	otherCert, _, _ := selfSigned(t)
	db := filepath.Join(t.TempDir(), "tls.db")
	fltRun(t, "init", "--db", db)
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"cert without key", []string{"--tls-cert", certFile}, "--tls-cert needs --tls-key"},
		{"key without cert", []string{"--tls-key", keyFile}, "--tls-key needs --tls-cert"},
		{"missing file", []string{"--tls-cert", certFile + ".none", "--tls-key", keyFile}, "tls:"},
		{"key of another certificate", []string{"--tls-cert", otherCert, "--tls-key", keyFile}, "tls:"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut strings.Builder
			args := append([]string{"serve", "--db", db, "--addr", "127.0.0.1:0"}, tt.args...)
			err := run(context.Background(), args, func(string) string { return "" }, strings.NewReader(""), &out, &errOut)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
			if strings.Contains(out.String(), "listening") {
				t.Errorf("serve started listening: %s", out.String())
			}
			if tt.want != "tls:" && !errors.Is(err, errUsage) {
				t.Errorf("got %v, want a usage error", err)
			}
		})
	}
}
