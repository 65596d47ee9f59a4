package web_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/energyapi/energyapi/internal/energy"
)

// chart is what the page says of a chart it drew.
type chart struct {
	ID     string   `json:"id"`
	Path   string   `json:"path"`
	Range  string   `json:"range"`
	Series int      `json:"series"`
	Points int      `json:"points"`
	Inked  int      `json:"inked"`
	Ticks  []int64  `json:"ticks"`  // the time axis's ticks, Unix seconds
	Labels []string `json:"labels"` // and their labels
}

// chartsJS lists every chart drawn with its number of series, its number of
// x values, how many pixels of its canvas are not blank, and the ticks and
// labels of its time axis.
const chartsJS = `window.energyPage.charts.map((u) => {
  const box = u.root.closest(".chart");
  const c = u.ctx.canvas;
  const px = u.ctx.getImageData(0, 0, c.width, c.height).data;
  let inked = 0;
  for (let i = 3; i < px.length; i += 4) if (px[i] !== 0) inked++;
  return { id: box.id, path: box.dataset.path, range: box.dataset.range || "", series: +box.dataset.series, points: +box.dataset.points, inked,
    ticks: JSON.parse(box.dataset.xticks || "[]"), labels: JSON.parse(box.dataset.xlabels || "[]") };
})`

// perfJS measures the page from the Performance API: body bytes of the
// document and every resource, and when the first chart was drawn.
const perfJS = `(() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const res = performance.getEntriesByType("resource");
  let decoded = nav.decodedBodySize;
  for (const r of res) decoded += r.decodedBodySize;
  return { firstChartMs: window.energyPage.firstChartMs, decoded, resources: res.length + 1 };
})()`

// legendJS puts the cursor on the i-th instant of a chart and returns what
// the legend (the chart's tooltip) shows for it.
const legendJS = `((id, i) => {
  const u = window.energyPage.charts.find((u) => u.root.closest(".chart").id === id);
  u.setCursor({ left: u.valToPos(u.data[0][i], "x"), top: 10 });
  return u.root.querySelector(".u-legend .u-series:first-child .u-value").textContent;
})`

func (s *session) charts(t *testing.T) map[string]chart {
	t.Helper()
	var list []chart
	if err := chromedp.Run(s.ctx, chromedp.Evaluate(chartsJS, &list)); err != nil {
		t.Fatal(err)
	}
	out := map[string]chart{}
	for _, c := range list {
		out[c.ID] = c
	}
	return out
}

func (s *session) legendAt(t *testing.T, id string, i int) string {
	t.Helper()
	var text string
	if err := chromedp.Run(s.ctx, chromedp.Evaluate(fmt.Sprintf(legendJS+"(%q, %d)", id, i), &text)); err != nil {
		t.Fatal(err)
	}
	return text
}

// romeStamp is how the legend shows an instant: the data's wall clock and
// its offset, as the records' date and date_offset give them.
func romeStamp(t time.Time) string { return t.In(energy.Rome()).Format("02/01/2006 15:04 -07:00") }

// The default view's charts: a few over the last covered week.
var defaultCharts = []string{"chart-peak-valley", "chart-total-load", "chart-actual-generation", "chart-physical-foreign-flow"}

func (s *session) testDefaultView(t *testing.T) {
	s.net.reset()
	var env struct {
		Zone   string `json:"zone"`
		Locale string `json:"locale"`
	}
	var perf struct {
		FirstChartMs float64 `json:"firstChartMs"`
		Decoded      float64 `json:"decoded"`
		Resources    int     `json:"resources"`
	}
	var shot []byte
	err := chromedp.Run(s.ctx,
		chromedp.Navigate(s.srv.URL+"/"),
		waitJS(`window.energyPage && window.energyPage.ready === true`),
		chromedp.Evaluate(`(() => { const o = Intl.DateTimeFormat().resolvedOptions(); return { zone: o.timeZone, locale: o.locale } })()`, &env),
		chromedp.Evaluate(perfJS, &perf),
		chromedp.FullScreenshot(&shot, 100), // 100: PNG
	)
	if err != nil {
		t.Fatal(err)
	}
	if env.Zone != browserZone || env.Locale != browserLocale {
		t.Fatalf("the browser runs in %s, %s; want %s, %s", env.Zone, env.Locale, browserZone, browserLocale)
	}
	reqs := s.net.settled(t)
	s.noErrors(t)
	n, bytes := s.checkBudget(t, reqs)
	charts := s.charts(t)
	s.checkAsksWhatItDraws(t, reqs, charts)
	for _, id := range defaultCharts {
		c, ok := charts[id]
		if !ok {
			t.Errorf("no chart %s drawn; charts: %v", id, charts)
			continue
		}
		if c.Inked < 500 {
			t.Errorf("%s: got %d drawn pixels on its canvas, want a drawn chart", id, c.Inked)
		}
		checkAxis(t, id, c.Ticks, c.Labels)
	}
	week := s.last.AddDays(-6)
	load := charts["chart-total-load"]
	if load.Points != 7*96 || load.Series != 2 {
		t.Errorf("total load of Italy over the last covered week: got %d instants and %d series, want %d and 2 (actual and forecast)", load.Points, load.Series, 7*96)
	}
	if len(load.Ticks) == 0 || load.Ticks[0] != week.Start().Unix() {
		t.Errorf("total load's first tick: got %v, want %d (midnight of %s in Rome)", load.Ticks, week.Start().Unix(), week)
	}
	if got, want := s.legendAt(t, "chart-total-load", 0), romeStamp(week.Start()); got != want {
		t.Errorf("legend at the first instant: got %q, want %q", got, want)
	}
	report(t, "dashboard.png", shot, fmt.Sprintf("default view: %d requests, %.0f bytes transferred (%.0f bytes of bodies decoded); time to first chart: %.0f ms\n",
		n, bytes, perf.Decoded, perf.FirstChartMs))
}

// checkBudget checks the requests of the default view against the budget,
// and that each went to the page's own server and succeeded. It returns
// their number and the bytes received.
func (s *session) checkBudget(t *testing.T, reqs []exchange) (int, float64) {
	t.Helper()
	var bytes float64
	var urls []string
	n := 0
	for _, x := range reqs {
		if strings.HasPrefix(x.URL, "data:") {
			continue // drawn by the browser itself (a date input's icon): no request
		}
		n++
		bytes += x.Bytes
		urls = append(urls, fmt.Sprintf("%s %d %.0f", s.pathOf(x.URL), x.Status, x.Bytes))
		if !strings.HasPrefix(x.URL, s.srv.URL+"/") {
			t.Errorf("request to another host: %s", x.URL)
		}
		if x.Failure != "" || x.Status >= 400 {
			t.Errorf("%s: got status %d %s, want success", x.URL, x.Status, x.Failure)
		}
	}
	if n >= maxRequests || bytes >= maxBytes {
		t.Errorf("default view: got %d requests and %.0f bytes, want fewer than %d and %d; requests:\n%s", n, bytes, maxRequests, maxBytes, strings.Join(urls, "\n"))
	}
	return n, bytes
}

// checkAsksWhatItDraws checks that every data request is of a dataset the
// page drew, with every parameter the dataset requires.
func (s *session) checkAsksWhatItDraws(t *testing.T, reqs []exchange, charts map[string]chart) {
	t.Helper()
	drawn := map[string]bool{}
	for _, c := range charts {
		drawn[c.Path] = true
	}
	for _, x := range reqs {
		d := s.dataset(s.pathOf(x.URL))
		if d == nil {
			continue
		}
		if !drawn[d.Path] {
			t.Errorf("asked %s but drew no chart of it", x.URL)
		}
		u, err := url.Parse(x.URL)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range d.Parameters {
			if p.Required && u.Query().Get(p.Name) == "" {
				t.Errorf("asked %s without its required parameter %s", x.URL, p.Name)
			}
		}
	}
}

// checkAxis checks a time axis against Rome's clock: hour ticks read
// hh:mm (24-hour) with dd/mm where the day changes, day ticks read dd/mm
// with the year where it changes, whatever the browser's zone and locale.
func checkAxis(t *testing.T, id string, ticks []int64, labels []string) {
	t.Helper()
	if len(ticks) < 2 || len(ticks) != len(labels) {
		t.Errorf("%s: got ticks %v with labels %q, want two or more, each labelled", id, ticks, labels)
		return
	}
	rome := energy.Rome()
	daily := true
	for i, u := range ticks {
		tt := time.Unix(u, 0).In(rome)
		if tt.Hour() != 0 || tt.Minute() != 0 || i > 0 && u-ticks[i-1] < 23*3600 {
			daily = false
		}
	}
	for i, u := range ticks {
		tt := time.Unix(u, 0).In(rome)
		var prev time.Time
		if i > 0 {
			prev = time.Unix(ticks[i-1], 0).In(rome)
		}
		var want string
		switch {
		case daily:
			want = tt.Format("02/01")
			if i == 0 || tt.Year() != prev.Year() {
				want += "\n" + tt.Format("2006")
			}
		default:
			want = tt.Format("15:04")
			if i == 0 || tt.YearDay() != prev.YearDay() {
				want += "\n" + tt.Format("02/01")
			}
		}
		if labels[i] != want {
			t.Errorf("%s: tick %d at %s: got label %q, want %q", id, i, tt.Format(time.RFC3339), labels[i], want)
		}
	}
}

// openDashboard loads the dashboard unless the tab shows it already, so
// that each subtest also runs alone.
func (s *session) openDashboard(t *testing.T) {
	t.Helper()
	var ready bool
	err := chromedp.Run(s.ctx, chromedp.Evaluate(`location.pathname === "/" && location.hash !== "#catalog" && !!window.energyPage && window.energyPage.ready`, &ready))
	if err == nil && !ready {
		err = chromedp.Run(s.ctx, chromedp.Navigate(s.srv.URL+"/"), waitJS(`window.energyPage && window.energyPage.ready === true`))
	}
	if err != nil {
		t.Fatal(err)
	}
}

// showRange sets the dashboard's range and waits until every chart shows it.
func (s *session) showRange(t *testing.T, from, to energy.Date) {
	t.Helper()
	s.openDashboard(t)
	want := iso(from) + "/" + iso(to)
	err := chromedp.Run(s.ctx,
		chromedp.SetValue("#from", iso(from), chromedp.ByQuery),
		chromedp.SetValue("#to", iso(to), chromedp.ByQuery),
		chromedp.Click("#range button", chromedp.ByQuery),
		waitJS(fmt.Sprintf(`window.energyPage.ready && [...document.querySelectorAll("#charts .chart[data-kind=time]")].every((b) => b.dataset.range === %q)`, want)),
	)
	if err != nil {
		t.Fatal(err)
	}
}

func (s *session) testClockChanges(t *testing.T) {
	var hours []string
	for h := range 24 {
		hours = append(hours, fmt.Sprintf("%02d:00", h))
	}
	march := append(append([]string{}, hours[:2]...), hours[3:]...)
	october := append(append([]string{}, hours[:3]...), hours[2:]...)
	tests := []struct {
		day    energy.Date
		points int
		hours  []string
		legend map[int]string // instant index -> legend
	}{
		{clockChanges[0], 23 * 4, march, map[int]string{7: "30/03/2025 01:45 +01:00", 8: "30/03/2025 03:00 +02:00"}},
		{clockChanges[1], 25 * 4, october, map[int]string{8: "26/10/2025 02:00 +02:00", 12: "26/10/2025 02:00 +01:00"}},
	}
	for _, tc := range tests {
		t.Run(tc.day.String(), func(t *testing.T) {
			s.showRange(t, tc.day, tc.day)
			s.noErrors(t)
			charts := s.charts(t)
			for _, id := range defaultCharts {
				checkAxis(t, id, charts[id].Ticks, charts[id].Labels)
			}
			load := charts["chart-total-load"]
			if load.Points != tc.points {
				t.Errorf("total load: got %d instants, want %d", load.Points, tc.points)
			}
			var got []string
			for _, l := range load.Labels {
				first, _, _ := strings.Cut(l, "\n")
				got = append(got, first)
			}
			if strings.Join(got, " ") != strings.Join(tc.hours, " ") {
				t.Errorf("total load's hours:\ngot  %q\nwant %q", got, tc.hours)
			}
			for i, want := range tc.legend {
				if got := s.legendAt(t, "chart-total-load", i); got != want {
					t.Errorf("legend at instant %d: got %q, want %q", i, got, want)
				}
			}
		})
	}
}

func (s *session) testDatePicker(t *testing.T) {
	from := s.last.AddDays(-2)
	var requests []string
	s.showRange(t, from, s.last)
	if err := chromedp.Run(s.ctx, chromedp.Evaluate(`window.energyPage.requests`, &requests)); err != nil {
		t.Fatal(err)
	}
	s.noErrors(t)
	if got := s.charts(t)["chart-total-load"].Points; got != 3*96 {
		t.Errorf("total load over three days: got %d instants, want %d", got, 3*96)
	}
	want := "dateFrom=" + escapedDMY(from) + "&dateTo=" + escapedDMY(s.last)
	if !containsWith(requests, "/load/v2.0/total-load?"+want) {
		t.Errorf("got requests %q, want one for total load with %s", requests, want)
	}
}

// pickJS chooses a dataset in the dashboard's picker, as a user does.
const pickJS = `((name) => { const s = document.querySelector("#add"); s.value = name; s.dispatchEvent(new Event("change")); return s.value === "" })(%q)`

func (s *session) testPicker(t *testing.T) {
	quantity := s.dataset("/market/v1.0/output/quantity")
	thermo := s.dataset("/generation/v2.0/thermoelectric-production")
	if quantity == nil || thermo == nil {
		t.Fatal("the catalogue lacks market quantity or thermoelectric production")
	}
	s.openDashboard(t)
	s.net.reset()
	err := chromedp.Run(s.ctx,
		chromedp.Evaluate(fmt.Sprintf(pickJS, quantity.Name), nil),
		waitJS(fmt.Sprintf(`document.querySelector("#chart-%s[data-points]") !== null`, quantity.Name)),
		chromedp.Evaluate(fmt.Sprintf(pickJS, thermo.Name), nil),
		waitJS(fmt.Sprintf(`document.querySelector("#chart-%s[data-points]") !== null`, thermo.Name)),
	)
	if err != nil {
		t.Fatal(err)
	}
	reqs := s.net.settled(t)
	s.noErrors(t)
	charts := s.charts(t)
	s.checkAsksWhatItDraws(t, reqs, charts)
	for _, d := range []*catalogEntry{quantity, thermo} {
		if c := charts["chart-"+d.Name]; c.Inked < 500 {
			t.Errorf("%s: got %d drawn pixels, want a drawn chart", d.Name, c.Inked)
		}
	}
	var session []string
	for _, p := range quantity.Parameters {
		if p.Name == "sessionType" {
			session = p.Values
		}
	}
	var asked []string
	for _, x := range reqs {
		if s.pathOf(x.URL) == quantity.Path {
			asked = append(asked, x.URL)
		}
	}
	if len(session) == 0 || len(asked) == 0 || !containsWith(asked, "sessionType="+session[0]) {
		t.Errorf("market quantity: got requests %q, want them to ask sessionType=%s, the first value the catalogue allows", asked, session)
	}
}
