package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/budget"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// failingReads is a store whose part reads go through a store class, as
// serve's do, and fail while fail is set, as a database that is down.
type failingReads struct {
	*dataset.Memory
	class *api.StoreClass
	fail  atomic.Bool
}

func (f *failingReads) ReadPart(ctx context.Context, ref dataset.PartRef, version int64) (sp dataset.StoredPart, err error) {
	err = f.class.Do(ctx, func(ctx context.Context) error {
		if f.fail.Load() {
			return errors.New("dial tcp 127.0.0.1:5432: connect: connection refused")
		}
		sp, err = f.Memory.ReadPart(ctx, ref, version)
		return err
	})
	return sp, err
}

// coldServer serves from a store holding rows of total-load, imported at
// at, through a budget that keeps no part, so that every answer reads its
// parts from the store, whose reads fail while src.fail is set.
func coldServer(t *testing.T, rows []dataset.Row, at time.Time) (h *harness, src *failingReads, cat *dataset.Catalog) {
	t.Helper()
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	src = &failingReads{Memory: dataset.NewMemory(), class: api.NewStoreClass(api.StoreClassConfig{Slots: 2, Timeout: time.Minute}, nil)}
	load, _ := cat.Lookup("total-load")
	if _, err := dataset.Import(t.Context(), src, cat, load, rows, at); err != nil {
		t.Fatal(err)
	}
	live, err := dataset.NewLiveWith(t.Context(), cat, src, dataset.LiveOptions{Budget: budget.New(1)})
	if err != nil {
		t.Fatal(err)
	}
	h = newHarnessWith(t, apitest.Options{Catalog: cat, Source: src, Adjust: func(o *api.Options) {
		o.Data.Snapshot, o.Data.AsOf, o.Limits.StoreClass = live.Snapshot, live.AsOf, src.class
	}})
	return h, src, cat
}

// dayOfLoad returns a day's 96 quarter hours of zone's load, from day (its
// midnight) on: base MW, one more each quarter hour.
func dayOfLoad(zone string, day time.Time, base float64) []dataset.Row {
	var rows []dataset.Row
	for i := range 96 {
		rows = append(rows, dataset.Row{Time: day.Add(time.Duration(i) * 15 * time.Minute).Unix(), Text: []string{zone}, Num: []float64{base + float64(i), math.NaN()}})
	}
	return rows
}

// wantStoreDown checks that r is the answer of a store that is down.
func wantStoreDown(t *testing.T, what string, r response) {
	t.Helper()
	if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") != "1" || !strings.Contains(string(r.body), "not answering") {
		t.Fatalf("%s while the store fails: got %d, Retry-After %q, %.300s; want 503, 1, the store is not answering", what, r.status, r.header.Get("Retry-After"), r.body)
	}
}

// TestColdPartReadFailure serves from a budget that keeps no part, so that
// every answer reads its parts from the store: while the store fails, a data
// request is answered 503 with Retry-After, and once it is back, 200.
func TestColdPartReadFailure(t *testing.T) {
	start := time.Date(2024, 3, 10, 0, 0, 0, 0, time.FixedZone("CET", 3600))
	h, src, _ := coldServer(t, dayOfLoad("North", start, 1000), start)
	src.fail.Store(true)
	wantStoreDown(t, revisionsQuery, h.get(t, revisionsQuery))
	src.fail.Store(false)
	if r := h.get(t, revisionsQuery); r.status != http.StatusOK || !strings.Contains(string(r.body), `"total_load_MW":"1040`) {
		t.Fatalf("once the store is back: got %d, %.300s; want 200 with the records", r.status, r.body)
	}
}

// TestColdDerivedRead serves peak-valley, whose parts a server derives
// from total-load's when first asked, from a store whose reads fail: while
// they do, a peak-valley answer and /catalog are 503 with Retry-After; once
// the store is back, the answer holds the day's peak and valley and the
// catalogue tells peak-valley's coverage, as a server that derived every
// part when it loaded tells it.
func TestColdDerivedRead(t *testing.T) {
	march, april := time.Date(2024, 3, 10, 0, 0, 0, 0, time.FixedZone("CET", 3600)), time.Date(2024, 4, 10, 0, 0, 0, 0, time.FixedZone("CEST", 7200))
	h, src, cat := coldServer(t, append(dayOfLoad("Italy", march, 30000), dayOfLoad("Italy", april, 30000)...), april.AddDate(0, 0, 1))
	const query = peakValleyPath + "?dateFrom=10/03/2024&dateTo=10/03/2024"
	src.fail.Store(true)
	wantStoreDown(t, query, h.get(t, query))
	wantStoreDown(t, "/catalog", h.get(t, "/catalog"))
	src.fail.Store(false)
	if r := h.get(t, query); r.status != http.StatusOK || !strings.Contains(string(r.body), `"peak_load_GW":"30.095"`) {
		t.Fatalf("once the store is back: got %d, %.400s; want 200 with the day's peak", r.status, r.body)
	}
	eager, err := dataset.NewLive(t.Context(), cat, src)
	if err != nil {
		t.Fatal(err)
	}
	pv, _ := cat.Lookup("peak-valley")
	all := eager.Snapshot().Table(pv) // every part derived
	first, last, ok := all.Coverage()
	day := func(u int64) string { return time.Unix(u, 0).In(energy.Rome()).Format(time.DateOnly) }
	want := catalogCoverage{First: "2024-03-10", Last: "2024-04-10", Records: all.Records()}
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
