package client

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Paths of the API, relative to the base URL.
const (
	tokenPath      = "/public-api/access-token"
	thermoPath     = "/generation/v2.0/thermoelectric-production"
	peakValleyPath = "/load/v2.0/peak-valley-load"
)

// maxBody bounds a response body; a year of thermoelectric records for all
// of Italy is well under a megabyte.
const maxBody = 32 << 20

// Client calls the API. It is safe for concurrent use.
type Client struct {
	base      string
	hc        *http.Client
	id        string
	secret    string
	userAgent string
	maxDays   int
	retry     RetryPolicy
	now       func() time.Time
	sleep     func(ctx context.Context, d time.Duration) error
	progress  func(Progress)
	rome      *time.Location // nil when the system has no zone database
	catalog   catalogue
	tokenURL  string      // "" for the base URL's tokenPath
	tokens    *tokenCache // nil without credentials
	cache     Cache       // nil: no conditional requests
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient makes the client send every request, token requests
// included, through hc. The default is an http.Client with a one-minute
// timeout.
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.hc = hc } }

// WithCredentials sets the client ID and secret that obtain access tokens.
// Without them, requests carry no token.
func WithCredentials(id, secret string) Option {
	return func(c *Client) { c.id, c.secret = id, secret }
}

// WithUserAgent sets the User-Agent of every request.
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// WithMaxRangeDays sets the longest date range, both ends counted, that one
// request asks for; longer ranges are split. The default, 60, is the limit of
// the public deployment and of this project's server. 0 or less sends every
// range in one request.
func WithMaxRangeDays(n int) Option { return func(c *Client) { c.maxDays = n } }

// WithTokenURL sets the token endpoint's URL, for a deployment that serves
// it elsewhere than at the base URL's /public-api/access-token.
func WithTokenURL(u string) Option { return func(c *Client) { c.tokenURL = u } }

// WithRetry sets the retry policy; see RetryPolicy.
func WithRetry(p RetryPolicy) Option { return func(c *Client) { c.retry = p } }

// WithClock sets the time source that token expiry and HTTP-date
// Retry-After values are judged by. The default is time.Now.
func WithClock(now func() time.Time) Option { return func(c *Client) { c.now = now } }

// WithSleep sets how the client waits between retries. sleep must return
// ctx.Err() early when ctx is done. Tests use it to record the waits instead
// of waiting.
func WithSleep(sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(c *Client) { c.sleep = sleep }
}

// WithProgress has f called before each request of a date range, with the
// window about to be fetched.
func WithProgress(f func(Progress)) Option { return func(c *Client) { c.progress = f } }

// Progress tells which window of a date range is being fetched.
type Progress struct {
	Request  int // 1-based
	Requests int // how many the range needs
	From, To Date
}

// RetryPolicy says how often and how patiently a request is retried after
// an answer that may change: 429, 502, 503, 504 and 403 "Developer Over Qps".
// A 401 from a data endpoint is not counted: it is retried once, with a new
// token, regardless of the policy.
type RetryPolicy struct {
	// MaxAttempts is the number of attempts per request, the first included;
	// 1 disables retries.
	MaxAttempts int
	// BaseDelay is the wait before the first retry; it doubles for each
	// further one. Each wait is drawn at random between half of it and all
	// of it, so that clients that failed together do not retry together.
	BaseDelay time.Duration
	// MaxDelay caps one wait. When Retry-After asks for longer, the client
	// gives up and returns the error, whose RetryAfter says how long to wait.
	MaxDelay time.Duration
}

// DefaultRetryPolicy returns the policy a new Client has: 5 attempts, 1 s
// doubling up to 30 s.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxAttempts: 5, BaseDelay: time.Second, MaxDelay: 30 * time.Second}
}

// New returns a client of the API at baseURL (for example
// "https://api.example.com"; paths are appended to it).
func New(baseURL string, opts ...Option) *Client {
	c := &Client{
		base:      strings.TrimRight(baseURL, "/"),
		hc:        &http.Client{Timeout: time.Minute},
		userAgent: "energyapi-go-client",
		maxDays:   60,
		retry:     DefaultRetryPolicy(),
		now:       time.Now,
		sleep:     sleepContext,
	}
	for _, o := range opts {
		o(c)
	}
	if c.retry.MaxAttempts < 1 {
		c.retry.MaxAttempts = 1
	}
	// A library leaves the choice of embedding the zone database to the
	// program; without it instants keep the server's offset under the zone's
	// name (see parsePeakValley).
	c.rome = loadRome()
	if c.id != "" || c.secret != "" {
		if c.tokenURL == "" {
			c.tokenURL = c.base + tokenPath
		}
		c.tokens = newTokenCache(c.tokenURL, c.id, c.secret, c.tokenHTTPClient(), c.now)
	}
	return c
}

// tokenHTTPClient is c.hc with the User-Agent set on token requests, which
// the oauth2 package sends without one of ours.
func (c *Client) tokenHTTPClient() *http.Client {
	hc := *c.hc
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	hc.Transport = userAgentTransport{base: base, ua: c.userAgent}
	return &hc
}

type userAgentTransport struct {
	base http.RoundTripper
	ua   string
}

func (t userAgentTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context()) // a RoundTripper must not modify its request
	r.Header.Set("User-Agent", t.ua)
	return t.base.RoundTrip(r)
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// get fetches path?query with retries and returns the body of a 200.
// Fetch returns the body of one GET of path (a path of the API, such as
// "/load/v2.0/total-load") with the query parameters as they are: no
// splitting of date ranges, no parsing. The empty-body answer is an empty
// body. It retries under the client's policy (WithRetry); errors the
// server answered are *APIError.
func (c *Client) Fetch(ctx context.Context, path string, query url.Values) ([]byte, error) {
	return c.get(ctx, path, query)
}

func (c *Client) get(ctx context.Context, path string, query url.Values) ([]byte, error) {
	u := c.base + path + "?" + query.Encode()
	return withRetries(ctx, c, func() ([]byte, error) { return c.getOnce(ctx, u) })
}

// withRetries calls once until it succeeds or fails for good: one more try
// with a new token after a 401, and tries under the retry policy after 429
// or 503. Any other error is returned as it is.
func withRetries[T any](ctx context.Context, c *Client, once func() (T, error)) (T, error) {
	var zero T
	freshToken := false
	for attempt := 1; ; attempt++ {
		v, err := once()
		if err == nil {
			return v, nil
		}
		var ae *APIError
		if !errors.As(err, &ae) {
			return zero, err
		}
		if ae.staleToken && !freshToken {
			// The token expired or was revoked early: one more try with a
			// new one, outside the retry budget.
			freshToken = true
			attempt--
			continue
		}
		if !ae.retryable() || attempt >= c.retry.MaxAttempts {
			return zero, err
		}
		wait, ok := c.backoff(attempt, ae.RetryAfter)
		if !ok {
			return zero, err
		}
		if err := c.sleep(ctx, wait); err != nil {
			return zero, err
		}
	}
}

// backoff returns the wait before retry number attempt (1-based): the
// exponential delay with jitter, or Retry-After when that is longer. ok is
// false when Retry-After asks for more than MaxDelay.
func (c *Client) backoff(attempt int, retryAfter time.Duration) (wait time.Duration, ok bool) {
	p := c.retry
	if p.MaxDelay > 0 && retryAfter > p.MaxDelay {
		return 0, false
	}
	d := p.BaseDelay
	for i := 1; i < attempt && (p.MaxDelay <= 0 || d < p.MaxDelay); i++ {
		d *= 2
	}
	if p.MaxDelay > 0 && d > p.MaxDelay {
		d = p.MaxDelay
	}
	if half := d / 2; half > 0 {
		d = half + rand.N(half+1) // "equal jitter": between d/2 and d
	}
	return max(d, retryAfter), true
}

// getOnce makes one request. Answers other than 200 are *APIError.
func (c *Client) getOnce(ctx context.Context, u string) ([]byte, error) {
	req, token, err := c.newGet(ctx, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	// Set here, the header turns off http.Transport's own gzip handling
	// (which asks for gzip only): readBody decodes either coding.
	req.Header.Set("Accept-Encoding", acceptEncoding)
	var cachedTag string
	var cached []byte
	if c.cache != nil {
		var ok bool
		if cachedTag, cached, ok = c.cache.Load(u); ok {
			req.Header.Set("If-None-Match", cachedTag)
		}
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := readBody(resp)
	if err != nil {
		return nil, fmt.Errorf("client: the answer to %s: %w", req.URL.Path, err)
	}
	switch {
	case resp.StatusCode == http.StatusNotModified && cachedTag != "":
		return cached, nil
	case resp.StatusCode == http.StatusOK:
		if tag := resp.Header.Get("ETag"); c.cache != nil && tag != "" {
			_ = c.cache.Store(u, tag, body) // a cache that cannot keep it costs a refetch, not the answer
		}
		return body, nil
	}
	return nil, c.refused(resp, body, token)
}

// newGet builds a GET of u with header, the User-Agent and, when the client
// has credentials, the bearer token, which it returns for refused.
func (c *Client) newGet(ctx context.Context, u string, header http.Header) (*http.Request, string, error) {
	var token string
	if c.tokens != nil {
		var err error
		if token, err = c.tokens.get(ctx); err != nil {
			return nil, "", err
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, "", fmt.Errorf("client: %w", err)
	}
	if header != nil {
		req.Header = header.Clone()
	}
	req.Header.Set("User-Agent", c.userAgent)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req, token, nil
}

// refused returns the *APIError of an answer other than the ones asked
// for. A 401 to a request that carried token lets the token go and marks
// the error, so that the next try fetches a new one.
func (c *Client) refused(resp *http.Response, body []byte, token string) *APIError {
	ae := newAPIError(resp.StatusCode, resp.Header, body, c.now())
	if resp.StatusCode == http.StatusUnauthorized && token != "" {
		c.tokens.invalidate(token)
		ae.staleToken = true
	}
	return ae
}
