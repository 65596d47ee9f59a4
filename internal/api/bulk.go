package api

import (
	"bytes"
	"hash/fnv"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/bulk"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// The bulk files (Data.Bulk): GET /bulk lists every dataset and its
// periods without producing anything; GET /bulk/{dataset}?from=&to= is the
// manifest of a range of periods, each file's size and SHA-256 with it,
// producing the files not produced yet; GET /bulk/{dataset}/{file} is a
// file, with Range and conditional requests. See docs/choices.md.

// maxManifestPeriods bounds the periods one manifest covers, so that one
// request produces at most this many files of each format: three years of
// a monthly series, every year of the yearly statistics.
const maxManifestPeriods = 36

// bulkEndpoint wraps a bulk handler in what data endpoints share but the
// content negotiation: a file is Parquet or gzip, whatever Accept says.
func bulkEndpoint(o Options, h http.Handler) http.Handler {
	fail := func(w http.ResponseWriter, r *http.Request, err error) { writeError(w, r, o.Log, err) }
	limited := injectFaults(o, "bulk", clientOf, limitClient(o, "bulk", h))
	return journaled(o, "bulk", auth.RequireBearerRecorded(o.Auth.Tokens, fail, recordClient)(limited))
}

// bulkIndexBody is GET /bulk: every dataset, its periods and its manifest.
type bulkIndexBody struct {
	Formats  []bulk.Format     `json:"formats"`
	Datasets []bulkDatasetBody `json:"datasets"`
}

type bulkDatasetBody struct {
	Dataset     string   `json:"dataset"`
	Path        string   `json:"path"`
	Period      string   `json:"period"` // month or year
	DataVersion int64    `json:"data_version"`
	Manifest    string   `json:"manifest"` // the manifest's URL, to which from and to are added
	Periods     []string `json:"periods"`
}

// handleBulkIndex lists, from the snapshot's metadata alone, every
// dataset's periods: nothing is read, derived or produced.
func handleBulkIndex(o Options) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		snap := o.Data.Snapshot()
		out := bulkIndexBody{Formats: bulk.Formats, Datasets: []bulkDatasetBody{}}
		for _, d := range o.Data.Catalog.All() {
			b := bulkDatasetBody{Dataset: d.Name, Path: d.Path(), Period: periodKind(d), Manifest: "/bulk/" + d.Name, Periods: []string{}}
			for _, m := range snap.Periods(d) {
				b.Periods = append(b.Periods, m.ID)
				b.DataVersion = max(b.DataVersion, m.Version)
			}
			out.Datasets = append(out.Datasets, b)
		}
		w.Header().Set("Cache-Control", o.Cache.Control)
		encode(w, http.StatusOK, out)
	})
}

// periodKind names the period of d's files.
func periodKind(d *dataset.Dataset) string {
	if d.Grain >= dataset.Month {
		return "year"
	}
	return "month"
}

// bulkManifestBody is GET /bulk/{dataset}: the files of a range of periods.
type bulkManifestBody struct {
	Dataset string         `json:"dataset"`
	Period  string         `json:"period"`
	From    string         `json:"from"`
	To      string         `json:"to"`
	Files   []bulkFileBody `json:"files"`
}

type bulkFileBody struct {
	Period       string      `json:"period"`
	Format       bulk.Format `json:"format"`
	URL          string      `json:"url"`
	Size         int64       `json:"size"`
	Records      int         `json:"records"`
	SHA256       string      `json:"sha256"`
	DataVersion  int64       `json:"data_version"`
	ETag         string      `json:"etag"`
	LastModified string      `json:"last_modified"` // RFC 3339, UTC
}

// handleBulkManifest describes the files of the periods from..to of a
// dataset. Its ETag comes from the files' tags, known without producing
// them: a mirror that holds the manifest gets 304 at no cost. Otherwise
// the files not produced yet are produced now.
func handleBulkManifest(o Options) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, ok := o.Data.Catalog.Lookup(r.PathValue("dataset"))
		if !ok {
			writeError(w, r, o.Log, energy.Errorf(energy.NotFound, "Not Found: no dataset %s (GET /bulk lists them)", r.PathValue("dataset")))
			return
		}
		q := r.URL.Query()
		from, to := q.Get("from"), q.Get("to")
		snap := o.Data.Snapshot()
		periods, err := manifestPeriods(snap.Periods(d), from, to)
		if err != nil {
			writeError(w, r, o.Log, err)
			return
		}
		tag := manifestTag(d, periods)
		w.Header().Set("ETag", tag)
		w.Header().Set("Cache-Control", o.Cache.Control)
		if inm := r.Header.Get("If-None-Match"); inm != "" && etagMatches(inm, tag) {
			answering(w).WriteHeader(http.StatusNotModified)
			return
		}
		out := bulkManifestBody{Dataset: d.Name, Period: periodKind(d), From: from, To: to, Files: []bulkFileBody{}}
		for _, m := range periods {
			for _, f := range bulk.Formats {
				in, err := o.Data.Bulk.Info(r.Context(), snap, d, m.ID, f)
				if err != nil {
					writeError(w, r, o.Log, err)
					return
				}
				out.Files = append(out.Files, bulkFileBody{
					Period: in.Period, Format: f, URL: "/bulk/" + d.Name + "/" + in.Period + "." + string(f),
					Size: in.Size, Records: in.Records, SHA256: in.SHA256, DataVersion: in.Version, ETag: in.Tag,
					LastModified: in.Modified.Format(time.RFC3339Nano),
				})
			}
		}
		encode(answering(w), http.StatusOK, out)
	})
}

// manifestPeriods returns the periods of ms from from to to, both
// included: a month yyyy-mm or a year yyyy each, a year standing for
// its months. It returns an error with code Invalid when either is
// missing or malformed, or the range holds more than maxManifestPeriods.
func manifestPeriods(ms []dataset.PartMeta, from, to string) ([]dataset.PartMeta, error) {
	for _, p := range []struct{ name, v string }{{"from", from}, {"to", to}} {
		if _, _, ok := dataset.PartDays(p.v); !ok {
			return nil, energy.Errorf(energy.Invalid, "parameter %s value %q is not a period: a month yyyy-mm or a year yyyy (required)", p.name, p.v)
		}
	}
	var out []dataset.PartMeta
	for _, m := range ms {
		// A period is in the range when it starts no earlier than from and
		// its prefix as long as to is no later: "2024-03" lies within 2024.
		if m.ID >= from && m.ID[:min(len(to), len(m.ID))] <= to {
			out = append(out, m)
		}
	}
	if len(out) > maxManifestPeriods {
		return nil, energy.Errorf(energy.Invalid, "from %s to %s holds %d periods: a manifest covers at most %d; narrow the range", from, to, len(out), maxManifestPeriods)
	}
	return out, nil
}

// manifestTag is the ETag of the manifest of periods of d: it changes
// when a file's tag does.
func manifestTag(d *dataset.Dataset, periods []dataset.PartMeta) string {
	h := fnv.New64a()
	for _, m := range periods {
		for _, f := range bulk.Formats {
			io.WriteString(h, bulk.Tag(d.Name, m, f))
		}
	}
	return `"m` + strconv.FormatUint(h.Sum64(), 36) + `"`
}

// handleBulkFile serves one file. A caller whose If-None-Match names the
// file's tag gets 304 before the file is produced; otherwise
// http.ServeContent answers Range, If-Range, If-Match and the rest from
// the kept bytes.
func handleBulkFile(o Options) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, ok := o.Data.Catalog.Lookup(r.PathValue("dataset"))
		period, f, named := bulk.ParseName(r.PathValue("file"))
		if !ok || !named {
			writeError(w, r, o.Log, energy.Errorf(energy.NotFound, "Not Found: no bulk file at %s (GET /bulk lists them)", r.URL.Path))
			return
		}
		snap := o.Data.Snapshot()
		m, ok, err := snap.Period(r.Context(), d, period)
		if err == nil && !ok {
			err = energy.Errorf(energy.NotFound, "Not Found: %s has no period %s", d.Name, period)
		}
		if err != nil {
			writeError(w, r, o.Log, err)
			return
		}
		h := w.Header()
		h.Set("ETag", bulk.Tag(d.Name, m, f))
		h.Set("Cache-Control", o.Cache.Control)
		if inm := r.Header.Get("If-None-Match"); inm != "" && etagMatches(inm, h.Get("ETag")) {
			answering(w).WriteHeader(http.StatusNotModified)
			return
		}
		file, err := o.Data.Bulk.File(r.Context(), snap, d, period, f)
		if err != nil {
			writeError(w, r, o.Log, err)
			return
		}
		w = answering(w)
		h = w.Header()
		h.Set("Content-Type", f.ContentType())
		h.Set("Content-Disposition", `attachment; filename="`+d.Name+"_"+period+"."+string(f)+`"`)
		http.ServeContent(w, r, "", file.Modified, bytes.NewReader(file.Body))
	})
}
