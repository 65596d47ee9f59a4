package client

import (
	"net/http"
	"testing"
	"time"
)

// TestParseNumbers checks the two number formats of the wire: each
// parser reads its valid texts as their values and refuses the rest.
func TestParseNumbers(t *testing.T) {
	t.Parallel()
	type valid struct {
		in   string
		want float64
	}
	for _, p := range []struct {
		name    string
		parse   func(string) (float64, error)
		valid   []valid
		invalid []string
	}{{
		name:  "parseItalian",
		parse: parseItalian,
		valid: []valid{
			{"20,976", 20.976},
			{"0,408", 0.408},
			{"27.389,400", 27389.4},
			{"-16.368,385", -16368.385},
			{"1.234.567,5", 1234567.5},
			{"5.234,568", 5234.568},
			{"20", 20},
			{"1.234", 1234}, // Italian grouping without decimals
			{"1234.5", 1234.5},
			{"0.408", 0.408},
			{"-0,000", 0},
		},
		invalid: []string{"", "-", ",5", "1,", "1,2,3", "1.23,4", "12.34.56", "1.234.5", "+1", " 1", "1e3", "NaN", "Inf", "0x1p3", "1 234,5", "1,2.3"},
	}, {
		name:  "parsePoint",
		parse: parsePoint,
		valid: []valid{
			{"34.218", 34.218},
			{"-488.3051289102222", -488.3051289102222},
			{"30", 30},
		},
		invalid: []string{"", "19,5", "1.2.3", ".5", "5.", "NaN", "Inf", "1e3", "0x10", "1_000"},
	}} {
		for _, tc := range p.valid {
			got, err := p.parse(tc.in)
			if err != nil || got != tc.want {
				t.Errorf("%s(%q): got %v, %v; want %v", p.name, tc.in, got, err, tc.want)
			}
		}
		for _, in := range p.invalid {
			if got, err := p.parse(in); err == nil {
				t.Errorf("%s(%q): got %v, want an error", p.name, in, got)
			}
		}
	}
}

func TestParseDate(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Date{
		"01/03/2024": {2024, 3, 1},
		"1/3/2024":   {2024, 3, 1},
		"29/02/2024": {2024, 2, 29},
		"31/12/1999": {1999, 12, 31},
	} {
		got, err := ParseDate(in)
		if err != nil || got != want {
			t.Errorf("ParseDate(%q): got %v, %v; want %v", in, got, err, want)
		}
		if got.String() != want.String() || len(got.String()) != 10 {
			t.Errorf("String: got %q, want dd/mm/yyyy", got.String())
		}
	}
	for _, in := range []string{"", "2024-03-01", "29/02/2023", "31/04/2024", "0/1/2024", "1/13/2024", "1/1/24", "001/1/2024", "1/1/2024 ", "a/1/2024", "1/1/0000"} {
		if got, err := ParseDate(in); err == nil {
			t.Errorf("ParseDate(%q): got %v, want an error", in, got)
		}
	}
}

func TestSplitRange(t *testing.T) {
	t.Parallel()
	d := func(y int, m time.Month, dd int) Date { return Date{y, m, dd} }
	cases := []struct {
		name     string
		from, to Date
		max      int
		want     []window
	}{
		{"one day", d(2024, 1, 1), d(2024, 1, 1), 60, []window{{d(2024, 1, 1), d(2024, 1, 1)}}},
		{"exactly the limit", d(2024, 1, 1), d(2024, 2, 29), 60, []window{{d(2024, 1, 1), d(2024, 2, 29)}}},
		{"one day over", d(2024, 1, 1), d(2024, 3, 1), 60, []window{{d(2024, 1, 1), d(2024, 2, 29)}, {d(2024, 3, 1), d(2024, 3, 1)}}},
		{"across a year end", d(2023, 12, 30), d(2024, 1, 2), 3, []window{{d(2023, 12, 30), d(2024, 1, 1)}, {d(2024, 1, 2), d(2024, 1, 2)}}},
		{"no limit", d(2020, 1, 1), d(2024, 12, 31), 0, []window{{d(2020, 1, 1), d(2024, 12, 31)}}},
	}
	for _, tc := range cases {
		got := splitRange(tc.from, tc.to, tc.max)
		if len(got) != len(tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: window %d: got %v, want %v", tc.name, i, got[i], tc.want[i])
			}
		}
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 1, 10, 9, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Duration{
		"":                              0,
		"7":                             7 * time.Second,
		" 120 ":                         2 * time.Minute,
		"-3":                            0,
		"soon":                          0,
		"Fri, 10 Jan 2025 09:00:30 GMT": 30 * time.Second,
		"Fri, 10 Jan 2025 08:59:00 GMT": 0, // in the past
	} {
		if got := retryAfter(in, now); got != want {
			t.Errorf("retryAfter(%q): got %v, want %v", in, got, want)
		}
	}
}

func TestBackoffBounds(t *testing.T) {
	t.Parallel()
	c := &Client{retry: RetryPolicy{MaxAttempts: 10, BaseDelay: time.Second, MaxDelay: 5 * time.Second}}
	for _, tc := range []struct {
		attempt    int
		retryAfter time.Duration
		lo, hi     time.Duration
	}{
		{1, 0, 500 * time.Millisecond, time.Second},
		{2, 0, time.Second, 2 * time.Second},
		{3, 0, 2 * time.Second, 4 * time.Second},
		{4, 0, 2500 * time.Millisecond, 5 * time.Second}, // capped at MaxDelay
		{9, 0, 2500 * time.Millisecond, 5 * time.Second},
		{1, 3 * time.Second, 3 * time.Second, 3 * time.Second}, // Retry-After is longer than the backoff
	} {
		for range 200 {
			got, ok := c.backoff(tc.attempt, tc.retryAfter)
			if !ok || got < tc.lo || got > tc.hi {
				t.Fatalf("backoff(%d, %v): got %v, %v; want within [%v, %v]", tc.attempt, tc.retryAfter, got, ok, tc.lo, tc.hi)
			}
		}
	}
	if _, ok := c.backoff(1, 6*time.Second); ok {
		t.Error("backoff with Retry-After over MaxDelay: got ok, want give up")
	}
}

func TestAPIErrorShapes(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 1, 10, 9, 0, 0, 0, time.UTC)
	cases := []struct {
		name          string
		status        int
		header        http.Header
		body          string
		code, message string
		kind          error
		retryable     bool
	}{
		{"envelope", 400, nil, `{"result":{"message":"Input Validation Error: bad","status":"ERROR"}}`, "ERROR", "Input Validation Error: bad", ErrInvalidInput, false},
		{"oauth", 401, nil, `{"error":"invalid_client","error_description":"Client authentication failed"}`, "invalid_client", "Client authentication failed", ErrUnauthorized, false},
		{"bearer challenge", 401, http.Header{"Www-Authenticate": {`Bearer realm="x", error="invalid_token"`}}, `{"result":{"message":"expired","status":"ERROR"}}`, "invalid_token", "expired", ErrUnauthorized, false},
		{"over qps", 403, nil, "<h1>Developer Over Qps</h1>", "", "<h1>Developer Over Qps</h1>", ErrRateLimited, true},
		{"plain forbidden", 403, nil, "Forbidden", "", "Forbidden", nil, false},
		{"too many", 429, http.Header{"Retry-After": {"3"}}, ``, "", "Too Many Requests", ErrRateLimited, true},
		{"not found", 404, nil, "404 page not found\n", "", "404 page not found", ErrNotFound, false},
		{"gateway", 502, nil, "", "", "Bad Gateway", nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.header
			if h == nil {
				h = http.Header{}
			}
			e := newAPIError(tc.status, h, []byte(tc.body), now)
			if e.Code != tc.code || e.Message != tc.message || e.retryable() != tc.retryable {
				t.Errorf("got code %q message %q retryable %v, want %q %q %v", e.Code, e.Message, e.retryable(), tc.code, tc.message, tc.retryable)
			}
			for _, k := range []ErrorKind{ErrUnauthorized, ErrNotFound, ErrInvalidInput, ErrRateLimited} {
				if want := error(k) == tc.kind; e.Is(k) != want {
					t.Errorf("Is(%v): got %v, want %v", k, e.Is(k), want)
				}
			}
		})
	}
}
