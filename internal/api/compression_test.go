package api_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/coding"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// raw sends method path with exactly the given headers (the token added
// unless overridden): unlike h.get, no transparent gzip, so that the test
// sees the bytes on the wire. The exchange is checked against the OpenAPI
// document, decoded.
func (h *harness) raw(tb testing.TB, method, path string, headers ...string) response {
	tb.Helper()
	return h.wire(tb, true, method, path, headers...)
}

// wire is raw, checked against the OpenAPI document if check is set.
func (h *harness) wire(tb testing.TB, check bool, method, path string, headers ...string) response {
	tb.Helper()
	var rt http.RoundTripper = h.plain
	if check && method != http.MethodHead { // the document lists GET only; the server answers HEAD alike
		rt = h.contract.Transport(tb, rt)
	}
	return h.send(tb, &http.Client{Transport: rt}, method, path, headers...)
}

// decoded returns r's body decoded from its Content-Encoding.
func decoded(tb testing.TB, r response) []byte {
	tb.Helper()
	b, err := apitest.DecodeContent(r.header.Get("Content-Encoding"), r.body)
	if err != nil {
		tb.Fatalf("Content-Encoding %q: %v", r.header.Get("Content-Encoding"), err)
	}
	return b
}

// codings are the Accept-Encoding values that ask for each compressed form.
var codings = []struct {
	accept, encoding, suffix string
}{{"gzip", "gzip", "-gz"}, {"zstd", "zstd", "-zst"}}

// compressionFixture serves the fixture TestEveryDatasetAsCSV uses, with a
// Compressor the test can count.
func compressionFixture(tb testing.TB, adjust func(*api.Options)) (*harness, *coding.Compressor) {
	_, last := demo.LoadRange()
	return compressionHarness(tb, apitest.Options{
		Data: apitest.Rows{"thermoelectric": demo.Thermoelectric()},
		Load: demo.TotalLoad(last.AddDays(-2), last),
	}, adjust)
}

func compressionHarness(tb testing.TB, o apitest.Options, adjust func(*api.Options)) (*harness, *coding.Compressor) {
	z := coding.New()
	o.Adjust = func(o *api.Options) {
		o.Cache.Compression = z
		if adjust != nil {
			adjust(o)
		}
	}
	return newHarnessWith(tb, o), z
}

// demoDays returns the catalogue with every dataset's demo data of the
// days first to last, generated as serve --demo generates them. Each range
// is generated once per test binary: several tests read the same days, and
// none writes (a PartSource is read-only).
func demoDays(tb testing.TB, first, last energy.Date) (*dataset.Catalog, dataset.PartSource) {
	tb.Helper()
	e := demoRangeOf(first, last)
	if e.err != nil {
		tb.Fatal(e.err)
	}
	return e.cat, e.src
}

// demoRangeOf returns the days first to last of the demo data, generated
// on the first call.
func demoRangeOf(first, last energy.Date) *demoRange {
	demoRanges.mu.Lock()
	e := demoRanges.byRange[[2]energy.Date{first, last}]
	if e == nil {
		e = &demoRange{}
		demoRanges.byRange[[2]energy.Date{first, last}] = e
	}
	demoRanges.mu.Unlock()
	e.once.Do(func() { e.cat, e.src, e.err = generateDemoDays(first, last) })
	return e
}

// demoRanges holds demoDays' data by range once generated.
var demoRanges = struct {
	mu      sync.Mutex
	byRange map[[2]energy.Date]*demoRange
}{byRange: map[[2]energy.Date]*demoRange{}}

type demoRange struct {
	once sync.Once
	cat  *dataset.Catalog
	src  dataset.PartSource
	err  error
}

func generateDemoDays(first, last energy.Date) (*dataset.Catalog, dataset.PartSource, error) {
	cat, err := catalog.New()
	if err != nil {
		return nil, nil, err
	}
	m := dataset.NewMemory()
	in := dataset.DemoInput{First: first, Last: last, Seed: demo.DefaultSeed}
	err = cat.EachDemo(in, func(_, _ int, d *dataset.Dataset, generate func() []dataset.Row) error {
		rows, err := demoRows(d, generate)
		if err == nil {
			_, err = dataset.Import(context.Background(), m, cat, d, rows, time.Unix(0, 0))
		}
		return err
	})
	return cat, m, err
}

// demoRows returns generate's records of d, or, for the statistics that do
// not depend on the range (rangeFree), a copy of those generated once per
// test binary: several seconds of every range's generation under the race
// detector.
func demoRows(d *dataset.Dataset, generate func() []dataset.Row) ([]dataset.Row, error) {
	if !rangeFree(d) {
		return generate(), nil
	}
	stats, err := demoStatistics()
	if err != nil {
		return nil, err
	}
	rows, ok := stats[d.Name]
	if !ok {
		return nil, fmt.Errorf("no statistics of %s generated", d.Name)
	}
	// A deep copy: an import may reorder the rows it is given.
	out := make([]dataset.Row, len(rows))
	for i, r := range rows {
		out[i] = r
		out[i].Text, out[i].Num = slices.Clone(r.Text), slices.Clone(r.Num)
	}
	return out, nil
}

// rangeFree reports whether d's demo data are the same whatever the range:
// a monthly or yearly statistic that reads no other dataset, which serve
// --demo writes once (dataset.DemoPeriod.Holds).
func rangeFree(d *dataset.Dataset) bool { return d.Grain >= dataset.Month && len(d.DemoFrom) == 0 }

// demoStatistics generates the records of every rangeFree dataset once,
// by dataset name, for one day's range (any would do).
var demoStatistics = sync.OnceValues(func() (map[string][]dataset.Row, error) {
	cat, err := catalog.New()
	if err != nil {
		return nil, err
	}
	out := map[string][]dataset.Row{}
	day := energy.Date{Year: 2024, Month: time.January, Day: 1}
	err = cat.EachDemo(dataset.DemoInput{First: day, Last: day, Seed: demo.DefaultSeed}, func(_, _ int, d *dataset.Dataset, generate func() []dataset.Row) error {
		if rangeFree(d) {
			out[d.Name] = generate()
		}
		return nil
	})
	return out, err
})

// TestCompressedAnswersEveryDataset: for every dataset with data, in JSON
// and CSV, a caller without Accept-Encoding gets the identity bytes; gzip
// and zstd answers decode to exactly those bytes, each under its own
// strong ETag that a conditional request with it answers 304; HEAD
// answers carry the GET's headers.
func TestCompressedAnswersEveryDataset(t *testing.T) {
	t.Parallel()
	cat, src := demoDays(t, energy.Date{Year: 2024, Month: time.October, Day: 26}, energy.Date{Year: 2024, Month: time.October, Day: 27})
	h, _ := compressionHarness(t, apitest.Options{Catalog: cat, Source: src}, nil)
	// Every exchange is also checked against the OpenAPI document.
	raw := func(tb testing.TB, method, path string, headers ...string) response {
		tb.Helper()
		return h.wire(tb, true, method, path, headers...)
	}
	compressed := 0
	for _, d := range catalogueQueries(t, h) {
		path, q := d.Path, d.Query
		for _, format := range []string{"json", "csv"} {
			t.Run(path+"/"+format, func(t *testing.T) {
				u := path + "?" + q + "&format=" + format
				id := raw(t, http.MethodGet, u)
				tag := id.header.Get("ETag")
				if id.status != http.StatusOK || len(id.body) == 0 || tag == "" {
					t.Fatalf("identity: got %d, %d bytes, ETag %q", id.status, len(id.body), tag)
				}
				if ce := id.header.Get("Content-Encoding"); ce != "" {
					t.Fatalf("no Accept-Encoding: got Content-Encoding %q", ce)
				}
				wantHeader(t, "identity", id, "Vary", "Accept-Encoding")
				for _, c := range codings {
					r := raw(t, http.MethodGet, u, "Accept-Encoding", c.accept)
					if len(id.body) < coding.MinSize {
						if r.header.Get("Content-Encoding") != "" || !bytes.Equal(r.body, id.body) || r.header.Get("ETag") != tag {
							t.Errorf("%s, %d bytes: got Content-Encoding %q, ETag %q; want the identity answer below %d bytes",
								c.accept, len(id.body), r.header.Get("Content-Encoding"), r.header.Get("ETag"), coding.MinSize)
						}
						continue
					}
					compressed++
					ctag := tag[:len(tag)-1] + c.suffix + `"`
					wantHeader(t, c.accept, r, "Content-Encoding", c.encoding)
					wantHeader(t, c.accept, r, "Vary", "Accept-Encoding")
					wantHeader(t, c.accept, r, "ETag", ctag)
					wantHeader(t, c.accept, r, "Content-Type", id.header.Get("Content-Type"))
					if got := decoded(t, r); !bytes.Equal(got, id.body) {
						t.Errorf("%s: decodes to %d bytes that differ from the %d identity bytes", c.accept, len(got), len(id.body))
					}
					if len(r.body) >= len(id.body) {
						t.Errorf("%s: %d bytes, not smaller than the identity %d", c.accept, len(r.body), len(id.body))
					}
					nm := raw(t, http.MethodGet, u, "Accept-Encoding", c.accept, "If-None-Match", ctag)
					if nm.status != http.StatusNotModified || len(nm.body) != 0 {
						t.Errorf("%s, If-None-Match %s: got %d with %d bytes, want 304", c.accept, ctag, nm.status, len(nm.body))
					}
					wantHeader(t, c.accept+" 304", nm, "ETag", ctag)
					wantHeader(t, c.accept+" 304", nm, "Vary", "Accept-Encoding")
					head := raw(t, http.MethodHead, u, "Accept-Encoding", c.accept)
					for _, k := range []string{"Content-Encoding", "Content-Length", "Content-Type", "ETag", "Vary", "Last-Modified", "Cache-Control"} {
						wantHeader(t, c.accept+" HEAD", head, k, r.header.Get(k))
					}
				}
				// The identity tag gets its 304 without Accept-Encoding.
				if nm := raw(t, http.MethodGet, u, "If-None-Match", tag); nm.status != http.StatusNotModified || nm.header.Get("ETag") != tag {
					t.Errorf("identity, If-None-Match %s: got %d, ETag %q; want 304 and the tag", tag, nm.status, nm.header.Get("ETag"))
				}
			})
		}
	}
	if compressed == 0 {
		t.Error("no answer was large enough to compress")
	}
	t.Logf("%d answers compressed (gzip and zstd), the others below %d bytes", compressed/2, coding.MinSize)
}

func wantHeader(tb testing.TB, what string, r response, name, want string) {
	tb.Helper()
	if got := r.header.Get(name); got != want {
		tb.Errorf("%s: %s %q, want %q", what, name, got, want)
	}
}

// thermoYear is all of Italy's thermoelectric production in a year: about
// 74 KB as JSON.
const thermoYear = "/generation/v2.0/thermoelectric-production?year=2023"

// TestAcceptEncodingWeights: weights choose the coding, q=0 refuses one,
// identity refused compresses even a small answer, and a caller that
// refuses every coding the server has gets 406.
func TestAcceptEncodingWeights(t *testing.T) {
	t.Parallel()
	h, _ := compressionFixture(t, nil)
	_, last := demo.LoadRange()
	small := "/load/v2.0/peak-valley-load?dateFrom=" + last.DMY() + "&dateTo=" + last.DMY()
	if r := h.raw(t, http.MethodGet, small); len(r.body) >= coding.MinSize {
		t.Fatalf("%s: %d bytes, want a small answer", small, len(r.body))
	}
	tests := []struct {
		name, path, accept string
		status             int
		encoding           string
	}{
		{"gzip and zstd", thermoYear, "gzip, zstd", 200, "gzip"},
		{"zstd preferred", thermoYear, "gzip;q=0.5, zstd;q=1", 200, "zstd"},
		{"zstd refused", thermoYear, "zstd;q=0, gzip", 200, "gzip"},
		{"both refused", thermoYear, "zstd;q=0, gzip;q=0", 200, ""},
		{"identity only", thermoYear, "identity", 200, ""},
		{"identity preferred", thermoYear, "identity;q=1, gzip;q=0.5", 200, ""},
		{"unknown codings", thermoYear, "br, deflate", 200, ""},
		{"small answer", small, "gzip", 200, ""},
		{"small answer, identity refused", small, "gzip, identity;q=0", 200, "gzip"},
		{"everything refused", thermoYear, "identity;q=0", 406, ""},
		{"only unknown codings, identity refused", thermoYear, "br, *;q=0", 406, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := h.raw(t, http.MethodGet, tt.path, "Accept-Encoding", tt.accept)
			if r.status != tt.status || r.header.Get("Content-Encoding") != tt.encoding {
				t.Fatalf("got %d, Content-Encoding %q; want %d, %q", r.status, r.header.Get("Content-Encoding"), tt.status, tt.encoding)
			}
			if tt.status == http.StatusNotAcceptable {
				wantError(t, r, http.StatusNotAcceptable, "Accept-Encoding")
				return
			}
			want := h.raw(t, http.MethodGet, tt.path).body
			if got := decoded(t, r); !bytes.Equal(got, want) {
				t.Errorf("decodes to %d bytes that differ from the %d identity bytes", len(got), len(want))
			}
		})
	}
}

// TestCompressedOncePerVersion counts compressions: the first gzip request
// for an answer compresses it, later ones (the same query string, another
// spelling of the same query, a revalidation) serve the kept form.
func TestCompressedOncePerVersion(t *testing.T) {
	t.Parallel()
	h, z := compressionFixture(t, nil)
	gz := func(path string, headers ...string) response {
		return h.raw(t, http.MethodGet, path, append([]string{"Accept-Encoding", "gzip"}, headers...)...)
	}
	first := gz(thermoYear)
	if first.header.Get("Content-Encoding") != "gzip" || z.Made() != 1 {
		t.Fatalf("first request: Content-Encoding %q, %d compressions; want gzip, 1", first.header.Get("Content-Encoding"), z.Made())
	}
	for _, again := range []response{
		gz(thermoYear),
		gz(thermoYear + "&"), // parsed anew, the same answer in cache
		h.raw(t, http.MethodHead, thermoYear, "Accept-Encoding", "gzip"),
		gz(thermoYear, "If-None-Match", first.header.Get("ETag")),
	} {
		if again.status == http.StatusOK && !bytes.Equal(again.body, first.body) && len(again.body) > 0 {
			t.Errorf("a repeated request got other bytes")
		}
	}
	if n := z.Made(); n != 1 {
		t.Errorf("%d compressions after four more requests for the cached answer, want 1", n)
	}
	// zstd is its own form: compressed once too.
	h.raw(t, http.MethodGet, thermoYear, "Accept-Encoding", "zstd")
	h.raw(t, http.MethodGet, thermoYear, "Accept-Encoding", "zstd")
	if n := z.Made(); n != 2 {
		t.Errorf("%d compressions after two zstd requests, want 2", n)
	}
}

// TestGzipMadeWhileEncoding: a large answer a gzip request makes is
// compressed while it is encoded (coding.Pipe), once, and its gzip form
// is the very bytes compressing the identity answer afterwards makes.
func TestGzipMadeWhileEncoding(t *testing.T) {
	t.Parallel()
	h, z := compressionFixture(t, nil)
	_, last := demo.LoadRange()
	// The first answer of a dataset teaches the cache its bytes a record.
	learn := h.raw(t, http.MethodGet, "/load/v2.0/total-load?dateFrom="+last.DMY()+"&dateTo="+last.DMY(), "Accept-Encoding", "gzip")
	if learn.status != http.StatusOK {
		t.Fatalf("one day: got %d", learn.status)
	}
	made := z.Made()
	u := "/load/v2.0/total-load?dateFrom=" + last.AddDays(-2).DMY() + "&dateTo=" + last.DMY()
	gz := h.raw(t, http.MethodGet, u, "Accept-Encoding", "gzip")
	id := h.raw(t, http.MethodGet, u)
	if len(id.body) < 2*api.PipeMin {
		t.Fatalf("three days: %d bytes, too few to be compressed while encoded", len(id.body))
	}
	if gz.header.Get("Content-Encoding") != "gzip" || z.Made() != made+1 {
		t.Fatalf("three days: Content-Encoding %q, %d compressions; want gzip, 1", gz.header.Get("Content-Encoding"), z.Made()-made)
	}
	if want := coding.NewForms(id.body).Make(coding.New(), coding.Gzip); !bytes.Equal(gz.body, want) {
		t.Errorf("gzip form: %d bytes that differ from the %d of compressing the identity answer", len(gz.body), len(want))
	}
}

// TestLargeAnswersCompressedAsWritten: an answer too large for the cache
// is compressed as it is written, to the same bytes, and each request
// compresses it again (nothing is kept); HEAD has the GET's headers.
func TestLargeAnswersCompressedAsWritten(t *testing.T) {
	t.Parallel()
	h, z := compressionFixture(t, func(o *api.Options) { o.Cache.AnswerBytes = 0 })
	id := h.raw(t, http.MethodGet, thermoYear)
	for _, c := range codings {
		before := z.Made()
		r := h.raw(t, http.MethodGet, thermoYear, "Accept-Encoding", c.accept)
		if r.header.Get("Content-Encoding") != c.encoding || !bytes.Equal(decoded(t, r), id.body) {
			t.Errorf("%s: Content-Encoding %q; want %s decoding to the identity bytes", c.accept, r.header.Get("Content-Encoding"), c.encoding)
		}
		if z.Made() != before+1 {
			t.Errorf("%s: %d compressions, want 1", c.accept, z.Made()-before)
		}
		// The same bytes as a cached answer would have.
		if want := z.Append(nil, codingOf(c.encoding), id.body); !bytes.Equal(r.body, want) {
			t.Errorf("%s: %d bytes written differ from the %d of the cached form", c.accept, len(r.body), len(want))
		}
		head := h.raw(t, http.MethodHead, thermoYear, "Accept-Encoding", c.accept)
		for _, k := range []string{"Content-Encoding", "Content-Length", "Content-Type", "ETag", "Vary"} {
			wantHeader(t, c.accept+" HEAD", head, k, r.header.Get(k))
		}
	}
}

func codingOf(name string) coding.Coding {
	if name == "zstd" {
		return coding.Zstd
	}
	return coding.Gzip
}

// TestCompressionOff: without a Compressor (serve --compression=false)
// answers are identity and do not vary.
func TestCompressionOff(t *testing.T) {
	t.Parallel()
	h, _ := compressionFixture(t, func(o *api.Options) { o.Cache.Compression = nil })
	for _, p := range []string{thermoYear, "/catalog", "/openapi.json"} {
		r := h.raw(t, http.MethodGet, p, "Accept-Encoding", "gzip, zstd")
		if r.status != http.StatusOK || r.header.Get("Content-Encoding") != "" || r.header.Get("Vary") != "" {
			t.Errorf("%s: got %d, Content-Encoding %q, Vary %q; want 200 as it is", p, r.status, r.header.Get("Content-Encoding"), r.header.Get("Vary"))
		}
	}
}

// TestPublicDocumentsCompressed: /catalog and the OpenAPI document, in
// both encodings, are compressed once and decode to their identity bytes;
// the documents' ETags differ per coding and each gets its 304.
func TestPublicDocumentsCompressed(t *testing.T) {
	t.Parallel()
	h, z := compressionFixture(t, nil)
	for _, p := range []string{"/catalog", "/openapi.json", "/openapi.yaml"} {
		id := h.raw(t, http.MethodGet, p, "Authorization", "")
		wantHeader(t, p+" identity", id, "Vary", "Accept-Encoding")
		for _, c := range codings {
			before := z.Made()
			r := h.raw(t, http.MethodGet, p, "Authorization", "", "Accept-Encoding", c.accept)
			again := h.raw(t, http.MethodGet, p, "Authorization", "", "Accept-Encoding", c.accept)
			wantHeader(t, p+" "+c.accept, r, "Content-Encoding", c.encoding)
			wantHeader(t, p+" "+c.accept, r, "Vary", "Accept-Encoding")
			if got := decoded(t, r); !bytes.Equal(got, id.body) || !bytes.Equal(again.body, r.body) {
				t.Errorf("%s %s: does not decode to the identity bytes, or differs when asked again", p, c.accept)
			}
			if n := z.Made() - before; n != 1 {
				t.Errorf("%s %s: %d compressions for two requests, want 1", p, c.accept, n)
			}
			tag := id.header.Get("ETag")
			if tag == "" {
				continue // the catalogue has no ETag
			}
			ctag := tag[:len(tag)-1] + c.suffix + `"`
			wantHeader(t, p+" "+c.accept, r, "ETag", ctag)
			nm := h.raw(t, http.MethodGet, p, "Authorization", "", "Accept-Encoding", c.accept, "If-None-Match", ctag)
			if nm.status != http.StatusNotModified {
				t.Errorf("%s %s If-None-Match %s: got %d, want 304", p, c.accept, ctag, nm.status)
			}
		}
	}
}

// BenchmarkCompressedAnswer measures the all-Italy thermoelectric year in
// gzip through the handler: served from its kept form, which costs no
// compression (compressions/op 0, and the allocations of an identity
// answer), and compressed on every request, as with no answer cache.
func BenchmarkCompressedAnswer(b *testing.B) {
	for _, tc := range []struct {
		name   string
		budget int
	}{{"cached", 8 << 20}, {"compressed-each-time", 0}} {
		b.Run(tc.name, func(b *testing.B) {
			z := coding.New()
			h := newHarnessWith(b, apitest.Options{Data: demoData(b), Adjust: func(o *api.Options) {
				o.Cache.Compression, o.Cache.AnswerBytes = z, tc.budget
			}})
			handler := h.srv.Handler()
			req := httptest.NewRequest(http.MethodGet, thermoYear, nil)
			req.Header.Set("Authorization", "Bearer "+h.token)
			req.Header.Set("Accept-Encoding", "gzip")
			w := httptest.NewRecorder()
			handler.ServeHTTP(w, req)
			if w.Code != http.StatusOK || w.Header().Get("Content-Encoding") != "gzip" {
				b.Fatalf("status %d, Content-Encoding %q", w.Code, w.Header().Get("Content-Encoding"))
			}
			b.SetBytes(int64(w.Body.Len()))
			before := z.Made()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				handler.ServeHTTP(httptest.NewRecorder(), req)
			}
			b.ReportMetric(float64(z.Made()-before)/float64(b.N), "compressions/op")
		})
	}
}

// TestConditionalRequestsPerCoding: If-Modified-Since gets a 304 carrying
// the tag of the form the caller would get, first request or not; the tag
// of another form the caller admits is a 304 under that tag; one it does
// not admit is a 200.
func TestConditionalRequestsPerCoding(t *testing.T) {
	t.Parallel()
	h, _ := compressionFixture(t, nil)
	id := h.raw(t, http.MethodGet, thermoYear)
	tag, modified := id.header.Get("ETag"), id.header.Get("Last-Modified")
	gz := tag[:len(tag)-1] + `-gz"`
	if modified == "" {
		t.Fatal("no Last-Modified")
	}
	tests := []struct {
		name, query string
		headers     []string
		status      int
		etag        string
	}{
		// A query string not seen before: the answer is not remembered.
		{"If-Modified-Since, gzip, new query", thermoYear + "&x=1", []string{"Accept-Encoding", "gzip", "If-Modified-Since", modified}, 304, gz},
		{"If-Modified-Since, gzip", thermoYear, []string{"Accept-Encoding", "gzip", "If-Modified-Since", modified}, 304, gz},
		{"If-Modified-Since, identity refused and nothing else", thermoYear + "&x=2", []string{"Accept-Encoding", "identity;q=0", "If-Modified-Since", modified}, 406, ""},
		{"identity tag, gzip admitted", thermoYear + "&x=3", []string{"Accept-Encoding", "gzip", "If-None-Match", tag}, 304, tag},
		{"gzip tag, gzip refused", thermoYear, []string{"Accept-Encoding", "zstd", "If-None-Match", gz}, 200, tag[:len(tag)-1] + `-zst"`},
		{"gzip tag, no Accept-Encoding", thermoYear + "&x=4", []string{"If-None-Match", gz}, 200, tag},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := h.raw(t, http.MethodGet, tt.query, tt.headers...)
			if r.status != tt.status || r.header.Get("ETag") != tt.etag {
				t.Errorf("got %d, ETag %q; want %d, %q", r.status, r.header.Get("ETag"), tt.status, tt.etag)
			}
		})
	}
}
