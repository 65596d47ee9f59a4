package api_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// pagingYear is the year of total-load the paging tests serve.
var pagingYear = [2]energy.Date{{Year: 2023, Month: time.January, Day: 1}, {Year: 2023, Month: time.December, Day: 31}}

// importYear imports the demo's total load of North for the days from..to
// (Europe/Rome), stamped at, each value scaled by scale. One zone: a year
// of it is 35,040 quarter hours, four pages of 10,000; the eight zones'
// 280,320 records took minutes to page through under the race detector
// and tell nothing more about paging.
func (s *revisionsServer) importYear(t *testing.T, at string, scale float64, from, to energy.Date) {
	t.Helper()
	d, _ := s.cat.Lookup("total-load")
	var pts []energy.LoadPoint
	for _, p := range demo.TotalLoad(from, to) {
		if p.Zone == energy.North {
			p.TotalMW *= scale
			pts = append(pts, p)
		}
	}
	stamp, err := time.Parse(time.RFC3339, at)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dataset.Import(t.Context(), s.mem, s.cat, d, catalog.TotalLoadRows(pts), stamp); err != nil {
		t.Fatal(err)
	}
	if _, err := s.live.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// unpaged returns the records of the year asked in 60-day requests, one
// line each.
func (s *revisionsServer) unpaged(t *testing.T) []string {
	t.Helper()
	var out []string
	for from := pagingYear[0]; from.Compare(pagingYear[1]) <= 0; from = from.AddDays(60) {
		to := from.AddDays(59)
		if to.Compare(pagingYear[1]) > 0 {
			to = pagingYear[1]
		}
		r := s.fetch(t, "/load/v2.0/total-load?dateFrom="+from.DMY()+"&dateTo="+to.DMY(), len(out) == 0)
		out = append(out, recordLines(t, r)...)
	}
	return out
}

// fetch GETs path, checking the exchange against the OpenAPI document
// when checked: checking tens of thousands of records against the
// document's schemas took most of these tests' time, and the first answer
// of each kind has the shape of the others.
func (s *revisionsServer) fetch(t *testing.T, path string, checked bool) response {
	t.Helper()
	if checked {
		return s.get(t, path)
	}
	return s.send(t, http.DefaultClient, http.MethodGet, path)
}

// recordLines returns a total-load answer's records, one line each. The
// records are decoded into a struct of the five fields compared rather
// than maps: a year of them is decoded four times.
func recordLines(t *testing.T, r response) []string {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("total-load: got %d (%s), want 200", r.status, r.body)
	}
	var body struct {
		TotalLoad []struct {
			Date     string `json:"date"`
			Offset   string `json:"date_offset"`
			Zone     string `json:"bidding_zone"`
			Load     string `json:"total_load_MW"`
			Forecast string `json:"forecast_total_load_MW"`
		} `json:"total_load"`
	}
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatalf("total-load: %v", err)
	}
	out := make([]string, 0, len(body.TotalLoad))
	for _, rec := range body.TotalLoad {
		out = append(out, rec.Date+" "+rec.Offset+" "+rec.Zone+" "+rec.Load+" "+rec.Forecast)
	}
	return out
}

var nextLink = regexp.MustCompile(`^<([^>]+)>; rel="next"$`)

// paged follows the pages of the year with limit=10000 from the first,
// calling between after each page but the last with the page's number.
func (s *revisionsServer) paged(t *testing.T, between func(page int)) []string {
	t.Helper()
	path := "/load/v2.0/total-load?dateFrom=" + pagingYear[0].DMY() + "&dateTo=" + pagingYear[1].DMY() + "&limit=10000"
	var out []string
	for page := 1; ; page++ {
		r := s.fetch(t, path, page == 1)
		lines := recordLines(t, r)
		if len(lines) == 0 || len(lines) > 10000 {
			t.Fatalf("page %d: %d records, want 1 to 10000", page, len(lines))
		}
		out = append(out, lines...)
		link := r.header.Get("Link")
		if link == "" {
			return out
		}
		if len(lines) != 10000 {
			t.Fatalf("page %d: %d records and a next page, want 10000", page, len(lines))
		}
		m := nextLink.FindStringSubmatch(link)
		if m == nil || !strings.HasPrefix(m[1], "/load/v2.0/total-load?") {
			t.Fatalf("page %d: Link %q, want <path?query>; rel=\"next\"", page, link)
		}
		path = m[1]
		between(page)
	}
}

// TestPagingYearOfTotalLoad pages through a year of total-load, beyond the
// 60-day limit of one request, and gets exactly the records of the unpaged
// 60-day requests: also when imports land between pages, changing values
// behind and ahead of the position and adding records after the year.
func TestPagingYearOfTotalLoad(t *testing.T) {
	t.Parallel()
	s := newRevisionsServer(t)
	s.importYear(t, "2024-01-10T00:00:00Z", 1, pagingYear[0], pagingYear[1])
	want := s.unpaged(t)
	if len(want) != 35040 {
		t.Fatalf("a year of total-load of North: %d records, want 35,040 quarter hours", len(want))
	}
	same := func(what string, got []string) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d records, want %d", what, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: record %d: got %q, want %q", what, i, got[i], want[i])
			}
		}
	}
	same("paged", s.paged(t, func(int) {}))

	stamp := time.Date(2024, time.February, 1, 0, 0, 0, 0, time.UTC)
	got := s.paged(t, func(page int) {
		if page > 3 {
			return
		}
		// Each import changes the month the pages are in, one behind and
		// one ahead, and adds days after the year.
		stamp = stamp.Add(time.Hour)
		months := []energy.Date{{Year: 2023, Month: time.January, Day: 1}, {Year: 2023, Month: time.February, Day: 1}, {Year: 2023, Month: time.June, Day: 1}}
		for _, m := range months {
			s.importYear(t, stamp.Format(time.RFC3339), 1.5, m, m.AddDays(27))
		}
		s.importYear(t, stamp.Format(time.RFC3339), 1, energy.Date{Year: 2024, Month: time.January, Day: 1}, energy.Date{Year: 2024, Month: time.January, Day: 3})
	})
	same("paged with imports between pages", got)
	if now := s.unpaged(t); len(now) != len(want) || now[0] == want[0] {
		t.Errorf("after the imports: the unpaged answer did not change (%d records)", len(now))
	}
	// A new paging reads the data as they are now.
	if first := s.get(t, "/load/v2.0/total-load?dateFrom=01/01/2023&dateTo=31/12/2023&limit=1"); first.status != http.StatusOK || recordLines(t, first)[0] == want[0] {
		t.Errorf("a new paging: got %d %s, want the changed first record", first.status, first.body)
	}
}

// TestPagingCursor checks the paging parameters' errors and a cursor's
// binding to its query.
func TestPagingCursor(t *testing.T) {
	t.Parallel()
	s := newRevisionsServer(t)
	s.importYear(t, "2024-01-10T00:00:00Z", 1, energy.Date{Year: 2023, Month: time.March, Day: 25}, energy.Date{Year: 2023, Month: time.March, Day: 26})
	first := s.get(t, "/load/v2.0/total-load?dateFrom=25/03/2023&dateTo=26/03/2023&limit=5&resolution=PT1H")
	m := nextLink.FindStringSubmatch(first.header.Get("Link"))
	if first.status != http.StatusOK || m == nil || first.header.Get("X-Resolution") != "PT1H" {
		t.Fatalf("first page: got %d, Link %q, X-Resolution %q", first.status, first.header.Get("Link"), first.header.Get("X-Resolution"))
	}
	cursor, _, _ := strings.Cut(m[1][strings.Index(m[1], "cursor=")+len("cursor="):], "&")
	for _, tc := range []struct{ name, query, want string }{
		{"limit not a number", "limit=ten", "parameter limit"},
		{"limit too large", "limit=100001", "parameter limit"},
		{"cursor without limit", "cursor=" + cursor, "needs limit"},
		{"cursor of another query", "limit=5&cursor=" + cursor, "parameter cursor"},
		{"cursor not one", "limit=5&resolution=PT1H&cursor=xyz", "parameter cursor"},
	} {
		r := s.get(t, "/load/v2.0/total-load?dateFrom=25/03/2023&dateTo=26/03/2023&"+tc.query)
		if r.status != http.StatusBadRequest || !strings.Contains(string(r.body), tc.want) {
			t.Errorf("%s: got %d %s, want 400 naming %q", tc.name, r.status, r.body, tc.want)
		}
	}
	// The hourly records of the two days, paged by five, are the unpaged ones.
	want := recordLines(t, s.get(t, "/load/v2.0/total-load?dateFrom=25/03/2023&dateTo=26/03/2023&resolution=PT1H"))
	var got []string
	path := "/load/v2.0/total-load?dateFrom=25/03/2023&dateTo=26/03/2023&limit=5&resolution=PT1H"
	for path != "" {
		r := s.get(t, path)
		got = append(got, recordLines(t, r)...)
		path = ""
		if m := nextLink.FindStringSubmatch(r.header.Get("Link")); m != nil {
			path = m[1]
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) != 47 {
		t.Errorf("paged hours: got %d records, want the %d unpaged (47 hours of North)", len(got), len(want))
	}
}
