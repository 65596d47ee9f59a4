package api_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/auth"
)

// TestMalformedQueryPairs answers a query string with a pair Go's parser
// cannot read with 400 naming the parameter, where the pair used to be
// dropped: biddingZone=North;x then widened the answer to every zone.
func TestMalformedQueryPairs(t *testing.T) {
	s := newRevisionsServer(t)
	s.load(t, "2024-05-01T10:00:00Z", map[string]float64{"2024-03-10 00:00": 100})
	const days = "/load/v2.0/total-load?dateFrom=10/03/2024&dateTo=10/03/2024"
	for _, tc := range []struct{ name, path, param, value string }{
		{"semicolon in a filter", days + "&biddingZone=North;x", "biddingZone", "North;x"},
		{"semicolon as a separator", days + "&biddingZone=North;biddingZone=South", "biddingZone", "North;biddingZone=South"},
		{"bad escape in a date", "/load/v2.0/total-load?dateFrom=%zz&dateTo=10/03/2024", "dateFrom", "%zz"},
		{"bad escape in a name", days + "&bidding%zZone=North", "bidding%zZone", "name"},
		{"bad escape in format", days + "&format=%c", "format", "%c"},
		{"updates since", "/updates?since=2024-05-01T10:00:00Z;x", "since", "2024-05-01T10:00:00Z;x"},
		{"updates after", "/updates?after=%1", "after", "%1"},
		{"stream after", "/updates/stream?after=1%", "after", "1%"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, getWithin(t, s.harness, tc.path, 10*time.Second), http.StatusBadRequest, "Input Validation Error:", "parameter "+tc.param, tc.value)
		})
	}
	// The v1.0 pages answer invalid input in their own style: 406.
	r := getWithin(t, s.harness, "/fees/v1.0/daily-prices?dateFrom=22/11/23&dateTo=22/11/23&dataType=Orario;x", 10*time.Second)
	want := `{"result":{"message":"Input Validation Error: the value entered is incorrect or does not conform to the expected format. Value entered: ` +
		`parameter dataType value \"Orario;x\" contains a semicolon: separate parameters with \u0026 and write a semicolon in a value as %3B","status":"ERROR"}}`
	if r.status != http.StatusNotAcceptable || string(r.body) != want {
		t.Errorf("v1.0 page: got %d %s, want 406 %s", r.status, r.body, want)
	}
}

// getWithin is h.get bounded by d: a stream the server opens instead of
// refusing fails the test rather than holding it.
func getWithin(t *testing.T, h *harness, path string, d time.Duration) response {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), d)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+h.token)
	resp, err := h.client(t).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s: got %d and a body cut by %v", path, resp.StatusCode, err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: body}
}

// TestSandboxKeepsTheTokenBodyLimit sends a valid token request padded past
// the token endpoint's body limit: it is refused with 413 whether or not the
// sandbox, which reads the form first to name the client, is on.
func TestSandboxKeepsTheTokenBodyLimit(t *testing.T) {
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {apitest.ClientID}, "client_secret": {apitest.ClientSecret}}
	form.Set("padding", strings.Repeat("x", auth.MaxTokenRequest+1000))
	small := url.Values{"grant_type": {"client_credentials"}, "client_id": {apitest.ClientID}, "client_secret": {apitest.ClientSecret}}
	for _, tc := range []struct {
		name string
		url  string
	}{
		{"without the sandbox", newHarness(t, thermoData()).srv.URL},
		{"with the sandbox", newSandboxServer(t, "").srv.URL},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, c := range []struct {
				form url.Values
				want int
			}{{form, http.StatusRequestEntityTooLarge}, {small, http.StatusOK}} {
				resp, err := http.PostForm(tc.url+"/public-api/access-token", c.form)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != c.want {
					t.Errorf("%d-byte form: got %d %s, want %d", len(c.form.Encode()), resp.StatusCode, body, c.want)
				}
			}
		})
	}
}
