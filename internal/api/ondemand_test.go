package api_test

import (
	"context"
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

// TestColdPartReadFailure serves from a budget that keeps no part, so that
// every answer reads its parts from the store: while the store fails, a data
// request is answered 503 with Retry-After, and once it is back, 200.
func TestColdPartReadFailure(t *testing.T) {
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	src := &failingReads{Memory: dataset.NewMemory(), class: api.NewStoreClass(api.StoreClassConfig{Slots: 2, Timeout: time.Minute}, nil)}
	load, _ := cat.Lookup("total-load")
	start := time.Date(2024, 3, 10, 0, 0, 0, 0, time.FixedZone("CET", 3600))
	var rows []dataset.Row
	for i := range 96 {
		rows = append(rows, dataset.Row{Time: start.Add(time.Duration(i) * 15 * time.Minute).Unix(), Text: []string{"North"}, Num: []float64{float64(1000 + i), math.NaN()}})
	}
	if _, err := dataset.Import(t.Context(), src, cat, load, rows, start); err != nil {
		t.Fatal(err)
	}
	live, err := dataset.NewLiveWith(t.Context(), cat, src, dataset.LiveOptions{Budget: budget.New(1)})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, apitest.Options{Catalog: cat, Source: src, Adjust: func(o *api.Options) {
		o.Data.Snapshot, o.Data.AsOf, o.Limits.StoreClass = live.Snapshot, live.AsOf, src.class
	}})
	src.fail.Store(true)
	r := h.get(t, revisionsQuery)
	if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") != "1" || !strings.Contains(string(r.body), "not answering") {
		t.Fatalf("while the store fails: got %d, Retry-After %q, %s; want 503, 1, the store is not answering", r.status, r.header.Get("Retry-After"), r.body)
	}
	src.fail.Store(false)
	if r := h.get(t, revisionsQuery); r.status != http.StatusOK || !strings.Contains(string(r.body), `"total_load_MW":"1040`) {
		t.Fatalf("once the store is back: got %d, %.300s; want 200 with the records", r.status, r.body)
	}
}
