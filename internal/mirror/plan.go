// Package mirror keeps a local copy of an upstream deployment of the API
// family: it plans the requests that cover the chosen datasets and days
// (windows), fetches them within the upstream's limits on calls per second
// and per day, imports each answer through the normal import path in the
// transaction that records the window fetched, and re-fetches the windows
// whose values may still change. Its bookkeeping (windows, leases, calls
// spent, processes) lives in the store, so that a mirror killed at any
// moment resumes where its last commit left it and several mirrors share
// one store without fetching a window twice.
package mirror

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
)

// anchor is the first day of the grid of date-range windows: fixed, so that
// every mirror, whatever days it is asked for, plans the same windows.
var anchor = energy.Date{Year: 2000, Month: time.January, Day: 1}

// Window is one request of the upstream: a dataset's records over the days
// First..Last, asked for with Query.
type Window struct {
	Dataset     *dataset.Dataset
	First, Last energy.Date
	Query       url.Values
	Key         string
	filters     []string // the names in Query of the required filters
}

// PlanOptions is what a plan covers.
type PlanOptions struct {
	// Datasets are mirrored in this order of preference: the operator's
	// named first, then the rest of the catalogue's.
	Datasets []*dataset.Dataset
	// Named is how many of Datasets the operator named: their windows come
	// before every other dataset's.
	Named int
	// First and Last bound the days; a window that reaches into them is
	// planned whole.
	First, Last energy.Date
	// MaxRangeDays is the longest date range of a request when a dataset
	// declares none: the upstream's limit.
	MaxRangeDays int
	// Today is the current day: years beyond a dataset's year window are
	// left out.
	Today energy.Date
}

// Plan returns the windows that cover o, in the order to fetch them:
// the named datasets' before the others', and within each group the
// recent before the old.
func Plan(o PlanOptions) []Window {
	type ranked struct {
		w     Window
		group int
		order int
	}
	var all []ranked
	for i, d := range o.Datasets {
		group := 1
		if i < o.Named {
			group = 0
		}
		for _, w := range datasetWindows(d, o) {
			all = append(all, ranked{w, group, i})
		}
	}
	slices.SortStableFunc(all, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(a.group, b.group), b.w.Last.Compare(a.w.Last), cmp.Compare(a.order, b.order), cmp.Compare(a.w.Key, b.w.Key))
	})
	out := make([]Window, len(all))
	for i, r := range all {
		out[i] = r.w
	}
	return out
}

// StoreWindows returns ws as the store plans them, with their priority.
func StoreWindows(ws []Window) []store.MirrorWindow {
	out := make([]store.MirrorWindow, len(ws))
	for i, w := range ws {
		out[i] = store.MirrorWindow{Key: w.Key, Dataset: w.Dataset.Name, FirstDay: w.First.String(), LastDay: w.Last.String(), Priority: int64(i)}
	}
	return out
}

// datasetWindows returns d's windows over o's days: one per request the
// upstream takes (a date range of at most its longest, a day, a year or a
// month), times every value of each required filter.
func datasetWindows(d *dataset.Dataset, o PlanOptions) []Window {
	var spans []Window
	for _, p := range d.Params {
		switch p.Kind {
		case dataset.DateRange:
			spans = rangeSpans(p, o)
		case dataset.DayParam:
			spans = daySpans(p, o)
		case dataset.YearParam:
			spans = yearSpans(d, p, o)
		}
		if spans != nil {
			break
		}
	}
	for _, p := range d.Params {
		if p.Kind == dataset.Enum && p.Required {
			spans = byValue(spans, p.Name, d.EnumValues(p))
		}
	}
	for i := range spans {
		spans[i].Dataset = d
		spans[i].Key = windowKey(d.Name, spans[i])
	}
	return spans
}

// rangeSpans tiles the days from the anchor in windows of the longest
// range p takes, and returns those that reach into o's days.
func rangeSpans(p dataset.Param, o PlanOptions) []Window {
	n := p.MaxDays
	switch {
	case p.SameDay:
		n = 1
	case n == 0:
		n = o.MaxRangeDays
	case n < 0:
		n = 366 // no bound: a year a request, to keep answers a reasonable size
	}
	var out []Window
	k := anchor.DaysUntil(o.First) / n
	for first := anchor.AddDays(k * n); first.Compare(o.Last) <= 0; first = first.AddDays(n) {
		last := first.AddDays(n - 1)
		out = append(out, Window{First: first, Last: last, Query: url.Values{p.Name: {first.DMY()}, p.To: {last.DMY()}}})
	}
	return out
}

// daySpans returns one window a day.
func daySpans(p dataset.Param, o PlanOptions) []Window {
	var out []Window
	for d := o.First; d.Compare(o.Last) <= 0; d = d.AddDays(1) {
		out = append(out, Window{First: d, Last: d, Query: url.Values{p.Name: {d.DMY()}}})
	}
	return out
}

// yearSpans returns one window a year, or a month when d requires a month
// too, within d's year window.
func yearSpans(d *dataset.Dataset, p dataset.Param, o PlanOptions) []Window {
	first, last := o.First.Year, o.Last.Year
	if p.YearWindow > 0 {
		first = max(first, o.Today.Year-p.YearWindow)
		last = min(last, o.Today.Year)
	}
	var month *dataset.Param
	for _, q := range d.Params {
		if q.Kind == dataset.MonthParam && q.Required {
			month = &q
		}
	}
	var out []Window
	for y := first; y <= last; y++ {
		ys := strconv.Itoa(y)
		if month == nil {
			out = append(out, Window{First: energy.Date{Year: y, Month: time.January, Day: 1}, Last: energy.Date{Year: y, Month: time.December, Day: 31}, Query: url.Values{p.Name: {ys}}})
			continue
		}
		for m := time.January; m <= time.December; m++ {
			f := energy.Date{Year: y, Month: m, Day: 1}
			if f.Compare(o.Last) > 0 || f.AddDays(31).Compare(o.First) < 0 {
				continue
			}
			l := energy.Date{Year: y, Month: m + 1, Day: 1}.AddDays(-1)
			if m == time.December {
				l = energy.Date{Year: y, Month: m, Day: 31}
			}
			out = append(out, Window{First: f, Last: l, Query: url.Values{p.Name: {ys}, month.Name: {strconv.Itoa(int(m))}}})
		}
	}
	return out
}

// byValue returns each of spans once for every value of the filter name.
func byValue(spans []Window, name string, values []string) []Window {
	var out []Window
	for _, s := range spans {
		for _, v := range values {
			q := url.Values{}
			for k, vs := range s.Query {
				q[k] = slices.Clone(vs)
			}
			q.Set(name, v)
			out = append(out, Window{First: s.First, Last: s.Last, Query: q, filters: append(slices.Clone(s.filters), name)})
		}
	}
	return out
}

// windowKey names a window in the store: the dataset, its days and, for
// each required filter, its value ("market-quantity/2024-01-01..2024-02-29?sessionType=MB").
func windowKey(name string, w Window) string {
	k := fmt.Sprintf("%s/%s..%s", name, w.First, w.Last)
	var filters []string
	for _, p := range w.filters {
		filters = append(filters, p+"="+w.Query.Get(p))
	}
	slices.Sort(filters)
	if len(filters) > 0 {
		k += "?" + strings.Join(filters, "&")
	}
	return k
}
