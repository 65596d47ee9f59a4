// Command loadtest drives the data endpoints of an energyapi server on this
// machine for a bounded time and prints requests per second and latency
// percentiles. It obtains a token with client credentials first and renews
// it when the server refuses it.
//
// It refuses any target that is not a loopback address, at the start and
// again on every connection, and runs for at most a minute: it is a tool for
// measuring your own server, not for loading someone else's.
package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// maxDuration bounds a run; maxWorkers bounds its concurrency.
const (
	maxDuration = time.Minute
	maxWorkers  = 256
)

// defaultPaths are data requests that the demo dataset (serve --demo) answers
// with records: a year of thermoelectric production, filtered and not, and
// peak-valley ranges of one month and of the 60-day maximum.
func defaultPaths() []string {
	return []string{
		"/generation/v2.0/thermoelectric-production?year=2023",
		"/generation/v2.0/thermoelectric-production?year=2023&region=Puglia",
		"/load/v2.0/peak-valley-load?dateFrom=01/01/2024&dateTo=31/01/2024",
		"/load/v2.0/peak-valley-load?dateFrom=01/06/2024&dateTo=30/07/2024",
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

// config is what run reads from its flags.
type config struct {
	base        *url.URL
	id, secret  string
	duration    time.Duration
	concurrency int
	paths       []string
	insecure    bool
}

type pathList []string

func (p *pathList) String() string     { return strings.Join(*p, " ") }
func (p *pathList) Set(s string) error { *p = append(*p, s); return nil }

func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rawURL := fs.String("url", "http://127.0.0.1:8080", "base URL of the server; loopback only")
	var c config
	fs.StringVar(&c.id, "client-id", "demo", "client_id for the token")
	fs.StringVar(&c.secret, "client-secret", "", "client_secret for the token (default: $LOADTEST_CLIENT_SECRET, else the demo client's)")
	fs.DurationVar(&c.duration, "duration", 10*time.Second, "how long to send requests; at most "+maxDuration.String())
	fs.IntVar(&c.concurrency, "concurrency", 8, "requests in flight at once; at most "+strconv.Itoa(maxWorkers))
	var paths pathList
	fs.Var(&paths, "path", "a data request path with its query, repeatable (default: thermoelectric and peak-valley requests the demo data answers)")
	fs.BoolVar(&c.insecure, "insecure", false, "with https, accept any certificate (a self-signed one on this machine)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() != 0 {
		return c, errors.New("loadtest takes no arguments")
	}
	if c.secret == "" {
		c.secret = getenv("LOADTEST_CLIENT_SECRET")
	}
	if c.secret == "" && c.id == "demo" {
		c.secret = "demo-secret"
	}
	switch {
	case c.secret == "":
		return c, errors.New("--client-secret (or LOADTEST_CLIENT_SECRET) is required for a client other than demo")
	case c.duration <= 0 || c.duration > maxDuration:
		return c, fmt.Errorf("--duration must be more than 0 and at most %s", maxDuration)
	case c.concurrency < 1 || c.concurrency > maxWorkers:
		return c, fmt.Errorf("--concurrency must be between 1 and %d", maxWorkers)
	}
	u, err := url.Parse(*rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c, fmt.Errorf("--url %q: want http:// or https:// and a host", *rawURL)
	}
	if !loopbackHost(u.Hostname()) {
		return c, fmt.Errorf("--url %q: refusing a target that is not a loopback address (127.0.0.0/8, ::1 or localhost)", *rawURL)
	}
	c.base = u
	c.paths = paths
	if len(c.paths) == 0 {
		c.paths = defaultPaths()
	}
	for _, p := range c.paths {
		if !strings.HasPrefix(p, "/") {
			return c, fmt.Errorf("--path %q: want a path beginning with /", p)
		}
	}
	return c, nil
}

// loopbackHost reports whether host is a loopback IP address or localhost.
// Other names are refused rather than resolved: what a name resolves to can
// change between this check and the connection.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// loopbackDialer connects only to loopback addresses, checked on the
// connection itself, so that neither name resolution nor a redirect can
// point the load elsewhere.
func loopbackDialer() func(ctx context.Context, network, addr string) (net.Conn, error) {
	d := &net.Dialer{Timeout: 5 * time.Second}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		if tcp, ok := conn.RemoteAddr().(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
			conn.Close()
			return nil, fmt.Errorf("refusing to load %s: not a loopback address", conn.RemoteAddr())
		}
		return conn, nil
	}
}

func newClient(c config) *http.Client {
	tr := &http.Transport{
		DialContext:         loopbackDialer(),
		MaxIdleConnsPerHost: c.concurrency,
		MaxConnsPerHost:     c.concurrency,
		ForceAttemptHTTP2:   true,
	}
	if c.insecure {
		tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} // opted into, and loopback only
	}
	return &http.Client{
		Transport:     tr,
		Timeout:       30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// tokenSource fetches a token and fetches a new one when told the current one
// was refused, once for all workers that saw the refusal.
type tokenSource struct {
	c      config
	client *http.Client
	mu     sync.Mutex
	token  string
	gen    int // incremented on every fetch
}

func (s *tokenSource) get() (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.token, s.gen
}

// renew fetches a token unless one newer than gen was fetched meanwhile.
func (s *tokenSource) renew(ctx context.Context, gen int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gen != gen {
		return nil
	}
	form := url.Values{"client_id": {s.c.id}, "client_secret": {s.c.secret}, "grant_type": {"client_credentials"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.c.base.JoinPath("/public-api/access-token").String(), strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := s.client.Do(req)
	if err != nil {
		return fmt.Errorf("token: %w", err)
	}
	defer resp.Body.Close()
	var tr struct {
		AccessToken string `json:"access_token"`
		Error       string `json:"error"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&tr); err != nil || resp.StatusCode != http.StatusOK || tr.AccessToken == "" {
		return fmt.Errorf("token: status %d %s", resp.StatusCode, tr.Error)
	}
	s.token = tr.AccessToken
	s.gen++
	return nil
}

// tally is one worker's results.
type tally struct {
	latencies []time.Duration // of answered requests
	status    map[int]int
	errors    int
	lastErr   error
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	c, err := parseConfig(args, getenv, stderr)
	if err != nil {
		return err
	}
	client := newClient(c)
	tokens := &tokenSource{c: c, client: client}
	if err := tokens.renew(ctx, 0); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, c.duration)
	defer cancel()
	tallies := make([]*tally, c.concurrency)
	var wg sync.WaitGroup
	start := time.Now()
	for w := range tallies {
		t := &tally{status: map[int]int{}}
		tallies[w] = t
		wg.Go(func() { work(ctx, c, client, tokens, w, t) })
	}
	wg.Wait()
	elapsed := time.Since(start)
	return report(stdout, c, tallies, elapsed)
}

// work sends requests, cycling through the paths, until ctx ends.
func work(ctx context.Context, c config, client *http.Client, tokens *tokenSource, w int, t *tally) {
	for i := w; ctx.Err() == nil; i++ {
		path := c.paths[i%len(c.paths)]
		tok, gen := tokens.get()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base.String()+path, nil)
		if err != nil {
			t.errors, t.lastErr = t.errors+1, err
			return
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Accept", "application/json")
		began := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			if ctx.Err() == nil { // requests cut off by the end of the run are not errors
				t.errors, t.lastErr = t.errors+1, err
			}
			continue
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil {
			if ctx.Err() == nil {
				t.errors, t.lastErr = t.errors+1, err
			}
			continue
		}
		t.latencies = append(t.latencies, time.Since(began))
		t.status[resp.StatusCode]++
		switch resp.StatusCode {
		case http.StatusUnauthorized:
			if err := tokens.renew(ctx, gen); err != nil && ctx.Err() == nil {
				t.errors, t.lastErr = t.errors+1, err
			}
		case http.StatusTooManyRequests, http.StatusServiceUnavailable:
			// Back off as the server asks, as a well-behaved client does.
			secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
			select {
			case <-ctx.Done():
			case <-time.After(time.Duration(max(secs, 1)) * time.Second):
			}
		}
	}
}

func report(w io.Writer, c config, tallies []*tally, elapsed time.Duration) error {
	var lat []time.Duration
	status := map[int]int{}
	errs := 0
	var lastErr error
	for _, t := range tallies {
		lat = append(lat, t.latencies...)
		for s, n := range t.status {
			status[s] += n
		}
		errs += t.errors
		if t.lastErr != nil {
			lastErr = t.lastErr
		}
	}
	slices.Sort(lat)
	codes := make([]int, 0, len(status))
	for s := range status {
		codes = append(codes, s)
	}
	slices.Sort(codes)
	var sb strings.Builder
	for _, s := range codes {
		fmt.Fprintf(&sb, " %d:%d", s, status[s])
	}
	fmt.Fprintf(w, "target     %s (%d paths, %d workers, %s)\n", c.base, len(c.paths), c.concurrency, c.duration)
	fmt.Fprintf(w, "requests   %d in %.2fs = %.0f/s\n", len(lat), elapsed.Seconds(), float64(len(lat))/elapsed.Seconds())
	fmt.Fprintf(w, "status    %s\n", sb.String())
	if len(lat) > 0 {
		fmt.Fprintf(w, "latency    p50 %s  p90 %s  p99 %s  p99.9 %s  max %s\n",
			pct(lat, 50), pct(lat, 90), pct(lat, 99), pct(lat, 99.9), lat[len(lat)-1].Round(time.Microsecond))
	}
	fmt.Fprintf(w, "errors     %d\n", errs)
	if lastErr != nil {
		fmt.Fprintf(w, "last error %v\n", lastErr)
	}
	if status[http.StatusOK] == 0 {
		return errors.New("no request succeeded")
	}
	return nil
}

// pct returns the p-th percentile of sorted (nearest rank).
func pct(sorted []time.Duration, p float64) time.Duration {
	i := int(float64(len(sorted))*p/100+0.999999) - 1
	i = min(max(i, 0), len(sorted)-1)
	return sorted[i].Round(time.Microsecond)
}
