package web_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/testwait"
	"github.com/energyapi/energyapi/internal/web"
)

// browserPath finds a Chromium to drive. Without one the browser tests skip,
// unless ENERGYAPI_REQUIRE_BROWSER=1 (as in CI) makes that a failure.
func browserPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("ENERGYAPI_REQUIRE_BROWSER") == "1" {
		t.Fatal("no Chromium found and ENERGYAPI_REQUIRE_BROWSER=1: install it (apt-get install -y chromium)")
	}
	t.Skip("no Chromium found; set ENERGYAPI_REQUIRE_BROWSER=1 to make this a failure")
	return ""
}

// browserServer serves the site and the API with the demo data of the last
// 40 covered days of total load (imported through the real importer, with the
// peak and valley derived from it) and the demo thermoelectric records.
func browserServer(t *testing.T) (*apitest.Server, energy.Date) {
	t.Helper()
	_, last := demo.LoadRange()
	first := last.AddDays(-39)
	srv := apitest.NewServer(t, apitest.Options{
		Data:         energy.Data{Thermo: demo.Thermoelectric()},
		Load:         demo.TotalLoad(first, last),
		MaxRangeDays: 60,
		Adjust: func(o *api.Options) {
			// Compressed as serve sends it: the browser decodes what it asked for.
			o.Web = web.New(web.Options{Demo: &web.Credentials{ClientID: apitest.ClientID, ClientSecret: apitest.ClientSecret}, Compression: o.Compression})
		},
	})
	return srv, last
}

// console collects what a page reports as errors: console.error, uncaught
// exceptions and browser log entries such as CSP violations.
type console struct {
	mu   sync.Mutex
	errs []string
}

func (c *console) listen(ctx context.Context) {
	chromedp.ListenTarget(ctx, func(ev any) {
		c.mu.Lock()
		defer c.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				c.errs = append(c.errs, "console.error: "+strings.Join(parts, " "))
			}
		case *runtime.EventExceptionThrown:
			c.errs = append(c.errs, "exception: "+ev.ExceptionDetails.Error())
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.LevelError {
				c.errs = append(c.errs, "log: "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		}
	})
}

func (c *console) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.errs
	c.errs = nil
	return e
}

// waitJS polls expr in the page until it is true or the context ends.
func waitJS(_ context.Context, expr string) chromedp.Action {
	return chromedp.Poll(expr, nil, chromedp.WithPollingTimeout(20*time.Second))
}

func TestBrowser(t *testing.T) {
	exe := browserPath(t)
	srv, last := browserServer(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.WindowSize(1280, 1800),
		chromedp.Flag("disable-gpu", true),
	)
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(90*time.Second))
	defer cancel()
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	var con console
	con.listen(bctx)
	if err := chromedp.Run(bctx, log.Enable()); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	noErrors := func(t *testing.T) {
		t.Helper()
		for _, e := range con.take() {
			t.Errorf("page reported an error: %s", e)
		}
	}
	dmy := func(d energy.Date) string { return fmt.Sprintf("%02d/%02d/%04d", d.Day, d.Month, d.Year) }
	weekStart := last.AddDays(-6)

	t.Run("dashboard", func(t *testing.T) {
		var charts []struct {
			ID     string `json:"id"`
			Series int    `json:"series"`
			Points int    `json:"points"`
			Inked  int    `json:"inked"`
		}
		var requests []string
		var perf struct {
			FirstChartMs float64 `json:"firstChartMs"`
			Transfer     float64 `json:"transfer"`
			Decoded      float64 `json:"decoded"`
			Resources    int     `json:"resources"`
		}
		var shot []byte
		err := chromedp.Run(bctx,
			chromedp.Navigate(srv.URL+"/"),
			waitJS(bctx, `window.energyPage && window.energyPage.ready === true`),
			chromedp.Evaluate(chartsJS, &charts),
			chromedp.Evaluate(`window.energyPage.requests`, &requests),
			chromedp.Evaluate(perfJS, &perf),
			chromedp.FullScreenshot(&shot, 100), // 100: PNG,
		)
		if err != nil {
			t.Fatal(err)
		}
		noErrors(t)
		want := map[string]int{"chart-total-load": 16, "chart-peak-valley": 2, "yearly-thermoelectric": 2}
		seen := map[string]bool{}
		for _, c := range charts {
			seen[c.ID] = true
			if w, ok := want[c.ID]; ok && c.Series != w {
				t.Errorf("%s: got %d series, want %d", c.ID, c.Series, w)
			}
			if c.Inked < 500 {
				t.Errorf("%s: got %d drawn pixels on its canvas, want a drawn chart", c.ID, c.Inked)
			}
		}
		for id := range want {
			if !seen[id] {
				t.Errorf("no chart %s drawn; charts: %+v", id, charts)
			}
		}
		for _, c := range charts {
			if c.ID == "chart-total-load" && c.Points != 7*96 {
				t.Errorf("total load over the last covered week: got %d instants, want %d", c.Points, 7*96)
			}
		}
		wantReq := "dateFrom=" + strings.ReplaceAll(dmy(weekStart), "/", "%2F") + "&dateTo=" + strings.ReplaceAll(dmy(last), "/", "%2F")
		if !containsWith(requests, "/load/v2.0/total-load?"+wantReq) {
			t.Errorf("default range: got requests %q, want one for total load with %s", requests, wantReq)
		}
		report(t, "dashboard.png", shot, fmt.Sprintf("page transfer size: %.0f bytes (%.0f decoded, %d resources); time to first chart: %.0f ms\n",
			perf.Transfer, perf.Decoded, perf.Resources, perf.FirstChartMs))
	})

	t.Run("date picker changes the request", func(t *testing.T) {
		from := last.AddDays(-2)
		iso := func(d energy.Date) string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day) }
		var points string
		var requests []string
		err := chromedp.Run(bctx,
			chromedp.SetValue("#from", iso(from), chromedp.ByQuery),
			chromedp.SetValue("#to", iso(last), chromedp.ByQuery),
			chromedp.Click("#range button", chromedp.ByQuery),
			waitJS(bctx, `document.querySelector("#chart-total-load[data-points]") !== null`),
			chromedp.AttributeValue("#chart-total-load", "data-points", &points, nil, chromedp.ByQuery),
			chromedp.Evaluate(`window.energyPage.requests`, &requests),
		)
		if err != nil {
			t.Fatal(err)
		}
		noErrors(t)
		if points != fmt.Sprint(3*96) {
			t.Errorf("total load over three days: got %s instants, want %d", points, 3*96)
		}
		want := "dateFrom=" + strings.ReplaceAll(dmy(from), "/", "%2F")
		if !containsWith(requests, "/load/v2.0/total-load?"+want) {
			t.Errorf("got requests %q, want one for total load with %s", requests, want)
		}
	})

	t.Run("catalogue form runs a query", func(t *testing.T) {
		var count, curl string
		var rows, series int
		form := `#dataset-total-load form`
		err := chromedp.Run(bctx,
			chromedp.Navigate(srv.URL+"/#catalog"),
			waitJS(bctx, `document.querySelector("#dataset-total-load form") !== null`),
			chromedp.SetValue(form+` input[name=dateFrom]`, fmt.Sprintf("%04d-%02d-%02d", last.Year, last.Month, last.Day), chromedp.ByQuery),
			chromedp.Evaluate(`(() => { const s = document.querySelector("#dataset-total-load select[name=biddingZone]"); for (const o of s.options) o.selected = o.value === "North"; return true })()`, nil),
			chromedp.Click(form+` button`, chromedp.ByQuery),
			waitJS(bctx, `document.querySelector("#dataset-total-load .records") !== null`),
			chromedp.Text(`#dataset-total-load .count`, &count, chromedp.ByQuery),
			chromedp.Text(`#dataset-total-load .curl`, &curl, chromedp.ByQuery),
			chromedp.Evaluate(`document.querySelectorAll("#dataset-total-load .records tr").length - 1`, &rows),
			chromedp.Evaluate(`+document.querySelector("#dataset-total-load .chart").dataset.series`, &series),
		)
		if err != nil {
			t.Fatal(err)
		}
		noErrors(t)
		if !strings.HasPrefix(count, "96 records") || rows != 96 {
			t.Errorf("one day of North: got %q and %d table rows, want 96 records", count, rows)
		}
		if series != 2 {
			t.Errorf("chart of one zone: got %d series, want 2 (actual and forecast)", series)
		}
		wantURL := srv.URL + "/load/v2.0/total-load?dateFrom=" + strings.ReplaceAll(dmy(last), "/", "%2F") + "&dateTo=" + strings.ReplaceAll(dmy(last), "/", "%2F") + "&biddingZone=North"
		if !strings.Contains(curl, wantURL) || !strings.Contains(curl, "Authorization: Bearer $TOKEN") {
			t.Errorf("curl command: got %q, want it to fetch %s with the bearer token", curl, wantURL)
		}
	})

	t.Run("docs", func(t *testing.T) {
		var ops int
		var status string
		err := chromedp.Run(bctx,
			chromedp.Navigate(srv.URL+"/docs"),
			waitJS(bctx, `document.querySelectorAll(".opblock").length > 0`),
			chromedp.Evaluate(`document.querySelectorAll(".opblock").length`, &ops),
			// Authorize with the prefilled demo credentials, then try the catalogue of peak and valley.
			chromedp.Click(`.btn.authorize`, chromedp.ByQuery),
			chromedp.Click(`.auth-container .btn.modal-btn.auth.authorize`, chromedp.ByQuery),
			waitJS(bctx, `[...document.querySelectorAll(".auth-container")].some((e) => e.innerText.includes("Authorized"))`),
			chromedp.Click(`.btn-done`, chromedp.ByQuery),
		)
		if err != nil {
			var html string
			chromedp.Run(bctx, chromedp.Evaluate(`(document.querySelector(".modal-ux") || document.body).innerText.slice(0, 2000)`, &html))
			t.Fatalf("%v; page: %s; console: %q", err, html, con.take())
		}
		if ops < 5 {
			t.Errorf("got %d operations rendered, want every endpoint", ops)
		}
		tctx, cancel := context.WithTimeout(bctx, testwait.Scale(20*time.Second))
		defer cancel()
		err = chromedp.Run(tctx,
			chromedp.Click(`#operations-load-getPeakValleyLoad .opblock-summary-control`, chromedp.ByQuery),
			waitJS(bctx, `document.querySelector('#operations-load-getPeakValleyLoad tr[data-param-name="dateFrom"] input') !== null`),
			chromedp.Click(`#operations-load-getPeakValleyLoad tr[data-param-name="dateFrom"] input`, chromedp.ByQuery),
			chromedp.SendKeys(`#operations-load-getPeakValleyLoad tr[data-param-name="dateFrom"] input`, dmy(last), chromedp.ByQuery),
			chromedp.Click(`#operations-load-getPeakValleyLoad tr[data-param-name="dateTo"] input`, chromedp.ByQuery),
			chromedp.SendKeys(`#operations-load-getPeakValleyLoad tr[data-param-name="dateTo"] input`, dmy(last), chromedp.ByQuery),
			chromedp.Click(`#operations-load-getPeakValleyLoad .btn.execute`, chromedp.ByQuery),
			waitJS(bctx, `document.querySelector('#operations-load-getPeakValleyLoad .live-responses-table .response .response-col_status') !== null`),
			chromedp.Text(`#operations-load-getPeakValleyLoad .live-responses-table .response .response-col_status`, &status, chromedp.ByQuery),
		)
		if err != nil {
			var form string
			chromedp.Run(bctx, chromedp.Evaluate(`document.querySelector("#operations-load-getPeakValleyLoad").innerText.slice(0, 1000)`, &form))
			t.Fatalf("trying a request: %v; the operation shows: %s", err, form)
		}
		if !strings.Contains(status, "200") {
			t.Errorf("trying peak and valley with the demo credentials: got status %q, want 200", status)
		}
		noErrors(t)
	})
}

func containsWith(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// report saves the screenshot and the measures where ENERGYAPI_ARTIFACTS
// says (CI sets it), else in the test's temp directory, and logs them.
func report(t *testing.T, name string, shot []byte, measures string) {
	t.Helper()
	dir := os.Getenv("ENERGYAPI_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dashboard-measures.txt"), []byte(measures), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %s; %s", filepath.Join(dir, name), measures)
}

// chartsJS lists every chart drawn with its number of series, its number of
// x values and how many pixels of its canvas are not blank.
const chartsJS = `window.energyPage.charts.map((u) => {
  const box = u.root.parentNode;
  const c = u.ctx.canvas;
  const px = u.ctx.getImageData(0, 0, c.width, c.height).data;
  let inked = 0;
  for (let i = 3; i < px.length; i += 4) if (px[i] !== 0) inked++;
  return { id: box.id, series: +box.dataset.series, points: +box.dataset.points, inked };
})`

// perfJS measures the page from the Performance API: bytes over the wire for
// the document and every resource, and when the first chart was drawn.
const perfJS = `(() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const res = performance.getEntriesByType("resource");
  let transfer = nav.transferSize, decoded = nav.decodedBodySize;
  for (const r of res) { transfer += r.transferSize; decoded += r.decodedBodySize; }
  return { firstChartMs: window.energyPage.firstChartMs, transfer, decoded, resources: res.length };
})()`
