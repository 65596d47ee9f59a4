package client_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/client"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/energy"
)

// These tests run the client against the real server (api.NewServer on a
// SQLite store) and check every exchange against the OpenAPI document. What
// the client did is asserted from what the server saw.

const (
	thermoPath     = "/generation/v2.0/thermoelectric-production"
	peakValleyPath = "/load/v2.0/peak-valley-load"
	tokenPath      = "/public-api/access-token"
	// tokenGranted is the exchange of a token request the server grants,
	// the first of every client's run.
	tokenGranted = "POST " + tokenPath + " 200"
)

// firstQuarter returns c's peak-valley records of 1 January to 31 March
// 2024, failing t on an error.
func firstQuarter(t *testing.T, c *client.Client) []client.PeakValleyRecord {
	t.Helper()
	got, err := c.PeakValley(context.Background(), client.Date{Year: 2024, Month: 1, Day: 1}, client.Date{Year: 2024, Month: 3, Day: 31})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// wantSeen asserts that srv saw n requests (what) of path.
func wantSeen(t *testing.T, srv *apitest.Server, path string, n int, what string) {
	t.Helper()
	if got := len(srv.SeenPath(path)); got != n {
		t.Errorf("got %d %s, want %d", got, what, n)
	}
}

// utc is an instant written in UTC, so that the repeated autumn hour is not
// ambiguous.
func utc(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, time.UTC)
}

// testData is a small hand-written dataset; the expectations below are
// written from it by hand.
func testData() apitest.Rows {
	day := func(y int, m time.Month, d int, peakAt time.Time, peak float64, valleyAt time.Time, valley float64) energy.DayExtremes {
		return energy.DayExtremes{Day: energy.Date{Year: y, Month: m, Day: d}, Peak: energy.Extreme{At: peakAt, GW: peak}, Valley: energy.Extreme{At: valleyAt, GW: valley}}
	}
	return apitest.Rows{
		"thermoelectric": apitest.SmallThermo(),
		"peak-valley": apitest.PeakValley(
			day(2024, 1, 1, utc(2024, 1, 1, 17, 0), 31, utc(2024, 1, 1, 3, 0), 18.2),
			day(2024, 1, 15, utc(2024, 1, 15, 17, 15), 40.5, utc(2024, 1, 15, 3, 15), 21.25),
			day(2024, 2, 29, utc(2024, 2, 29, 17, 30), 38.125, utc(2024, 2, 29, 2, 45), 22),
			day(2024, 3, 1, utc(2024, 3, 1, 17, 0), 37.75, utc(2024, 3, 1, 3, 0), 21.5),
			day(2024, 3, 31, utc(2024, 3, 31, 18, 0), 29.9876, utc(2024, 3, 31, 1, 0), 17.0004),
			day(2024, 10, 26, utc(2024, 10, 26, 16, 0), 33.456, utc(2024, 10, 26, 2, 15), 20.123),
			// The valley is in the repeated hour, its second occurrence:
			// 02:30 +01:00, which is 01:30 UTC.
			day(2024, 10, 27, utc(2024, 10, 27, 17, 45), 30.25, utc(2024, 10, 27, 1, 30), 19.5),
		),
	}
}

// tap records the bodies of the answers a client received.
type tap struct {
	base   http.RoundTripper
	mu     sync.Mutex
	bodies []string
}

func (t *tap) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, b, err := apitest.RoundTripRead(t.base, r)
	if err != nil {
		return resp, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.bodies = append(t.bodies, string(b))
	return resp, nil
}

// newClient returns a client of srv with the registered credentials, whose
// traffic is checked against the OpenAPI document, and which records its
// waits instead of waiting.
func newClient(t *testing.T, srv *apitest.Server, opts ...client.Option) (*client.Client, *apitest.Sleeps) {
	t.Helper()
	s := &apitest.Sleeps{}
	hc := &http.Client{Transport: apitest.NewValidator(t).Transport(t, nil)}
	base := []client.Option{client.WithHTTPClient(hc), client.WithCredentials(apitest.ClientID, apitest.ClientSecret), client.WithSleep(s.Sleep)}
	return client.New(srv.URL, append(base, opts...)...), s
}

// exchanges is what the server saw, compactly: "GET /path?query 200".
func exchanges(srv *apitest.Server) []string {
	var out []string
	for _, s := range srv.Seen() {
		line := s.Method + " " + s.Path
		if s.Query != "" {
			line += "?" + s.Query
		}
		out = append(out, line+" "+strconv.Itoa(s.Status))
	}
	return out
}

func wantExchanges(t *testing.T, srv *apitest.Server, want ...string) {
	t.Helper()
	got := exchanges(srv)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the server saw:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

const (
	tooMany     = `{"result":{"message":"Too many requests","status":"ERROR"}}`
	unavailable = `{"result":{"message":"Service unavailable","status":"ERROR"}}`
)

func TestThermoelectricTypedRecords(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: testData()})
	c, _ := newClient(t, srv)
	got, err := c.Thermoelectric(context.Background(), client.ThermoQuery{Year: 2023, Region: "Puglia", Provinces: []string{"Brindisi", "Taranto"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []client.ThermoRecord{
		{Year: 2023, CapacityType: "Lorda", Region: "Puglia", Province: "Brindisi", Category: "Non cogenerativa", Subcategory: "Condensazione", ProductionGWh: 5234.568},
		{Year: 2023, CapacityType: "Netta", Region: "Puglia", Province: "Brindisi", Category: "Non cogenerativa", Subcategory: "Condensazione", ProductionGWh: 5012.1},
		{Year: 2023, CapacityType: "Lorda", Region: "Puglia", Province: "Taranto", Category: "Cogenerativa", Subcategory: "Contropressione", ProductionGWh: 0.408},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d records %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("record %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	// The server received the filters as the API names them.
	wantExchanges(t, srv,
		tokenGranted,
		"GET "+thermoPath+"?province=Brindisi&province=Taranto&region=Puglia&year=2023 200")
}

func TestThermoelectricItalianNegativeWithThousands(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: testData()})
	c, _ := newClient(t, srv)
	got, err := c.Thermoelectric(context.Background(), client.ThermoQuery{Year: 2022})
	if err != nil {
		t.Fatal(err)
	}
	// The server writes "-16.368,385".
	if len(got) != 1 || got[0].ProductionGWh != -16368.385 || got[0].Year != 2022 {
		t.Errorf("got %+v, want one 2022 record of -16368.385 GWh", got)
	}
}

func TestThermoelectricEmptyBodyIsZeroRecords(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: testData()})
	tp := &tap{base: apitest.NewValidator(t).Transport(t, nil)}
	c := client.New(srv.URL, client.WithHTTPClient(&http.Client{Transport: tp}), client.WithCredentials(apitest.ClientID, apitest.ClientSecret))
	for _, q := range []client.ThermoQuery{
		{Year: 2023, Category: "Idroelettrica"},
		{Year: 2023, Region: "Atlantide"},
		{Year: 2031},
	} {
		got, err := c.Thermoelectric(context.Background(), q)
		if err != nil || len(got) != 0 {
			t.Errorf("%+v: got %v, %v; want no records and no error", q, got, err)
		}
	}
	// It was the empty body each time, not an empty array.
	if n := len(tp.bodies); n != 4 || tp.bodies[1] != "" || tp.bodies[2] != "" || tp.bodies[3] != "" {
		t.Errorf("answers: got %q, want a token and three empty bodies", tp.bodies)
	}
}

func TestPeakValleyInstantsInRome(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: testData()})
	c, _ := newClient(t, srv)
	got, err := c.PeakValley(context.Background(), client.Date{Year: 2024, Month: 10, Day: 26}, client.Date{Year: 2024, Month: 10, Day: 28})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		local  string // as Europe/Rome shows it
		utc    time.Time
		kind   client.Extreme
		loadGW float64
	}{
		{"2024-10-26 04:15:00 +02:00", utc(2024, 10, 26, 2, 15), client.Valley, 20.123},
		{"2024-10-26 18:00:00 +02:00", utc(2024, 10, 26, 16, 0), client.Peak, 33.456},
		{"2024-10-27 02:30:00 +01:00", utc(2024, 10, 27, 1, 30), client.Valley, 19.5},
		{"2024-10-27 18:45:00 +01:00", utc(2024, 10, 27, 17, 45), client.Peak, 30.25},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d records %+v, want %d", len(got), got, len(want))
	}
	for i, w := range want {
		g := got[i]
		if !g.At.Equal(w.utc) || g.At.Format("2006-01-02 15:04:05 -07:00") != w.local || g.At.Location().String() != "Europe/Rome" || g.Kind != w.kind || g.LoadGW != w.loadGW {
			t.Errorf("record %d: got %s in %s, %s %v; want %s (%s) in Europe/Rome, %s %v",
				i, g.At.Format("2006-01-02 15:04:05 -07:00"), g.At.Location(), g.Kind, g.LoadGW, w.local, w.utc, w.kind, w.loadGW)
		}
	}
}

func TestPeakValleySplitsLongRange(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: testData()}) // the server allows 60 days
	var progress []client.Progress
	c, _ := newClient(t, srv, client.WithProgress(func(p client.Progress) { progress = append(progress, p) }))
	got := firstQuarter(t, c)
	// 91 days: 60 (1 January to 29 February) and 31.
	wantExchanges(t, srv,
		tokenGranted,
		"GET "+peakValleyPath+"?dateFrom=01%2F01%2F2024&dateTo=29%2F02%2F2024 200",
		"GET "+peakValleyPath+"?dateFrom=01%2F03%2F2024&dateTo=31%2F03%2F2024 200")
	wantAt := []time.Time{
		utc(2024, 1, 1, 3, 0), utc(2024, 1, 1, 17, 0),
		utc(2024, 1, 15, 3, 15), utc(2024, 1, 15, 17, 15),
		utc(2024, 2, 29, 2, 45), utc(2024, 2, 29, 17, 30),
		utc(2024, 3, 1, 3, 0), utc(2024, 3, 1, 17, 0),
		utc(2024, 3, 31, 1, 0), utc(2024, 3, 31, 18, 0),
	}
	if len(got) != len(wantAt) {
		t.Fatalf("got %d records, want %d", len(got), len(wantAt))
	}
	for i, w := range wantAt {
		if !got[i].At.Equal(w) {
			t.Errorf("record %d: got %s, want %s", i, got[i].At, w)
		}
	}
	wantProgress := []client.Progress{
		{Request: 1, Requests: 2, From: client.Date{Year: 2024, Month: 1, Day: 1}, To: client.Date{Year: 2024, Month: 2, Day: 29}},
		{Request: 2, Requests: 2, From: client.Date{Year: 2024, Month: 3, Day: 1}, To: client.Date{Year: 2024, Month: 3, Day: 31}},
	}
	if len(progress) != 2 || progress[0] != wantProgress[0] || progress[1] != wantProgress[1] {
		t.Errorf("progress: got %+v, want %+v", progress, wantProgress)
	}
}

func TestPeakValleyWindowsOfChosenSize(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: testData()})
	c, _ := newClient(t, srv, client.WithMaxRangeDays(7))
	if _, err := c.PeakValley(context.Background(), client.Date{Year: 2024, Month: 1, Day: 1}, client.Date{Year: 2024, Month: 1, Day: 31}); err != nil {
		t.Fatal(err)
	}
	wantExchanges(t, srv,
		tokenGranted,
		"GET "+peakValleyPath+"?dateFrom=01%2F01%2F2024&dateTo=07%2F01%2F2024 200",
		"GET "+peakValleyPath+"?dateFrom=08%2F01%2F2024&dateTo=14%2F01%2F2024 200",
		"GET "+peakValleyPath+"?dateFrom=15%2F01%2F2024&dateTo=21%2F01%2F2024 200",
		"GET "+peakValleyPath+"?dateFrom=22%2F01%2F2024&dateTo=28%2F01%2F2024 200",
		"GET "+peakValleyPath+"?dateFrom=29%2F01%2F2024&dateTo=31%2F01%2F2024 200")
}

func TestRangeOverTheServerLimitIsInvalidInput(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: testData()})
	c, s := newClient(t, srv, client.WithMaxRangeDays(0)) // one request, whatever the range
	_, err := c.PeakValley(context.Background(), client.Date{Year: 2024, Month: 1, Day: 1}, client.Date{Year: 2024, Month: 3, Day: 31})
	var ae *client.APIError
	if !errors.As(err, &ae) || !errors.Is(err, client.ErrInvalidInput) || ae.Code != "ERROR" || !strings.HasPrefix(ae.Message, "Input Validation Error:") {
		t.Fatalf("got %v, want a 400 APIError with the envelope's message", err)
	}
	if len(s.Got()) != 0 || len(srv.SeenPath(peakValleyPath)) != 1 {
		t.Errorf("got %d waits and %d requests, want a 400 not retried", len(s.Got()), len(srv.SeenPath(peakValleyPath)))
	}
}

// TestTokenRefreshedBeforeExpiry: server and client share a clock that moves
// 200 s with every data request, so that the 300 s token runs out in the
// middle of the range. The client replaces it before the server refuses it.
func TestTokenRefreshedBeforeExpiry(t *testing.T) {
	t.Parallel()
	clk := apitest.NewClock(time.Date(2025, 1, 10, 9, 0, 0, 0, time.UTC))
	slow := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, r)
			if r.URL.Path == peakValleyPath {
				clk.Advance(200 * time.Second)
			}
		})
	}
	srv := apitest.NewServer(t, apitest.Options{Data: testData(), Now: clk.Now, Wrap: slow})
	c, _ := newClient(t, srv, client.WithClock(clk.Now), client.WithMaxRangeDays(1))
	if _, err := c.PeakValley(context.Background(), client.Date{Year: 2024, Month: 1, Day: 1}, client.Date{Year: 2024, Month: 1, Day: 4}); err != nil {
		t.Fatal(err)
	}
	// Requests at 0, 200, 400 and 600 s: the token fetched at 0 is replaced
	// after 270 s (30 s before it expires), at 400 s.
	wantExchanges(t, srv,
		tokenGranted,
		"GET "+peakValleyPath+"?dateFrom=01%2F01%2F2024&dateTo=01%2F01%2F2024 200",
		"GET "+peakValleyPath+"?dateFrom=02%2F01%2F2024&dateTo=02%2F01%2F2024 200",
		tokenGranted,
		"GET "+peakValleyPath+"?dateFrom=03%2F01%2F2024&dateTo=03%2F01%2F2024 200",
		"GET "+peakValleyPath+"?dateFrom=04%2F01%2F2024&dateTo=04%2F01%2F2024 200")
	data := srv.SeenPath(peakValleyPath)
	if data[0].Authorization != data[1].Authorization || data[1].Authorization == data[2].Authorization || data[2].Authorization != data[3].Authorization {
		t.Error("tokens: want the first token for requests 1 and 2 and a new one for 3 and 4")
	}
}

// TestTokenExpiryMidRangeRetriedWithFreshToken: the server's clock jumps past
// the token's lifetime after the first window while the client's does not, so
// the client learns of the expiry from a 401. It fetches a new token and
// repeats that window once.
func TestTokenExpiryMidRangeRetriedWithFreshToken(t *testing.T) {
	t.Parallel()
	clk := apitest.NewClock(time.Now())
	srv := apitest.NewServer(t, apitest.Options{Data: testData(), Now: clk.Now, Wrap: apitest.AdvanceAfter(clk, peakValleyPath, 301*time.Second)})
	c, s := newClient(t, srv, client.WithMaxRangeDays(31))
	got := firstQuarter(t, c)
	wantExchanges(t, srv,
		tokenGranted,
		"GET "+peakValleyPath+"?dateFrom=01%2F01%2F2024&dateTo=31%2F01%2F2024 200",
		"GET "+peakValleyPath+"?dateFrom=01%2F02%2F2024&dateTo=02%2F03%2F2024 401",
		tokenGranted,
		"GET "+peakValleyPath+"?dateFrom=01%2F02%2F2024&dateTo=02%2F03%2F2024 200",
		"GET "+peakValleyPath+"?dateFrom=03%2F03%2F2024&dateTo=31%2F03%2F2024 200")
	if len(got) != 10 {
		t.Errorf("got %d records, want 10", len(got))
	}
	if len(s.Got()) != 0 {
		t.Errorf("waits: got %v, want none before the retry with a new token", s.Got())
	}
}

func TestUnauthorizedWithFreshTokenIsAnError(t *testing.T) {
	t.Parallel()
	const refused = `{"result":{"message":"The access token is malformed, expired or revoked","status":"ERROR"}}`
	srv := apitest.NewServer(t, apitest.Options{Data: testData(),
		Wrap: apitest.Inject(-1, thermoPath, http.StatusUnauthorized, refused, "WWW-Authenticate", `Bearer realm="energyapi", error="invalid_token"`)})
	c, _ := newClient(t, srv)
	_, err := c.Thermoelectric(context.Background(), client.ThermoQuery{Year: 2023})
	var ae *client.APIError
	if !errors.Is(err, client.ErrUnauthorized) || !errors.As(err, &ae) || ae.Code != "invalid_token" || ae.StatusCode != 401 {
		t.Fatalf("got %v, want a 401 APIError with code invalid_token", err)
	}
	// One retry with a new token, and no more.
	wantExchanges(t, srv,
		tokenGranted,
		"GET "+thermoPath+"?year=2023 401",
		tokenGranted,
		"GET "+thermoPath+"?year=2023 401")
}

func TestBadCredentials(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: testData()})
	c, s := newClient(t, srv, client.WithCredentials(apitest.ClientID, "wrong"))
	_, err := c.Thermoelectric(context.Background(), client.ThermoQuery{Year: 2023})
	var ae *client.APIError
	if !errors.Is(err, client.ErrUnauthorized) || !errors.As(err, &ae) || ae.Code != "invalid_client" {
		t.Fatalf("got %v, want a 401 APIError with code invalid_client", err)
	}
	wantExchanges(t, srv, "POST "+tokenPath+" 401")
	if len(s.Got()) != 0 {
		t.Errorf("waits: got %v, want none", s.Got())
	}
}

func TestRateLimitedThenSuccess(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: testData(), Wrap: apitest.Inject(1, thermoPath, http.StatusTooManyRequests, tooMany, "Retry-After", "7")})
	c, s := newClient(t, srv)
	got, err := c.Thermoelectric(context.Background(), client.ThermoQuery{Year: 2022})
	if err != nil || len(got) != 1 {
		t.Fatalf("got %v, %v; want the one 2022 record", got, err)
	}
	wantExchanges(t, srv,
		tokenGranted,
		"GET "+thermoPath+"?year=2022 429",
		"GET "+thermoPath+"?year=2022 200")
	if w := s.Got(); len(w) != 1 || w[0] != 7*time.Second {
		t.Errorf("waits: got %v, want [7s] as Retry-After asked", w)
	}
}

// TestOverQpsBacksOff: the quota gateway of the public deployment answers 403
// "Developer Over Qps" without Retry-After. This server never does, so the
// exchange is not checked against the document.
func TestOverQpsBacksOff(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: testData(), Wrap: apitest.Inject(2, thermoPath, http.StatusForbidden, "<h1>Developer Over Qps</h1>", "Content-Type", "text/html")})
	s := &apitest.Sleeps{}
	c := client.New(srv.URL, client.WithCredentials(apitest.ClientID, apitest.ClientSecret), client.WithSleep(s.Sleep),
		client.WithRetry(client.RetryPolicy{MaxAttempts: 5, BaseDelay: time.Second, MaxDelay: 30 * time.Second}))
	if _, err := c.Thermoelectric(context.Background(), client.ThermoQuery{Year: 2023}); err != nil {
		t.Fatal(err)
	}
	wantExchanges(t, srv,
		tokenGranted,
		"GET "+thermoPath+"?year=2023 403",
		"GET "+thermoPath+"?year=2023 403",
		"GET "+thermoPath+"?year=2023 200")
	// Exponential with jitter: between half and all of 1 s, then of 2 s.
	w := s.Got()
	if len(w) != 2 || w[0] < 500*time.Millisecond || w[0] > time.Second || w[1] < time.Second || w[1] > 2*time.Second {
		t.Errorf("waits: got %v, want one in [0.5s, 1s] and one in [1s, 2s]", w)
	}
}

func TestOverQpsIsRateLimitedWhenRetriesRunOut(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: testData(), Wrap: apitest.Inject(-1, thermoPath, http.StatusForbidden, "Developer Over Qps", "Content-Type", "text/plain")})
	s := &apitest.Sleeps{}
	c := client.New(srv.URL, client.WithCredentials(apitest.ClientID, apitest.ClientSecret), client.WithSleep(s.Sleep),
		client.WithRetry(client.RetryPolicy{MaxAttempts: 2, BaseDelay: time.Second, MaxDelay: 30 * time.Second}))
	_, err := c.Thermoelectric(context.Background(), client.ThermoQuery{Year: 2023})
	if !errors.Is(err, client.ErrRateLimited) {
		t.Errorf("got %v, want ErrRateLimited", err)
	}
	wantSeen(t, srv, thermoPath, 2, "attempts")
}

func TestRetriesGiveUp(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: testData(), Wrap: apitest.Inject(-1, thermoPath, http.StatusServiceUnavailable, unavailable)})
	c, s := newClient(t, srv, client.WithRetry(client.RetryPolicy{MaxAttempts: 3, BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}))
	_, err := c.Thermoelectric(context.Background(), client.ThermoQuery{Year: 2023})
	var ae *client.APIError
	if !errors.As(err, &ae) || ae.StatusCode != 503 || ae.Message != "Service unavailable" {
		t.Fatalf("got %v, want the 503 APIError", err)
	}
	wantSeen(t, srv, thermoPath, 3, "attempts")
	if n := len(s.Got()); n != 2 {
		t.Errorf("got %d waits, want 2", n)
	}
}

func TestRetryAfterLongerThanMaxDelayIsReturned(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: testData(), Wrap: apitest.Inject(1, thermoPath, http.StatusTooManyRequests, tooMany, "Retry-After", "120")})
	c, s := newClient(t, srv, client.WithRetry(client.RetryPolicy{MaxAttempts: 5, BaseDelay: time.Second, MaxDelay: 30 * time.Second}))
	_, err := c.Thermoelectric(context.Background(), client.ThermoQuery{Year: 2023})
	var ae *client.APIError
	if !errors.Is(err, client.ErrRateLimited) || !errors.As(err, &ae) || ae.RetryAfter != 120*time.Second {
		t.Fatalf("got %v, want a 429 APIError with RetryAfter 2m0s", err)
	}
	if n := len(srv.SeenPath(thermoPath)); n != 1 || len(s.Got()) != 0 {
		t.Errorf("got %d requests and waits %v, want one request and no wait", n, s.Got())
	}
}

// cancelOnStatus cancels a context once an answer with the status has been
// read in full, so that the cancellation reaches the client after the
// exchange, while it waits to retry.
type cancelOnStatus struct {
	base   http.RoundTripper
	status int
	cancel context.CancelFunc
}

func (c cancelOnStatus) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, _, err := apitest.RoundTripRead(c.base, r)
	if err == nil && resp.StatusCode == c.status {
		c.cancel()
	}
	return resp, err
}

// TestCancelDuringBackoff uses the real sleep: the server asks for an hour,
// and the context is cancelled while the client waits.
func TestCancelDuringBackoff(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := apitest.NewServer(t, apitest.Options{Data: testData(), Wrap: apitest.Inject(1, thermoPath, http.StatusTooManyRequests, tooMany, "Retry-After", "3600")})
	hc := &http.Client{Transport: cancelOnStatus{base: apitest.NewValidator(t).Transport(t, nil), status: http.StatusTooManyRequests, cancel: cancel}}
	c := client.New(srv.URL, client.WithHTTPClient(hc), client.WithCredentials(apitest.ClientID, apitest.ClientSecret),
		client.WithRetry(client.RetryPolicy{MaxAttempts: 5, BaseDelay: time.Second, MaxDelay: 2 * time.Hour}))
	_, err := c.Thermoelectric(ctx, client.ThermoQuery{Year: 2023})
	var ue *url.Error
	if !errors.Is(err, context.Canceled) || errors.As(err, &ue) {
		t.Errorf("got %v, want context.Canceled from the wait, not from a request", err)
	}
	wantSeen(t, srv, thermoPath, 1, "requests")
}

func TestCancelBetweenWindows(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: testData()})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, _ := newClient(t, srv, client.WithMaxRangeDays(10), client.WithProgress(func(p client.Progress) {
		if p.Request == 2 {
			cancel()
		}
	}))
	_, err := c.PeakValley(ctx, client.Date{Year: 2024, Month: 1, Day: 1}, client.Date{Year: 2024, Month: 1, Day: 31})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
	wantSeen(t, srv, peakValleyPath, 1, "data requests")
}

func TestRangeBackwardsRefusedWithoutRequest(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: testData()})
	c, _ := newClient(t, srv)
	if _, err := c.PeakValley(context.Background(), client.Date{Year: 2024, Month: 2, Day: 1}, client.Date{Year: 2024, Month: 1, Day: 1}); err == nil {
		t.Error("got no error, want one for a range that ends before it starts")
	}
	if n := len(srv.Seen()); n != 0 {
		t.Errorf("the server saw %d requests, want none", n)
	}
}

func TestUserAgentOnEveryRequest(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: testData()})
	c, _ := newClient(t, srv, client.WithUserAgent("probe/1.0"))
	if _, err := c.Thermoelectric(context.Background(), client.ThermoQuery{Year: 2023}); err != nil {
		t.Fatal(err)
	}
	seen := srv.Seen()
	if len(seen) != 2 {
		t.Fatalf("got %d requests, want a token request and a data request", len(seen))
	}
	for _, s := range seen {
		if s.UserAgent != "probe/1.0" {
			t.Errorf("%s %s: User-Agent %q, want probe/1.0", s.Method, s.Path, s.UserAgent)
		}
	}
}
