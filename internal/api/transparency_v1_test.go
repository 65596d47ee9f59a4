package api_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// januaryWeek2023 is the demo data of 2 to 8 January 2023, the week the
// v1.0 acceptance reads, with a day either side.
func januaryWeek2023(t *testing.T) (*harness, *dataset.Catalog) {
	t.Helper()
	cat, src := demoDays(t, energy.Date{Year: 2023, Month: time.January, Day: 1}, energy.Date{Year: 2023, Month: time.January, Day: 9})
	return newHarnessWith(t, apitest.Options{Catalog: cat, Source: src}), cat
}

// wantDeprecated checks the three headers of a deprecated path's answer.
func wantDeprecated(t *testing.T, what string, r response, successor string) {
	t.Helper()
	if !regexp.MustCompile(`^@[0-9]+$`).MatchString(r.header.Get("Deprecation")) {
		t.Errorf("%s: Deprecation %q, want @<unix seconds> (RFC 9745)", what, r.header.Get("Deprecation"))
	}
	sunset, err := http.ParseTime(r.header.Get("Sunset"))
	if err != nil || sunset.Before(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("%s: Sunset %q, want an HTTP date to come (RFC 8594)", what, r.header.Get("Sunset"))
	}
	if want := "<" + successor + `>; rel="successor-version"`; r.header.Get("Link") != want {
		t.Errorf("%s: Link %q, want %q", what, r.header.Get("Link"), want)
	}
}

// TestV1TransparencyPaths reads every v1.0 path for a week of January 2023
// and its v2.0 successor: the same records, under the v1.0 names and array,
// without date_tz and date_offset, with the three headers; the successor's
// answer carries none of them. Every exchange is checked against the
// OpenAPI document.
func TestV1TransparencyPaths(t *testing.T) {
	t.Parallel()
	h, cat := januaryWeek2023(t)
	n := 0
	for _, d := range cat.All() {
		for i := range d.Views {
			v := &d.Views[i]
			if !strings.HasPrefix(v.Path, "/transparency/v1.0/") {
				continue
			}
			n++
			q := "?dateFrom=02/01/2023&dateTo=08/01/2023"
			if d.Takes("year") {
				q = "?year=2023"
			}
			old, cur := h.get(t, v.Path+q), h.get(t, d.Path()+q)
			wantDeprecated(t, v.Path, old, d.Path())
			if cur.header.Get("Deprecation") != "" || cur.header.Get("Link") != "" {
				t.Errorf("%s: the successor announces a deprecation", d.Path())
			}
			got, want := recordsOf(t, v.Path, old, v.Array), recordsOf(t, d.Path(), cur, d.Array)
			if len(got) == 0 || len(got) != len(want) {
				t.Errorf("%s: %d records, want %d (the successor's), at least one", v.Path, len(got), len(want))
				continue
			}
			for j, rec := range want {
				delete(rec, "date_tz")
				delete(rec, "date_offset")
				for name, value := range rec {
					if got[j][v.Names[name]] != value {
						t.Errorf("%s record %d: %s=%q, want the successor's %s=%q", v.Path, j, v.Names[name], got[j][v.Names[name]], name, value)
					}
				}
				if len(got[j]) != len(rec) {
					t.Errorf("%s record %d: fields %v, want %d", v.Path, j, got[j], len(rec))
				}
			}
		}
	}
	if n != 8 {
		t.Errorf("%d transparency v1.0 paths, want 8", n)
	}
}

// TestV1TransparencyMessage checks the message quoting the query, as the
// v1.0 example writes it, with the data's stop.
func TestV1TransparencyMessage(t *testing.T) {
	t.Parallel()
	h, _ := januaryWeek2023(t)
	r := h.get(t, "/transparency/v1.0/getactualgeneration?dateFrom=2/1/2023&dateTo=3/1/2023&type=Wind&type=Hydro")
	var body struct{ Result struct{ Message string } }
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatal(err)
	}
	want := `Operation completed for the following request: {$and:[{DATA_ORA:{$gte:"2023-01-02", $lte:"2023-01-03"}},{DATA_ORA:{$lt:"2023-07-31"}}], TIPO:{$in:[ "Hydro", "Wind" ]}}`
	if body.Result.Message != want {
		t.Errorf("message %q, want %q", body.Result.Message, want)
	}
	if !strings.Contains(string(r.body), `{\"2023-01-02\"`) && !strings.Contains(string(r.body), `$gte:\"2023-01-02\"`) {
		t.Errorf("the message's quotes are not escaped as JSON: %s", r.body[:200])
	}
}

// TestV1TransparencyDataStop: the v1.0 paths answer nothing from 31 July
// 2023 on, while their successors do; and in the repeated autumn hour of
// 2022 the second pass is written a minute late, as v1.0 rows without an
// offset were.
func TestV1TransparencyDataStop(t *testing.T) {
	t.Parallel()
	// The days TestCatalogPathsCoverWhatTheyAnswer reads too: generated once.
	cat, src := demoDays(t, energy.Date{Year: 2023, Month: time.July, Day: 29}, energy.Date{Year: 2023, Month: time.August, Day: 1})
	h := newHarnessWith(t, apitest.Options{Catalog: cat, Source: src})
	q := "?dateFrom=30/07/2023&dateTo=31/07/2023&biddingZone=Italy"
	old := recordsOf(t, "v1.0", h.get(t, "/transparency/v1.0/gettotalload"+q), "totalLoad")
	cur := recordsOf(t, "v2.0", h.get(t, "/load/v2.0/total-load"+q), "total_load")
	if len(old) != 96 || len(cur) != 192 || old[95]["Date"] != "2023-07-30 23:45:00" {
		t.Errorf("got %d v1.0 records (last %v) and %d v2.0, want 96 up to 30 July 23:45 and 192", len(old), old[len(old)-1], len(cur))
	}
	r := h.get(t, "/transparency/v1.0/gettotalload?dateFrom=31/07/2023&dateTo=31/07/2023")
	if got := recordsOf(t, "after the stop", r, "totalLoad"); len(got) != 0 {
		t.Errorf("31 July 2023: %d records, want none", len(got))
	}

	cat, src = demoDays(t, energy.Date{Year: 2022, Month: time.October, Day: 30}, energy.Date{Year: 2022, Month: time.October, Day: 30})
	h = newHarnessWith(t, apitest.Options{Catalog: cat, Source: src})
	recs := recordsOf(t, "autumn", h.get(t, "/transparency/v1.0/gettotalload?dateFrom=30/10/2022&dateTo=30/10/2022&biddingZone=Italy"), "totalLoad")
	var dates []string
	for _, rec := range recs {
		if strings.HasPrefix(rec["Date"], "2022-10-30 02:") {
			dates = append(dates, rec["Date"][11:16])
		}
	}
	if want := "02:00 02:15 02:30 02:45 02:01 02:16 02:31 02:46"; strings.Join(dates, " ") != want {
		t.Errorf("the repeated hour: %v, want %s", dates, want)
	}
}

// TestV1MarketAndFeesAnnounceTheirSuccessor: the former Fees prefix answers
// the fees path's bytes, with the three headers naming it.
func TestV1MarketAndFeesAnnounceTheirSuccessor(t *testing.T) {
	t.Parallel()
	h := genHarness(t, map[string]string{"daily-prices": dailyPricesFile})
	q := "?dateFrom=22/11/2023&dateTo=22/11/2023"
	old, cur := h.get(t, "/market-and-fees/v1.0/daily-prices"+q), h.get(t, "/fees/v1.0/daily-prices"+q)
	wantDeprecated(t, "market-and-fees", old, "/fees/v1.0/daily-prices")
	if string(old.body) != string(cur.body) || cur.header.Get("Deprecation") != "" {
		t.Errorf("market-and-fees answers %s, want the fees path's %s without its headers", old.body, cur.body)
	}
	// Errors at a deprecated path announce it too.
	wantDeprecated(t, "market-and-fees 406", h.get(t, "/market-and-fees/v1.0/daily-prices?dateFrom=x"), "/fees/v1.0/daily-prices")
	wantDeprecated(t, "ifees' former prefix", h.get(t, "/market-and-fees/v1.0/commercial-balance-prices"+q), "/fees/v1.0/commercial-balance-prices")
}

// TestCatalogPathsCoverWhatTheyAnswer: GET /catalog lists every path of
// every dataset (aliases and views) with its status and source, and each
// path's coverage is what it answers: records on its first and last day,
// none the day before or after. The demo data span the v1.0 paths' stop.
func TestCatalogPathsCoverWhatTheyAnswer(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("generates the demo data")
	}
	cat, src := demoDays(t, energy.Date{Year: 2023, Month: time.July, Day: 29}, energy.Date{Year: 2023, Month: time.August, Day: 1})
	h := newHarnessWith(t, apitest.Options{Catalog: cat, Source: src})
	var list struct {
		Datasets []struct {
			Name  string
			Paths []struct {
				Path, Status, Array string
				Source              *struct{ Ref, Confidence string }
				Coverage            *struct{ First, Last string }
			}
		}
	}
	if err := json.Unmarshal(h.get(t, "/catalog").body, &list); err != nil {
		t.Fatal(err)
	}
	for _, ld := range list.Datasets {
		d, _ := cat.Lookup(ld.Name)
		if len(ld.Paths) != len(d.Paths()) {
			t.Errorf("%s: /catalog lists %d paths, want %d", d.Name, len(ld.Paths), len(d.Paths()))
		}
		for _, p := range ld.Paths {
			if p.Status != "current" && p.Status != "deprecated" || p.Source == nil || p.Source.Confidence == "" {
				t.Errorf("%s: status %q, source %v", p.Path, p.Status, p.Source)
			}
			if p.Coverage == nil {
				continue
			}
			shown := d
			if v := d.View(p.Path); v != nil {
				shown = d.Viewed(v)
			}
			first, last := answeredSpan(t, h, shown, p.Path, p.Coverage.First, p.Coverage.Last)
			if first != p.Coverage.First || last != p.Coverage.Last {
				t.Errorf("%s: coverage %s to %s, answers %s to %s", p.Path, p.Coverage.First, p.Coverage.Last, first, last)
			}
		}
	}
}

// answeredSpan asks path, showing d's fields, for the days around first
// and last, and returns the first and last day it answers records of.
func answeredSpan(t *testing.T, h *harness, d *dataset.Dataset, path, first, last string) (lo, hi string) {
	t.Helper()
	day := func(s string, n int) time.Time { t0, _ := time.Parse("2006-01-02", s); return t0.AddDate(0, 0, n) }
	moment := ""
	for _, f := range d.Fields {
		if !f.Hidden && (f.Kind == dataset.Instant || f.Kind == dataset.YearOf || f.Kind == dataset.DateOf || f.Kind == dataset.MonthOf) {
			moment = f.Name
			break
		}
	}
	for _, at := range []time.Time{day(first, -1), day(first, 0), day(last, 0), day(last, 1)} {
		for _, q := range spanQueries(d, at) {
			r := h.get(t, path+"?"+q.Encode())
			if r.status != http.StatusOK || len(r.body) == 0 {
				continue // the empty body, or a year outside the window
			}
			for _, rec := range recordsOf(t, path, r, d.Array) {
				got := at.Format("2006-01-02")
				switch m := rec[moment]; {
				case d.Grain == dataset.Year:
					got = at.Format("2006-01-01") // the year asked for
				case d.Grain == dataset.Month:
					got = at.Format("2006-01-01")[:8] + "01"
				case len(m) >= 10:
					got = m[:10]
				}
				if lo == "" || got < lo {
					lo = got
				}
				hi = max(hi, got)
			}
		}
	}
	return lo, hi
}

// spanQueries are the queries of d for the period holding day at: one per
// value of a required filter.
func spanQueries(d *dataset.Dataset, at time.Time) []url.Values {
	q := url.Values{}
	var required *dataset.Param
	for _, p := range d.Params {
		switch p.Kind {
		case dataset.DateRange:
			q.Set(p.Name, at.Format("02/01/2006"))
			q.Set(p.To, at.Format("02/01/2006"))
		case dataset.DayParam:
			q.Set(p.Name, at.Format("02/01/2006"))
		case dataset.YearParam:
			q.Set(p.Name, at.Format("2006"))
		case dataset.MonthParam:
			q.Set(p.Name, at.Format("1"))
		case dataset.Enum:
			if p.Required {
				required = &p
			}
		}
	}
	if required == nil {
		return []url.Values{q}
	}
	var out []url.Values
	for _, v := range d.EnumValues(*required) {
		c := url.Values{}
		for k, vs := range q {
			c[k] = vs
		}
		c.Set(required.Name, v)
		out = append(out, c)
	}
	return out
}

// TestV1PythonClientReadsJanuary2023 runs scripts/pyclient/transparency_v1.py,
// a client written from the v1.0 sections (requests, the legacy token
// path), against the demo data of January 2023: every v1.0 path answers
// records with the capitalised fields and the three headers.
func TestV1PythonClientReadsJanuary2023(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("generates the demo data")
	}
	out := runPyClientOnDemo(t, "transparency_v1.py", energy.Date{Year: 2023, Month: time.January, Day: 1}, energy.Date{Year: 2023, Month: time.January, Day: 9})
	if n := strings.Count(string(out), "ok /transparency/v1.0/"); n != 8 {
		t.Fatalf("transparency_v1.py read %d paths, want 8:\n%s", n, out)
	}
	t.Logf("transparency_v1.py:\n%s", out)
}
