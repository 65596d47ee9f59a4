package main

import (
	"bytes"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/client"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
)

// TestGetAsOfChangedSinceAndCache corrects a value between two imports and
// fetches with --as-of, --changed-since and --include meta, then twice with
// --cache-dir: the second fetch is a revalidation the server answers 304.
func TestGetAsOfChangedSinceAndCache(t *testing.T) {
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	d, _ := cat.Lookup("total-load")
	mem := dataset.NewMemory()
	at := time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC) // 01:00 in Rome
	load := func(stamp string, v float64) {
		s, _ := time.Parse(time.RFC3339, stamp)
		rows := []dataset.Row{
			{Time: at.Unix(), Text: []string{"Sicily"}, Num: []float64{1000, math.NaN()}},
			{Time: at.Add(15 * time.Minute).Unix(), Text: []string{"Sicily"}, Num: []float64{v, math.NaN()}},
		}
		if _, err := dataset.Import(t.Context(), mem, cat, d, rows, s); err != nil {
			t.Fatal(err)
		}
	}
	load("2024-05-01T10:00:00Z", 1100)
	load("2024-05-03T10:00:00Z", 1150)
	srv := apitest.NewServer(t, apitest.Options{Catalog: cat, Source: mem})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--as-of", "2024-05-02T00:00:00Z"}, "date,total_load_MW,forecast_total_load_MW,bidding_zone\n" +
			"2024-03-10T01:00:00+01:00,1000,,Sicily\n2024-03-10T01:15:00+01:00,1100,,Sicily\n"},
		{[]string{"--changed-since", "2024-05-01T10:00:00Z", "--include", "meta"}, "date,total_load_MW,forecast_total_load_MW,bidding_zone,published_at,revised_at\n" +
			"2024-03-10T01:15:00+01:00,1150,,Sicily,2024-05-01T10:00:00Z,2024-05-03T10:00:00Z\n"},
	} {
		args := append([]string{"total-load", "--from", "10/03/2024", "--to", "10/03/2024", "--format", "csv"}, tc.args...)
		out, _, _, err := runGetCmd(t, srv, credentials(), args...)
		if err != nil || out != tc.want {
			t.Errorf("%v: got %q (%v), want %q", tc.args, out, err, tc.want)
		}
	}
	if _, _, _, err := runGetCmd(t, srv, credentials(), "total-load", "--from", "10/03/2024", "--to", "10/03/2024", "--as-of", "May"); err == nil {
		t.Error("--as-of May: got no error, want a usage error")
	}

	cache := t.TempDir()
	srv = apitest.NewServer(t, apitest.Options{Catalog: cat, Source: mem})
	var outs []string
	for range 2 {
		out, _, _, err := runGetCmd(t, srv, credentials(), "total-load", "--from", "10/03/2024", "--to", "10/03/2024", "--format", "csv", "--cache-dir", cache)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, out)
	}
	const q = "GET /load/v2.0/total-load?dateFrom=10%2F03%2F2024&dateTo=10%2F03%2F2024"
	wantSeen(t, srv, tokenReq, q+" 200", tokenReq, q+" 304")
	if outs[0] != outs[1] || outs[0] != "date,total_load_MW,forecast_total_load_MW,bidding_zone\n2024-03-10T01:00:00+01:00,1000,,Sicily\n2024-03-10T01:15:00+01:00,1150,,Sicily\n" {
		t.Errorf("fetched then revalidated: got %q and %q, want the same records", outs[0], outs[1])
	}
}

// TestGetCompressedWithCache: get asks for compression, reads the gzip
// answer, and with --cache-dir revalidates it under its gzip tag: the
// second fetch is a 304, and both print the same records.
func TestGetCompressedWithCache(t *testing.T) {
	srv := apitest.NewServer(t, apitest.Options{Data: apitest.Rows{"thermoelectric": demo.Thermoelectric()}})
	var mu sync.Mutex
	var seen []string // Accept-Encoding, If-None-Match, status, Content-Encoding of each data request
	rec := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := apitest.NewValidator(t).Transport(t, nil).RoundTrip(r)
		if err == nil && r.URL.Path != "/public-api/access-token" {
			mu.Lock()
			seen = append(seen, strings.Join([]string{r.Header.Get("Accept-Encoding"), r.Header.Get("If-None-Match"), strconv.Itoa(resp.StatusCode), resp.Header.Get("Content-Encoding")}, " | "))
			mu.Unlock()
		}
		return resp, err
	})
	cache := t.TempDir()
	var outs []string
	for range 2 {
		var out, errOut bytes.Buffer
		args := []string{"thermoelectric", "--base-url", srv.URL, "--year", "2023", "--format", "csv", "--cache-dir", cache}
		if err := runGetWith(t.Context(), args, envOf(credentials()), &out, &errOut, client.WithHTTPClient(&http.Client{Transport: rec})); err != nil {
			t.Fatalf("%v: %s", err, errOut.String())
		}
		outs = append(outs, out.String())
	}
	if len(seen) != 2 || !strings.HasPrefix(seen[0], "gzip, zstd |  | 200 | gzip") || !strings.HasPrefix(seen[1], "gzip, zstd | \"") || !strings.HasSuffix(seen[1], `-gz" | 304 | `) {
		t.Errorf("data requests:\n  %s\nwant gzip, zstd asked, a 200 in gzip, then If-None-Match with its -gz tag answered 304", strings.Join(seen, "\n  "))
	}
	if outs[0] != outs[1] || strings.Count(outs[0], "\n") < 100 {
		t.Errorf("fetched then revalidated: %d and %d bytes, want the same year of records", len(outs[0]), len(outs[1]))
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
