package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
)

// revisionsServer serves the real catalogue from an in-memory store, whose
// imports are stamped with the time they are given, and reloads on demand.
type revisionsServer struct {
	*harness
	cat  *dataset.Catalog
	mem  *dataset.Memory
	live *dataset.Live
	feed *api.Feed
}

func newRevisionsServer(t *testing.T) *revisionsServer {
	t.Helper()
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	s := &revisionsServer{cat: cat, mem: dataset.NewMemory()}
	if s.live, err = dataset.NewLive(t.Context(), cat, s.mem); err != nil {
		t.Fatal(err)
	}
	s.feed = api.NewFeed(s.mem, s.live.Snapshot)
	s.harness = newHarnessWith(t, apitest.Options{Catalog: cat, Source: s.mem, Adjust: func(o *api.Options) {
		o.Data.Snapshot, o.Data.AsOf, o.Data.Updates = s.live.Snapshot, s.live.AsOf, s.feed
	}})
	return s
}

// load imports quarter-hourly total load for North at the given Rome
// moments ("2024-03-10 00:15", all in winter time, +01:00) and values,
// stamped at, and reloads.
func (s *revisionsServer) load(t *testing.T, at string, values map[string]float64) {
	t.Helper()
	d, _ := s.cat.Lookup("total-load")
	var rows []dataset.Row
	for moment, v := range values {
		lt, err := time.ParseInLocation("2006-01-02 15:04", moment, time.FixedZone("CET", 3600))
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, dataset.Row{Time: lt.Unix(), Text: []string{"North"}, Num: []float64{v, math.NaN()}})
	}
	stamp, err := time.Parse(time.RFC3339, at)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dataset.Import(t.Context(), s.mem, s.cat, d, rows, stamp); err != nil {
		t.Fatal(err)
	}
	if _, err := s.live.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// records returns the total_load array of a 200 answer.
func records(t *testing.T, r response) []map[string]string {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("got %d (%s), want 200", r.status, r.body)
	}
	var body struct {
		TotalLoad []map[string]string `json:"total_load"`
	}
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatalf("%s: %v", r.body, err)
	}
	return body.TotalLoad
}

// values returns each record's date and total_load_MW, joined.
func values(recs []map[string]string) string {
	var out []string
	for _, r := range recs {
		out = append(out, r["date"][11:16]+"="+r["total_load_MW"])
	}
	return strings.Join(out, " ")
}

const revisionsQuery = "/load/v2.0/total-load?dateFrom=10/03/2024&dateTo=10/03/2024&biddingZone=North"

func TestConditionalRequests(t *testing.T) {
	t.Parallel()
	s := newRevisionsServer(t)
	s.load(t, "2024-05-01T10:00:00Z", map[string]float64{"2024-03-10 00:00": 100, "2024-03-10 00:15": 101})
	first := s.get(t, revisionsQuery)
	tag := first.header.Get("ETag")
	if first.status != http.StatusOK || tag == "" || first.header.Get("Last-Modified") != "Wed, 01 May 2024 10:00:00 GMT" ||
		first.header.Get("Cache-Control") != "private, no-cache" {
		t.Fatalf("first answer: got %d, ETag %q, Last-Modified %q, Cache-Control %q; want 200, a tag, Wed, 01 May 2024 10:00:00 GMT, private, no-cache",
			first.status, tag, first.header.Get("Last-Modified"), first.header.Get("Cache-Control"))
	}
	for _, tc := range []struct {
		name    string
		headers []string
		want    int
	}{
		{"same tag", []string{"If-None-Match", tag}, http.StatusNotModified},
		{"another tag", []string{"If-None-Match", `"other"`}, http.StatusOK},
		{"modified since: at the import", []string{"If-Modified-Since", "Wed, 01 May 2024 10:00:00 GMT"}, http.StatusNotModified},
		{"modified since: later", []string{"If-Modified-Since", "Thu, 02 May 2024 10:00:00 GMT"}, http.StatusNotModified},
		{"modified since: a second before", []string{"If-Modified-Since", "Wed, 01 May 2024 09:59:59 GMT"}, http.StatusOK},
		{"modified since: not a date", []string{"If-Modified-Since", "yesterday"}, http.StatusOK},
		// If-None-Match takes precedence (RFC 9110 13.2.2).
		{"another tag, modified since later", []string{"If-None-Match", `"other"`, "If-Modified-Since", "Thu, 02 May 2024 10:00:00 GMT"}, http.StatusOK},
	} {
		r := s.get(t, revisionsQuery, tc.headers...)
		if r.status != tc.want {
			t.Errorf("%s: got %d, want %d", tc.name, r.status, tc.want)
		}
		if r.status == http.StatusNotModified && (len(r.body) != 0 || r.header.Get("ETag") != tag || r.header.Get("Last-Modified") != "Wed, 01 May 2024 10:00:00 GMT") {
			t.Errorf("%s: 304 with body %q, ETag %q, Last-Modified %q; want no body and the 200's validators", tc.name, r.body, r.header.Get("ETag"), r.header.Get("Last-Modified"))
		}
	}
	csv := s.get(t, revisionsQuery+"&format=csv")
	if csv.header.Get("Last-Modified") != "Wed, 01 May 2024 10:00:00 GMT" || csv.header.Get("ETag") == tag {
		t.Errorf("CSV: Last-Modified %q, ETag %q; want the JSON's time and another tag", csv.header.Get("Last-Modified"), csv.header.Get("ETag"))
	}
	if r := s.get(t, revisionsQuery+"&format=csv", "If-None-Match", csv.header.Get("ETag")); r.status != http.StatusNotModified || len(r.body) != 0 {
		t.Errorf("CSV with its tag: got %d %q, want 304 with no body", r.status, r.body)
	}

	// An import into another month changes neither validator.
	s.load(t, "2024-05-02T10:00:00Z", map[string]float64{"2024-04-10 00:00": 90})
	if r := s.get(t, revisionsQuery); r.header.Get("ETag") != tag || r.header.Get("Last-Modified") != "Wed, 01 May 2024 10:00:00 GMT" {
		t.Errorf("after an import elsewhere: ETag %q, Last-Modified %q; want %q and the first import's time", r.header.Get("ETag"), r.header.Get("Last-Modified"), tag)
	}
	// One into the covered month changes both.
	s.load(t, "2024-05-03T10:00:00Z", map[string]float64{"2024-03-31 12:00": 80})
	r := s.get(t, revisionsQuery, "If-None-Match", tag)
	if r.status != http.StatusOK || r.header.Get("ETag") == tag || r.header.Get("Last-Modified") != "Fri, 03 May 2024 10:00:00 GMT" {
		t.Errorf("after an import into the month: got %d, ETag %q, Last-Modified %q; want 200, a new tag, Fri, 03 May 2024 10:00:00 GMT", r.status, r.header.Get("ETag"), r.header.Get("Last-Modified"))
	}
}

func TestCorrectionAsOfChangedSinceMeta(t *testing.T) {
	t.Parallel()
	s := newRevisionsServer(t)
	s.load(t, "2024-05-01T10:00:00Z", map[string]float64{"2024-03-10 00:00": 100, "2024-03-10 00:15": 101, "2024-03-10 00:30": 102})
	// The correction: 00:15 changes, 00:45 is new, the rest as it was.
	s.load(t, "2024-05-03T10:00:00Z", map[string]float64{"2024-03-10 00:00": 100, "2024-03-10 00:15": 151, "2024-03-10 00:30": 102, "2024-03-10 00:45": 103})
	for _, tc := range []struct{ query, want string }{
		{"", "00:00=100 00:15=151 00:30=102 00:45=103"},
		{"&asOf=2024-05-03T09:59:59Z", "00:00=100 00:15=101 00:30=102"},
		{"&asOf=2024-05-03T12:00:00%2B02:00", "00:00=100 00:15=151 00:30=102 00:45=103"},
		{"&asOf=2024-05-01T09:00:00Z", ""},
		{"&changedSince=2024-05-01T10:00:00Z", "00:15=151 00:45=103"},
		{"&changedSince=2024-05-03T10:00:00Z", ""},
		{"&asOf=2024-05-02T00:00:00Z&changedSince=2024-04-01T00:00:00Z", "00:00=100 00:15=101 00:30=102"},
	} {
		if got := values(records(t, s.get(t, revisionsQuery+tc.query))); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.query, got, tc.want)
		}
	}
	recs := records(t, s.get(t, revisionsQuery+"&include=meta&changedSince=2024-04-01T00:00:00Z"))
	var meta []string
	for _, r := range recs {
		meta = append(meta, r["date"][11:16]+" "+r["published_at"]+" "+r["revised_at"])
	}
	want := []string{
		"00:00 2024-05-01T10:00:00Z 2024-05-01T10:00:00Z",
		"00:15 2024-05-01T10:00:00Z 2024-05-03T10:00:00Z",
		"00:30 2024-05-01T10:00:00Z 2024-05-01T10:00:00Z",
		"00:45 2024-05-03T10:00:00Z 2024-05-03T10:00:00Z",
	}
	if strings.Join(meta, "\n") != strings.Join(want, "\n") {
		t.Errorf("include=meta:\ngot  %q\nwant %q", meta, want)
	}
	plain := records(t, s.get(t, revisionsQuery))
	if _, ok := plain[0]["published_at"]; ok {
		t.Errorf("without include=meta: got %v, want no published_at", plain[0])
	}
	csv := s.get(t, revisionsQuery+"&include=meta&format=csv&changedSince=2024-05-02T00:00:00Z")
	if want := "date,date_tz,date_offset,total_load_MW,forecast_total_load_MW,bidding_zone,published_at,revised_at\r\n" +
		"2024-03-10 00:15:00,Europe/Rome,+01:00,151,,North,2024-05-01T10:00:00Z,2024-05-03T10:00:00Z\r\n" +
		"2024-03-10 00:45:00,Europe/Rome,+01:00,103,,North,2024-05-03T10:00:00Z,2024-05-03T10:00:00Z\r\n"; string(csv.body) != want {
		t.Errorf("CSV with meta:\ngot  %q\nwant %q", csv.body, want)
	}
	for _, tc := range []struct{ query, param string }{
		{"&asOf=yesterday", "asOf"},
		{"&changedSince=2024-05-03", "changedSince"},
		{"&asOf=2024-05-03T10:00:00Z&asOf=2024-05-04T10:00:00Z", "asOf"},
		{"&include=values", "include"},
	} {
		wantError(t, s.get(t, revisionsQuery+tc.query), http.StatusBadRequest, tc.param)
	}
}

func TestUpdatesFeedAndStream(t *testing.T) {
	t.Parallel()
	s := newRevisionsServer(t)
	s.load(t, "2024-05-01T10:00:00Z", map[string]float64{"2024-03-10 00:00": 100, "2024-04-10 00:00": 90})
	s.load(t, "2024-05-03T10:00:00Z", map[string]float64{"2024-03-10 00:00": 101})

	r := s.get(t, "/updates?since=2024-05-01T10:00:00Z")
	want := `{"updates":[{"id":2,"dataset":"total-load","period":{"from":"2024-03-01","to":"2024-03-31"},` +
		`"rows":{"read":1,"inserted":0,"updated":1,"unchanged":0},"started":"2024-05-03T10:00:00Z","time":"2024-05-03T10:00:00Z","data_version":2,"changed":true}],"next":null}`
	if r.status != http.StatusOK || string(r.body) != want {
		t.Errorf("/updates?since=:\ngot  %d %s\nwant 200 %s", r.status, r.body, want)
	}
	all := s.get(t, "/updates", "Authorization", "")
	if !strings.Contains(string(all.body), `"period":{"from":"2024-03-01","to":"2024-04-30"}`) || all.status != http.StatusOK {
		t.Errorf("/updates without a token: got %d %s, want 200 with the first import over March and April", all.status, all.body)
	}
	wantError(t, s.get(t, "/updates?since=May"), http.StatusBadRequest, "since")
	var cat struct {
		Datasets []struct {
			Name        string  `json:"name"`
			LastUpdate  *string `json:"last_update"`
			DataVersion int64   `json:"data_version"`
		} `json:"datasets"`
	}
	if err := json.Unmarshal(s.get(t, "/catalog").body, &cat); err != nil {
		t.Fatal(err)
	}
	for _, d := range cat.Datasets {
		switch d.Name {
		case "total-load":
			if d.LastUpdate == nil || *d.LastUpdate != "2024-05-03T10:00:00Z" || d.DataVersion != 2 {
				t.Errorf("catalog total-load: got %v, %d; want 2024-05-03T10:00:00Z, 2", d.LastUpdate, d.DataVersion)
			}
		case "thermoelectric":
			if d.LastUpdate != nil || d.DataVersion != 0 {
				t.Errorf("catalog thermoelectric: got %v, %d; want null, 0", d.LastUpdate, d.DataVersion)
			}
		}
	}

	// The stream: start the feed, open a stream, import.
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan struct{})
	if err := s.feed.Start(ctx); err != nil {
		t.Fatal(err)
	}
	go func() { defer close(done); s.feed.Run(ctx, 10*time.Millisecond, nil) }()
	defer func() { cancel(); <-done }()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.srv.URL+"/updates/stream", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: got %d %q, want 200 text/event-stream", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	lines := bufio.NewScanner(resp.Body)
	next := func() string {
		if !lines.Scan() {
			t.Fatalf("stream ended: %v", lines.Err())
		}
		return lines.Text()
	}
	if got := next(); got != ": energyapi updates" {
		t.Fatalf("stream opens with %q, want the comment", got)
	}
	next()
	s.load(t, "2024-05-04T10:00:00Z", map[string]float64{"2024-03-11 00:00": 99})
	s.feed.Poke()
	event := []string{next(), next(), next()}
	wantEvent := []string{"id: 3", "event: import", `data: {"id":3,"dataset":"total-load","period":{"from":"2024-03-01","to":"2024-03-31"},` +
		`"rows":{"read":1,"inserted":1,"updated":0,"unchanged":0},"started":"2024-05-04T10:00:00Z","time":"2024-05-04T10:00:00Z","data_version":3,"changed":true}`}
	if strings.Join(event, "\n") != strings.Join(wantEvent, "\n") {
		t.Errorf("event:\ngot  %q\nwant %q", event, wantEvent)
	}

	// A client that resumes from the first import gets those it missed.
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, s.srv.URL+"/updates/stream", nil)
	req.Header.Set("Last-Event-ID", "1")
	again, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Body.Close()
	lines = bufio.NewScanner(again.Body)
	var ids []string
	for len(ids) < 2 {
		if l := next(); strings.HasPrefix(l, "id: ") {
			ids = append(ids, l)
		}
	}
	if strings.Join(ids, ",") != "id: 2,id: 3" {
		t.Errorf("resumed after 1: got %v, want id: 2, id: 3", ids)
	}
}

// TestDerivedAsOfAndMeta corrects one quarter hour of a day's total load
// into a new peak, then another that is neither the peak nor the valley:
// peak-valley, derived from it, answers the old peak as of before the
// first correction, and only the peak counts as revised, by the first.
func TestDerivedAsOfAndMeta(t *testing.T) {
	t.Parallel()
	s := newRevisionsServer(t)
	d, _ := s.cat.Lookup("total-load")
	day := time.Date(2024, 3, 10, 0, 0, 0, 0, time.FixedZone("CET", 3600))
	load := func(stamp string, changed map[int]float64) {
		t.Helper()
		var rows []dataset.Row
		for i := range 96 {
			v := 30000 + float64(i)
			if c, ok := changed[i]; ok {
				v = c
			}
			rows = append(rows, dataset.Row{Time: day.Add(time.Duration(i) * 15 * time.Minute).Unix(), Text: []string{"Italy"}, Num: []float64{v, math.NaN()}})
		}
		at, _ := time.Parse(time.RFC3339, stamp)
		if _, err := dataset.Import(t.Context(), s.mem, s.cat, d, rows, at); err != nil {
			t.Fatal(err)
		}
		if _, err := s.live.Refresh(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	load("2024-05-01T10:00:00Z", nil)
	load("2024-05-03T10:00:00Z", map[int]float64{48: 50000})
	load("2024-05-04T10:00:00Z", map[int]float64{48: 50000, 24: 31000})
	peaks := func(query string) string {
		t.Helper()
		r := s.get(t, "/load/v2.0/peak-valley-load?dateFrom=10/03/2024&dateTo=10/03/2024"+query)
		return apitest.PeakValleyLines(t, query, r.status, r.body)
	}
	for _, tc := range []struct{ query, want string }{
		{"", "00:00 /30.000; 12:00 50.000/"},
		{"&asOf=2024-05-02T00:00:00Z", "00:00 /30.000; 23:45 30.095/"},
		{"&asOf=2024-04-30T00:00:00Z", ""},
		{"&include=meta", "00:00 /30.000 2024-05-01T10:00:00Z 2024-05-01T10:00:00Z; 12:00 50.000/ 2024-05-01T10:00:00Z 2024-05-03T10:00:00Z"},
		{"&include=meta&asOf=2024-05-02T00:00:00Z", "00:00 /30.000 2024-05-01T10:00:00Z 2024-05-01T10:00:00Z; 23:45 30.095/ 2024-05-01T10:00:00Z 2024-05-01T10:00:00Z"},
		{"&include=meta&asOf=2024-05-03T12:00:00Z", "00:00 /30.000 2024-05-01T10:00:00Z 2024-05-01T10:00:00Z; 12:00 50.000/ 2024-05-01T10:00:00Z 2024-05-03T10:00:00Z"},
		{"&changedSince=2024-05-01T10:00:00Z", "12:00 50.000/"},
		{"&changedSince=2024-05-01T10:00:00Z&include=meta", "12:00 50.000/ 2024-05-01T10:00:00Z 2024-05-03T10:00:00Z"},
		{"&changedSince=2024-05-03T10:00:00Z", ""},
	} {
		if got := peaks(tc.query); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.query, got, tc.want)
		}
	}
}
