package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/budget"
	"github.com/energyapi/energyapi/internal/bulk"
	"github.com/energyapi/energyapi/internal/energy"
)

// bulkLoad is two days of one zone's quarter-hourly load, in two months.
func bulkLoad() []energy.LoadPoint {
	var pts []energy.LoadPoint
	for _, day := range []time.Time{time.Date(2024, 3, 31, 0, 0, 0, 0, energy.Rome()), time.Date(2024, 4, 1, 0, 0, 0, 0, energy.Rome())} {
		for at := day; at.Before(day.AddDate(0, 0, 1)); at = at.Add(15 * time.Minute) {
			pts = append(pts, energy.LoadPoint{At: at, Zone: "North", TotalMW: 20000.5, ForecastMW: 20100})
		}
	}
	return pts
}

func TestBulkIsOptIn(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, apitest.Options{Load: bulkLoad()})
	// Not through the OpenAPI check: the document describes /bulk, which
	// this server does not serve.
	if r := h.send(t, http.DefaultClient, http.MethodGet, "/bulk"); r.status != http.StatusNotFound {
		t.Errorf("GET /bulk without Data.Bulk: got %d, want 404", r.status)
	}
}

func TestBulkManifestAndFileConditionals(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, apitest.Options{Load: bulkLoad(), Adjust: func(o *api.Options) {
		o.Data.Bulk = bulk.New(o.Data.Catalog, budget.New(32<<20))
	}})
	if r := h.get(t, "/bulk"); r.status != http.StatusOK || !strings.Contains(string(r.body), `"periods":["2024-03","2024-04"]`) {
		t.Fatalf("GET /bulk: got %d %s, want total-load's two months", r.status, r.body)
	}
	m := h.get(t, "/bulk/total-load?from=2024-03&to=2024-03")
	var man struct {
		Files []struct {
			URL, ETag, Format string
			Size              int64
			Records           int
		}
	}
	if err := json.Unmarshal(m.body, &man); err != nil || m.status != http.StatusOK || len(man.Files) != 2 || man.Files[0].Records != 92 {
		t.Fatalf("manifest: got %d %s (%v), want March's two files of 92 records", m.status, m.body, err)
	}
	if r := h.get(t, "/bulk/total-load?from=2024-03&to=2024-03", "If-None-Match", m.header.Get("ETag")); r.status != http.StatusNotModified {
		t.Errorf("manifest with its ETag: got %d, want 304", r.status)
	}
	// The files go around the OpenAPI check, whose decoder reads no Parquet.
	f := man.Files[0]
	file := func(headers ...string) response {
		return h.send(t, http.DefaultClient, http.MethodGet, f.URL, headers...)
	}
	if r := file("If-None-Match", f.ETag); r.status != http.StatusNotModified {
		t.Errorf("file with its ETag: got %d, want 304", r.status)
	}
	whole := file()
	if whole.status != http.StatusOK || int64(len(whole.body)) != f.Size || whole.header.Get("ETag") != f.ETag {
		t.Fatalf("file: got %d, %d bytes, tag %s; want 200, %d bytes, tag %s", whole.status, len(whole.body), whole.header.Get("ETag"), f.Size, f.ETag)
	}
	r := file("Range", "bytes=-8", "If-Range", f.ETag)
	if r.status != http.StatusPartialContent || string(r.body) != string(whole.body[len(whole.body)-8:]) {
		t.Errorf("footer by Range: got %d %q, want 206 and the last 8 bytes", r.status, r.body)
	}
	for _, c := range []struct {
		path   string
		status int
	}{
		{"/bulk/total-load?from=2024-03", http.StatusBadRequest},
		{"/bulk/nothing?from=2024&to=2024", http.StatusNotFound},
		{"/bulk/total-load/2024-05.parquet", http.StatusNotFound},
		{"/bulk/total-load/2024-03.xlsx", http.StatusNotFound},
	} {
		if r := h.send(t, http.DefaultClient, http.MethodGet, c.path); r.status != c.status {
			t.Errorf("GET %s: got %d, want %d", c.path, r.status, c.status)
		}
	}
}
