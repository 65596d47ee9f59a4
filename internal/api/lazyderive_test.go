package api_test

import (
	"encoding/json"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/budget"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// TestColdDerivedRead serves peak-valley, whose parts a server derives
// from total-load's when first asked, from a store whose reads fail: while
// they do, a peak-valley answer and /catalog are 503 with Retry-After; once
// the store is back, the answer holds the day's peak and valley and the
// catalogue tells peak-valley's coverage, as a server that derived every
// part when it loaded tells it.
func TestColdDerivedRead(t *testing.T) {
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	src := &failingReads{Memory: dataset.NewMemory(), class: api.NewStoreClass(api.StoreClassConfig{Slots: 2, Timeout: time.Minute}, nil)}
	load, _ := cat.Lookup("total-load")
	pv, _ := cat.Lookup("peak-valley")
	var rows []dataset.Row
	for _, day := range []time.Time{time.Date(2024, 3, 10, 0, 0, 0, 0, time.FixedZone("CET", 3600)), time.Date(2024, 4, 10, 0, 0, 0, 0, time.FixedZone("CEST", 7200))} {
		for i := range 96 {
			rows = append(rows, dataset.Row{Time: day.Add(time.Duration(i) * 15 * time.Minute).Unix(), Text: []string{"Italy"}, Num: []float64{float64(30000 + i), math.NaN()}})
		}
	}
	if _, err := dataset.Import(t.Context(), src, cat, load, rows, time.Date(2024, 4, 11, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	live, err := dataset.NewLiveWith(t.Context(), cat, src, dataset.LiveOptions{Budget: budget.New(1)})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, apitest.Options{Catalog: cat, Source: src, Adjust: func(o *api.Options) {
		o.Data.Snapshot, o.Data.AsOf, o.Limits.StoreClass = live.Snapshot, live.AsOf, src.class
	}})
	const query = peakValleyPath + "?dateFrom=10/03/2024&dateTo=10/03/2024"
	src.fail.Store(true)
	for _, path := range []string{query, "/catalog"} {
		r := h.get(t, path)
		if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") != "1" || !strings.Contains(string(r.body), "not answering") {
			t.Fatalf("%s while the store fails: got %d, Retry-After %q, %.300s; want 503, 1, the store is not answering", path, r.status, r.header.Get("Retry-After"), r.body)
		}
	}
	src.fail.Store(false)
	if r := h.get(t, query); r.status != http.StatusOK || !strings.Contains(string(r.body), `"peak_load_GW":"30.095"`) {
		t.Fatalf("once the store is back: got %d, %.400s; want 200 with the day's peak", r.status, r.body)
	}
	eager, err := dataset.NewLive(t.Context(), cat, src)
	if err != nil {
		t.Fatal(err)
	}
	first, last, ok := eager.Snapshot().Table(pv).Coverage()
	day := func(u int64) string { return time.Unix(u, 0).In(energy.Rome()).Format(time.DateOnly) }
	want := catalogCoverage{First: "2024-03-10", Last: "2024-04-10", Records: eager.Snapshot().Table(pv).Records()}
	if !ok || day(first) != want.First || day(last) != want.Last || want.Records != 4 {
		t.Fatalf("peak-valley's coverage, every part derived: got %d..%d %v, %d records; want %+v", first, last, ok, want.Records, want)
	}
	r := h.get(t, "/catalog")
	var body struct {
		Datasets []struct {
			Name     string
			Coverage *catalogCoverage
		}
	}
	if err := json.Unmarshal(r.body, &body); err != nil || r.status != http.StatusOK {
		t.Fatalf("/catalog once the store is back: got %d %v", r.status, err)
	}
	for _, d := range body.Datasets {
		if d.Name == pv.Name && (d.Coverage == nil || *d.Coverage != want) {
			t.Fatalf("/catalog's peak-valley coverage: got %+v, want %+v", d.Coverage, want)
		}
	}
}

// catalogCoverage is a dataset's coverage as /catalog tells it.
type catalogCoverage struct {
	First, Last string
	Records     int
}
