// Command loadtest drives an energyapi server on this machine for a bounded
// time and prints requests per second, status counts and latency
// percentiles. By default it drives the data endpoints: it obtains a token
// with client credentials first and renews it when the server refuses it.
// With -token it drives the token endpoint itself, and with -compare-url it
// drives other servers in turn with the first and prints the ratios of their
// rates (scripts/bench-token-ratio). With -connections N it opens N
// keep-alive connections, one per worker, to overload a server, and reports
// the latencies of served and of refused (503) requests apart
// (scripts/overload).
//
// It refuses any target that is not a loopback address, at the start and
// again on every connection, and runs for at most a minute (20 s with
// -connections): it is a tool for measuring your own server, not for loading
// someone else's.
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

// Limits of a run: its length, its workers, and in -connections mode its
// connections and length. A comparison (-compare-url) runs every target for
// -duration in each round, within maxDuration in all.
const (
	maxDuration        = time.Minute
	maxWorkers         = 256
	maxConnections     = 2000
	maxOverloadSeconds = 20
)

// tokenPath is where the token requests of -token mode go, on both targets.
const tokenPath = "/public-api/access-token"

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
	compare     []*url.URL // servers driven in turn with base, round after round
	id, secret  string
	duration    time.Duration
	rounds      int
	concurrency int           // workers sharing a pool of connections
	connections int           // if > 0: this many workers, each on its own keep-alive connection
	token       bool          // drive the token endpoint instead of the data endpoints
	backoff     bool          // wait as Retry-After asks after a 429 or 503
	warmup      time.Duration // requests begun this early in a run are not counted
	paths       []string
	headers     http.Header // sent with every data request
	insecure    bool
}

// workers is how many requests are in flight at once.
func (c config) workers() int {
	if c.connections > 0 {
		return c.connections
	}
	return c.concurrency
}

type pathList []string

func (p *pathList) String() string     { return strings.Join(*p, " ") }
func (p *pathList) Set(s string) error { *p = append(*p, s); return nil }

// parseConfig reads run's flags, and the client secret from getenv when no
// flag gives it, into a config within the limits that keep a load test short
// and local.
func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rawURL := fs.String("url", "http://127.0.0.1:8080", "base URL of the server; loopback only")
	var rawCompare pathList
	fs.Var(&rawCompare, "compare-url", "with -token: base URL of another server (loopback only) driven the same way, in turn with -url in every round; prints each rate and -url's ratio to it (repeatable)")
	var c config
	fs.StringVar(&c.id, "client-id", "demo", "client_id for the token")
	fs.StringVar(&c.secret, "client-secret", "", "client_secret for the token (default: $LOADTEST_CLIENT_SECRET, else the demo client's)")
	fs.DurationVar(&c.duration, "duration", 10*time.Second, "how long to send requests (per target and round with -compare-url); at most "+maxDuration.String()+" in all")
	fs.IntVar(&c.rounds, "rounds", 1, "with -compare-url: how many times to drive each target, in turn")
	fs.IntVar(&c.concurrency, "concurrency", 8, "requests in flight at once; at most "+strconv.Itoa(maxWorkers))
	fs.IntVar(&c.connections, "connections", 0, "overload mode: this many workers, each on its own keep-alive connection (at most "+strconv.Itoa(maxConnections)+", for at most "+strconv.Itoa(maxOverloadSeconds)+"s); reports served and 503 latencies apart")
	fs.BoolVar(&c.token, "token", false, "drive the token endpoint ("+tokenPath+") with the client's credentials instead of the data endpoints")
	fs.DurationVar(&c.warmup, "warmup", 0, "leave out of the figures the requests begun during this first part of -duration (the connections' opening, the server's first reaction)")
	fs.BoolVar(&c.backoff, "backoff", true, "after a 429 or 503, wait as Retry-After asks before the next request, as well-behaved clients do")
	var paths pathList
	fs.Var(&paths, "path", "a data request path with its query, repeatable (default: thermoelectric and peak-valley requests the demo data answers)")
	var headers pathList
	fs.Var(&headers, "header", `a header sent with every data request, "Name: value", repeatable (If-None-Match: "tag" drives the 304 path)`)
	fs.BoolVar(&c.insecure, "insecure", false, "with https, accept any certificate (a self-signed one on this machine)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() != 0 {
		return c, errors.New("loadtest takes no arguments")
	}
	var err error
	if c.headers, err = parseHeaders(headers); err != nil {
		return c, err
	}
	if c.secret == "" {
		c.secret = getenv("LOADTEST_CLIENT_SECRET")
	}
	if c.secret == "" && c.id == "demo" {
		c.secret = "demo-secret"
	}
	if err := c.checkBounds(len(rawCompare)); err != nil {
		return c, err
	}
	if c.base, err = loopbackURL("url", *rawURL); err != nil {
		return c, err
	}
	for _, raw := range rawCompare {
		u, err := loopbackURL("compare-url", raw)
		if err != nil {
			return c, err
		}
		c.compare = append(c.compare, u)
	}
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

// parseHeaders reads the --header values, "Name: value".
func parseHeaders(headers []string) (http.Header, error) {
	out := http.Header{}
	for _, h := range headers {
		name, value, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("--header %q: want \"Name: value\"", h)
		}
		out.Add(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	return out, nil
}

// checkBounds checks the settings against the limits that keep a load test
// short and local, with compares the number of --compare-url targets.
func (c config) checkBounds(compares int) error {
	switch {
	case c.secret == "":
		return errors.New("--client-secret (or LOADTEST_CLIENT_SECRET) is required for a client other than demo")
	case c.rounds < 1:
		return errors.New("--rounds must be at least 1")
	case c.duration <= 0 || time.Duration((1+compares)*c.rounds)*c.duration > maxDuration:
		return fmt.Errorf("--duration must be more than 0 and, times the rounds and targets, at most %s", maxDuration)
	case c.concurrency < 1 || c.concurrency > maxWorkers:
		return fmt.Errorf("--concurrency must be between 1 and %d", maxWorkers)
	case c.connections < 0 || c.connections > maxConnections:
		return fmt.Errorf("--connections must be between 1 and %d", maxConnections)
	case c.connections > 0 && c.duration > maxOverloadSeconds*time.Second:
		return fmt.Errorf("--connections runs for at most %ds", maxOverloadSeconds)
	case c.warmup < 0 || c.warmup >= c.duration:
		return errors.New("--warmup must be 0 or more and shorter than --duration")
	case compares > 0 && !c.token:
		return errors.New("--compare-url goes with -token")
	}
	return nil
}

// loopbackURL parses a target URL and refuses any host but a loopback address.
func loopbackURL(flagName, raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--%s %q: want http:// or https:// and a host", flagName, raw)
	}
	if !loopbackHost(u.Hostname()) {
		return nil, fmt.Errorf("--%s %q: refusing a target that is not a loopback address (127.0.0.0/8, ::1 or localhost)", flagName, raw)
	}
	return u, nil
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

// newClient returns a client that keeps up to conns connections to the target.
func newClient(c config, conns int) *http.Client {
	tr := &http.Transport{
		DialContext:         loopbackDialer(),
		MaxIdleConnsPerHost: conns,
		MaxConnsPerHost:     conns,
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
	base   *url.URL
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
	req, err := tokenRequest(ctx, s.c, s.base)
	if err != nil {
		return err
	}
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

// tokenRequest returns a client-credentials token request for the client.
func tokenRequest(ctx context.Context, c config, base *url.URL) (*http.Request, error) {
	form := url.Values{"client_id": {c.id}, "client_secret": {c.secret}, "grant_type": {"client_credentials"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base.JoinPath(tokenPath).String(), strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return req, nil
}

// tally is one worker's results.
type tally struct {
	latencies map[int][]time.Duration // of answered requests, by status
	errors    int
	lastErr   error
}

func newTally() *tally { return &tally{latencies: map[int][]time.Duration{}} }

// result is one target's results over one or more runs.
type result struct {
	base    *url.URL
	lat     map[int][]time.Duration
	errors  int
	lastErr error
	elapsed time.Duration
}

func (r *result) add(tallies []*tally, elapsed time.Duration) {
	if r.lat == nil {
		r.lat = map[int][]time.Duration{}
	}
	for _, t := range tallies {
		for s, l := range t.latencies {
			r.lat[s] = append(r.lat[s], l...)
		}
		r.errors += t.errors
		if t.lastErr != nil {
			r.lastErr = t.lastErr
		}
	}
	r.elapsed += elapsed
}

func (r *result) answered() int {
	n := 0
	for _, l := range r.lat {
		n += len(l)
	}
	return n
}

func (r *result) rate() float64 { return float64(r.answered()) / r.elapsed.Seconds() }

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	c, err := parseConfig(args, getenv, stderr)
	if err != nil {
		return err
	}
	if len(c.compare) == 0 {
		var r result
		if err := drive(ctx, c, c.base, &r); err != nil {
			return err
		}
		return report(stdout, c, &r)
	}
	// Every target in turn, round after round, so that whatever else the
	// machine does weighs on all of them alike.
	results := []*result{{base: c.base}}
	for _, u := range c.compare {
		results = append(results, &result{base: u})
	}
	for i := range c.rounds {
		fmt.Fprintf(stdout, "round %d   ", i+1)
		for _, r := range results {
			n, t := r.answered(), r.elapsed
			if err := drive(ctx, c, r.base, r); err != nil {
				return err
			}
			fmt.Fprintf(stdout, " %s %.0f/s", r.base.Host, float64(r.answered()-n)/(r.elapsed-t).Seconds())
		}
		fmt.Fprintln(stdout)
	}
	for _, r := range results {
		if err := report(stdout, c, r); err != nil {
			return err
		}
	}
	for _, r := range results[1:] {
		fmt.Fprintf(stdout, "ratio      %.2f  %s %.0f/s over %s %.0f/s\n", results[0].rate()/r.rate(), results[0].base.Host, results[0].rate(), r.base.Host, r.rate())
	}
	return nil
}

// drive loads base for c.duration and adds what it saw to r.
func drive(ctx context.Context, c config, base *url.URL, r *result) error {
	r.base = base
	workers := c.workers()
	shared := newClient(c, workers)
	var tokens *tokenSource
	if !c.token {
		tokens = &tokenSource{c: c, base: base, client: shared}
		if err := tokens.renew(ctx, 0); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, c.duration)
	defer cancel()
	tallies := make([]*tally, workers)
	var wg sync.WaitGroup
	start := time.Now()
	from := start.Add(c.warmup)
	for w := range tallies {
		t := newTally()
		tallies[w] = t
		client := shared
		if c.connections > 0 {
			client = newClient(c, 1) // a keep-alive connection of its own
		}
		wg.Go(func() {
			work(ctx, c, base, client, tokens, w, t, from)
			client.CloseIdleConnections()
		})
	}
	wg.Wait()
	shared.CloseIdleConnections()
	r.add(tallies, time.Since(from))
	return nil
}

// work sends requests, cycling through the paths (or token requests), until ctx ends.
// Requests begun before from are sent but not counted.
func work(ctx context.Context, c config, base *url.URL, client *http.Client, tokens *tokenSource, w int, t *tally, from time.Time) {
	for i := w; ctx.Err() == nil; i++ {
		var req *http.Request
		var err error
		var gen int
		if c.token {
			req, err = tokenRequest(ctx, c, base)
		} else {
			var tok string
			tok, gen = tokens.get()
			req, err = http.NewRequestWithContext(ctx, http.MethodGet, base.String()+c.paths[i%len(c.paths)], nil)
			if err == nil {
				req.Header.Set("Authorization", "Bearer "+tok)
				req.Header.Set("Accept", "application/json")
				for k, vs := range c.headers {
					req.Header[k] = vs
				}
			}
		}
		if err != nil {
			t.errors, t.lastErr = t.errors+1, err
			return
		}
		began := time.Now()
		counted := !began.Before(from)
		resp, err := client.Do(req)
		if err != nil {
			if ctx.Err() == nil && counted { // requests cut off by the end of the run are not errors
				t.errors, t.lastErr = t.errors+1, err
			}
			continue
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil {
			if ctx.Err() == nil && counted {
				t.errors, t.lastErr = t.errors+1, err
			}
			continue
		}
		if counted {
			t.latencies[resp.StatusCode] = append(t.latencies[resp.StatusCode], time.Since(began))
		}
		switch resp.StatusCode {
		case http.StatusUnauthorized:
			if tokens != nil {
				if err := tokens.renew(ctx, gen); err != nil && ctx.Err() == nil {
					t.errors, t.lastErr = t.errors+1, err
				}
			}
		case http.StatusTooManyRequests, http.StatusServiceUnavailable:
			if !c.backoff {
				continue
			}
			// Back off as the server asks, as a well-behaved client does.
			secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
			select {
			case <-ctx.Done():
			case <-time.After(time.Duration(max(secs, 1)) * time.Second):
			}
		}
	}
}

func report(w io.Writer, c config, r *result) error {
	var all, served []time.Duration
	codes := make([]int, 0, len(r.lat))
	for s, l := range r.lat {
		codes = append(codes, s)
		all = append(all, l...)
		if s >= 200 && s < 300 {
			served = append(served, l...)
		}
	}
	slices.Sort(codes)
	slices.Sort(all)
	slices.Sort(served)
	var sb strings.Builder
	for _, s := range codes {
		fmt.Fprintf(&sb, " %d:%d", s, len(r.lat[s]))
	}
	what := fmt.Sprintf("%d paths", len(c.paths))
	if c.token {
		what = "token requests"
	}
	how := fmt.Sprintf("%d workers", c.concurrency)
	if c.connections > 0 {
		how = fmt.Sprintf("%d connections", c.connections)
	}
	if c.warmup > 0 {
		how += fmt.Sprintf(", after %s of warm-up", c.warmup)
	}
	fmt.Fprintf(w, "target     %s (%s, %s, %s)\n", r.base, what, how, r.elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "requests   %d in %.2fs = %.0f/s\n", len(all), r.elapsed.Seconds(), float64(len(all))/r.elapsed.Seconds())
	fmt.Fprintf(w, "status    %s\n", sb.String())
	if len(all) > 0 {
		fmt.Fprintf(w, "latency    p50 %s  p90 %s  p99 %s  p99.9 %s  max %s\n",
			pct(all, 50), pct(all, 90), pct(all, 99), pct(all, 99.9), all[len(all)-1].Round(time.Microsecond))
	}
	if len(served) > 0 && len(served) < len(all) {
		fmt.Fprintf(w, "served     %d (2xx)  p50 %s  p99 %s  max %s\n", len(served), pct(served, 50), pct(served, 99), served[len(served)-1].Round(time.Microsecond))
	}
	if shed := slices.Sorted(slices.Values(r.lat[http.StatusServiceUnavailable])); len(shed) > 0 {
		fmt.Fprintf(w, "503        %d  p50 %s  p99 %s  max %s\n", len(shed), pct(shed, 50), pct(shed, 99), shed[len(shed)-1].Round(time.Microsecond))
	}
	fmt.Fprintf(w, "errors     %d\n", r.errors)
	if r.lastErr != nil {
		fmt.Fprintf(w, "last error %v\n", r.lastErr)
	}
	// A 304 is the success of a revalidation (-header If-None-Match).
	if len(r.lat[http.StatusOK]) == 0 && len(r.lat[http.StatusNotModified]) == 0 {
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
