package web_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/energyapi/energyapi/internal/testwait"
)

// area names the part of the family a dataset belongs to, from the first
// segment of its path: /load/v2.0/total-load is in Load.
func area(path string) string {
	seg, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	return strings.ToUpper(seg[:1]) + seg[1:]
}

// matches says whether a dataset is one the catalogue's filter keeps for
// query: each word of it appears in the dataset's name, title, paths,
// description or field names.
func matches(d catalogEntry, query string) bool {
	hay := []string{d.Name, d.Title, d.Path, d.Description}
	hay = append(hay, d.Aliases...)
	for _, f := range d.Fields {
		hay = append(hay, f.Name)
	}
	all := strings.ToLower(strings.Join(hay, " "))
	for _, w := range strings.Fields(strings.ToLower(query)) {
		if !strings.Contains(all, w) {
			return false
		}
	}
	return true
}

type areaShown struct {
	Area     string   `json:"area"`
	Datasets []string `json:"datasets"`
}

// areasJS lists the catalogue's areas and, in each, the datasets shown.
const areasJS = `[...document.querySelectorAll("#datasets .area")].filter((a) => !a.hidden).map((a) => ({
  area: a.querySelector("h2").firstChild.textContent.trim(),
  datasets: [...a.querySelectorAll(".dataset")].filter((d) => !d.hidden).map((d) => d.id.replace(/^dataset-/, "")),
}))`

// wantAreas groups the datasets query keeps by area, in catalogue order.
func (s *session) wantAreas(query string) ([]areaShown, int) {
	var out []areaShown
	n := 0
	for _, d := range s.cat {
		if !matches(d, query) {
			continue
		}
		n++
		a := area(d.Path)
		i := slices.IndexFunc(out, func(x areaShown) bool { return x.Area == a })
		if i < 0 {
			out = append(out, areaShown{Area: a})
			i = len(out) - 1
		}
		out[i].Datasets = append(out[i].Datasets, d.Name)
	}
	return out, n
}

func (s *session) testCatalogGroups(t *testing.T) {
	err := chromedp.Run(s.ctx,
		chromedp.Navigate(s.srv.URL+"/#catalog"),
		waitJS(`document.querySelectorAll("#datasets .area").length > 0`),
	)
	if err != nil {
		t.Fatal(err)
	}
	for _, query := range []string{"", "reserve", "price zone", "total-load"} {
		var got []areaShown
		var count string
		err := chromedp.Run(s.ctx,
			chromedp.Evaluate(fmt.Sprintf(`((q) => { const f = document.querySelector("#filter"); f.value = q; f.dispatchEvent(new Event("input")); return true })(%q)`, query), nil),
			chromedp.Evaluate(areasJS, &got),
			chromedp.Text("#filter-count", &count, chromedp.ByQuery),
		)
		if err != nil {
			t.Fatal(err)
		}
		want, n := s.wantAreas(query)
		if mustJSON(got) != mustJSON(want) {
			t.Errorf("filter %q: got areas\n%s\nwant\n%s", query, mustJSON(got), mustJSON(want))
		}
		if wantCount := fmt.Sprintf("%d of %d datasets", n, len(s.cat)); count != wantCount {
			t.Errorf("filter %q: got count %q, want %q", query, count, wantCount)
		}
	}
	s.noErrors(t)
}

func (s *session) testCatalogQuery(t *testing.T) {
	var count, curl string
	var rows, series int
	form := `#dataset-total-load form`
	err := chromedp.Run(s.ctx,
		chromedp.Navigate(s.srv.URL+"/#catalog"),
		waitJS(`document.querySelector("#dataset-total-load summary") !== null`),
		chromedp.Click(`#dataset-total-load summary`, chromedp.ByQuery),
		waitJS(`document.querySelector("#dataset-total-load form") !== null`),
		chromedp.SetValue(form+` input[name=dateFrom]`, iso(s.last), chromedp.ByQuery),
		chromedp.Evaluate(`(() => { const s = document.querySelector("#dataset-total-load select[name=biddingZone]"); for (const o of s.options) o.selected = o.value === "North"; return true })()`, nil),
		chromedp.Click(form+` button`, chromedp.ByQuery),
		waitJS(`document.querySelector("#dataset-total-load .records") !== null`),
		chromedp.Text(`#dataset-total-load .count`, &count, chromedp.ByQuery),
		chromedp.Text(`#dataset-total-load .curl`, &curl, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll("#dataset-total-load .records tr").length - 1`, &rows),
		chromedp.Evaluate(`+document.querySelector("#dataset-total-load .chart").dataset.series`, &series),
	)
	if err != nil {
		t.Fatal(err)
	}
	s.noErrors(t)
	if !strings.HasPrefix(count, "96 records") || rows != 96 {
		t.Errorf("one day of North: got %q and %d table rows, want 96 records", count, rows)
	}
	if series != 2 {
		t.Errorf("chart of one zone: got %d series, want 2 (actual and forecast)", series)
	}
	wantURL := s.srv.URL + "/load/v2.0/total-load?dateFrom=" + escapedDMY(s.last) + "&dateTo=" + escapedDMY(s.last) + "&biddingZone=North"
	if !strings.Contains(curl, wantURL) || !strings.Contains(curl, "Authorization: Bearer $TOKEN") {
		t.Errorf("curl command: got %q, want it to fetch %s with the bearer token", curl, wantURL)
	}
}

func (s *session) testDocs(t *testing.T) {
	var ops int
	var status string
	err := chromedp.Run(s.ctx,
		chromedp.Navigate(s.srv.URL+"/docs"),
		waitJS(`document.querySelectorAll(".opblock").length > 0`),
		chromedp.Evaluate(`document.querySelectorAll(".opblock").length`, &ops),
		// Authorize with the prefilled demo credentials, then try the catalogue of peak and valley.
		chromedp.Click(`.btn.authorize`, chromedp.ByQuery),
		chromedp.Click(`.auth-container .btn.modal-btn.auth.authorize`, chromedp.ByQuery),
		waitJS(`[...document.querySelectorAll(".auth-container")].some((e) => e.innerText.includes("Authorized"))`),
		chromedp.Click(`.btn-done`, chromedp.ByQuery),
	)
	if err != nil {
		var html string
		chromedp.Run(s.ctx, chromedp.Evaluate(`(document.querySelector(".modal-ux") || document.body).innerText.slice(0, 2000)`, &html))
		t.Fatalf("%v; page: %s; console: %q", err, html, s.con.take())
	}
	if ops < 5 {
		t.Errorf("got %d operations rendered, want every endpoint", ops)
	}
	tctx, cancel := context.WithTimeout(s.ctx, testwait.Scale(20*time.Second))
	defer cancel()
	op := `#operations-load-getPeakValleyLoad `
	err = chromedp.Run(tctx,
		chromedp.Click(op+`.opblock-summary-control`, chromedp.ByQuery),
		waitJS(`document.querySelector('`+op+`tr[data-param-name="dateFrom"] input') !== null`),
		chromedp.Click(op+`tr[data-param-name="dateFrom"] input`, chromedp.ByQuery),
		chromedp.SendKeys(op+`tr[data-param-name="dateFrom"] input`, s.last.DMY(), chromedp.ByQuery),
		chromedp.Click(op+`tr[data-param-name="dateTo"] input`, chromedp.ByQuery),
		chromedp.SendKeys(op+`tr[data-param-name="dateTo"] input`, s.last.DMY(), chromedp.ByQuery),
		chromedp.Click(op+`.btn.execute`, chromedp.ByQuery),
		waitJS(`document.querySelector('`+op+`.live-responses-table .response .response-col_status') !== null`),
		chromedp.Text(op+`.live-responses-table .response .response-col_status`, &status, chromedp.ByQuery),
	)
	if err != nil {
		var form string
		chromedp.Run(s.ctx, chromedp.Evaluate(`document.querySelector("#operations-load-getPeakValleyLoad").innerText.slice(0, 1000)`, &form))
		t.Fatalf("trying a request: %v; the operation shows: %s", err, form)
	}
	if !strings.Contains(status, "200") {
		t.Errorf("trying peak and valley with the demo credentials: got status %q, want 200", status)
	}
	s.noErrors(t)
}
