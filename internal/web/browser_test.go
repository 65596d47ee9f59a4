package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/web/browsertest"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/testwait"
	"github.com/energyapi/energyapi/internal/web"
)

// The browser's own clock and language, chosen far from the data's
// (Europe/Rome, 24-hour, day before month): the page must not show them.
const (
	browserZone   = "America/New_York"
	browserLocale = "en-US"
)

// The budget of the dashboard's default view, identity bytes (the server
// may compress; the budget holds without it).
const (
	maxRequests = 30
	maxBytes    = 2_000_000
)

// session is one browser tab on a server with the full demo data.
type session struct {
	ctx  context.Context
	srv  *apitest.Server
	cat  []catalogEntry // what GET /catalog says
	last energy.Date    // the demo's last day
	con  *console
	net  *traffic
}

// catalogEntry is what the tests read of a dataset in GET /catalog.
type catalogEntry struct {
	Name        string   `json:"name"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Path        string   `json:"path"`
	Aliases     []string `json:"aliases"`
	Parameters  []struct {
		Name     string   `json:"name"`
		Kind     string   `json:"kind"`
		Required bool     `json:"required"`
		Values   []string `json:"values"`
	} `json:"parameters"`
	Fields []struct {
		Name string `json:"name"`
	} `json:"fields"`
}

func (s *session) dataset(path string) *catalogEntry {
	for i := range s.cat {
		if s.cat[i].Path == path {
			return &s.cat[i]
		}
	}
	return nil
}

func newSession(t *testing.T) *session {
	exe := browsertest.Path(t)
	cat, src := fullDemo(t)
	srv := apitest.NewServer(t, apitest.Options{
		Catalog: cat, Source: src,
		Adjust: func(o *api.Options) {
			// Compressed as serve sends it: the browser decodes what it asked for.
			o.Web = web.New(web.Options{Demo: &web.Credentials{ClientID: apitest.ClientID, ClientSecret: apitest.ClientSecret}, Compression: o.Cache.Compression})
		},
	})
	s := &session{srv: srv, con: &console{}, net: &traffic{}}
	_, s.last = demo.LoadRange()
	s.cat = getCatalog(t, srv.URL)
	bctx := browsertest.Start(t, exe, chromedp.WindowSize(1280, 1800))
	s.ctx = bctx
	s.con.listen(bctx)
	s.net.listen(bctx)
	err := chromedp.Run(bctx, log.Enable(), network.Enable(), network.SetCacheDisabled(true),
		emulation.SetTimezoneOverride(browserZone),
		emulation.SetLocaleOverride().WithLocale(browserLocale))
	if err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	return s
}

func getCatalog(t *testing.T, base string) []catalogEntry {
	t.Helper()
	r, err := http.Get(base + "/catalog")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var c struct {
		Datasets []catalogEntry `json:"datasets"`
	}
	if err := json.NewDecoder(r.Body).Decode(&c); err != nil {
		t.Fatal(err)
	}
	return c.Datasets
}

func (s *session) noErrors(t *testing.T) {
	t.Helper()
	for _, e := range s.con.take() {
		t.Errorf("page reported an error: %s", e)
	}
}

// console collects what a page reports as errors: console.error, uncaught
// exceptions and browser log entries such as CSP violations and answers
// with an error status.
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

// traffic records the tab's requests from the DevTools network events:
// each one's URL, status and the bytes received for it (headers and body,
// as they crossed the wire).
type traffic struct {
	mu   sync.Mutex
	byID map[network.RequestID]*exchange
	all  []*exchange
}

type exchange struct {
	URL     string
	Status  int64
	Bytes   float64
	Done    bool
	Failure string
}

func (tr *traffic) listen(ctx context.Context) {
	chromedp.ListenTarget(ctx, func(ev any) {
		tr.mu.Lock()
		defer tr.mu.Unlock()
		if tr.byID == nil {
			tr.byID = map[network.RequestID]*exchange{}
		}
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			if tr.byID[ev.RequestID] == nil {
				x := &exchange{URL: ev.Request.URL}
				tr.byID[ev.RequestID] = x
				tr.all = append(tr.all, x)
			}
		case *network.EventResponseReceived:
			if x := tr.byID[ev.RequestID]; x != nil {
				x.Status = ev.Response.Status
			}
		case *network.EventLoadingFinished:
			if x := tr.byID[ev.RequestID]; x != nil {
				x.Bytes, x.Done = ev.EncodedDataLength, true
			}
		case *network.EventLoadingFailed:
			if x := tr.byID[ev.RequestID]; x != nil {
				x.Failure, x.Done = ev.ErrorText, true
			}
		}
	})
}

func (tr *traffic) reset() {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.byID, tr.all = nil, nil
}

// settled returns the requests made so far once every one has finished.
func (tr *traffic) settled(t *testing.T) []exchange {
	t.Helper()
	var out []exchange
	testwait.For(t, 10*time.Second, "every request finished", func() bool {
		tr.mu.Lock()
		defer tr.mu.Unlock()
		out = out[:0]
		for _, x := range tr.all {
			if !x.Done {
				return false
			}
			out = append(out, *x)
		}
		return true
	})
	return out
}

// waitJS polls expr in the page until it is true or the context ends.
func waitJS(expr string) chromedp.Action {
	return chromedp.Poll(expr, nil, chromedp.WithPollingTimeout(testwait.Scale(30*time.Second)))
}

func TestBrowser(t *testing.T) {
	s := newSession(t)
	t.Run("default view", s.testDefaultView)
	t.Run("clock-change days", s.testClockChanges)
	t.Run("date picker changes the request", s.testDatePicker)
	t.Run("picking a dataset draws it", s.testPicker)
	t.Run("catalogue grouped by area with a filter", s.testCatalogGroups)
	t.Run("catalogue form runs a query", s.testCatalogQuery)
	t.Run("docs", s.testDocs)
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

func containsWith(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// pathOf returns the path of a URL of the test server.
func (s *session) pathOf(u string) string {
	p, _, _ := strings.Cut(strings.TrimPrefix(u, s.srv.URL), "?")
	return p
}

func iso(d energy.Date) string { return d.String() }

func escapedDMY(d energy.Date) string { return strings.ReplaceAll(d.DMY(), "/", "%2F") }

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
