package api

import (
	"net/http"

	"github.com/energyapi/energyapi/internal/coding"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// writePage answers q, a paged query, with one page: read from the data
// version its first page was read from (dataset.Snapshot.Pinned), with a
// Link header naming the next page while there is one. Pages are neither
// kept in the answer cache nor given validators: each names a position,
// not a state of the data.
func writePage(w http.ResponseWriter, r *http.Request, o Options, snap *dataset.Snapshot, q *dataset.Query, f format) {
	q = snap.Pinned(q)
	if !q.AsOf.IsZero() && o.Data.AsOf == nil {
		writeQueryError(w, r, o.Log, q.Dataset, energy.Errorf(energy.Invalid,
			"parameter cursor: the data changed since the first page and this server keeps no history of them; start again without cursor"))
		return
	}
	view, err := asOf(r.Context(), o, snap, q)
	if err != nil {
		writeError(w, r, o.Log, err)
		return
	}
	sel, err := view.Select(r.Context(), q)
	if err != nil {
		writeError(w, r, o.Log, err)
		return
	}
	var body []byte
	if f == formatCSV {
		body, err = sel.AppendCSV(nil)
	} else {
		body, err = sel.AppendJSON(nil)
	}
	if err != nil {
		writeError(w, r, o.Log, err)
		return
	}
	w = answering(w)
	h := w.Header()
	if next := sel.Next(); next != "" {
		u := *r.URL
		params := u.Query()
		params.Set("cursor", next)
		u.RawQuery = params.Encode()
		h.Set("Link", "<"+u.RequestURI()+`>; rel="next"`)
	}
	if q.Resolution != 0 {
		h.Set(resolutionHeader, q.Resolution.ISO())
	}
	h["Content-Type"] = contentTypeHeaders[f]
	h["Cache-Control"] = o.cacheControl
	o.Cache.Compression.SetVary(h)
	o.Cache.Compression.ServeBody(w, r, http.StatusOK, coding.NewForms(body))
}

// resolutionHeader names the resolution of an answer to a query with one.
const resolutionHeader = "X-Resolution"
