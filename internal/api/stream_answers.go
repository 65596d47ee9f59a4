package api

import (
	"context"
	"net/http"

	"github.com/energyapi/energyapi/internal/coding"
	"github.com/energyapi/energyapi/internal/dataset"
)

// streamChunk is the buffer a streamed answer is encoded in, and sent
// from each time it is nearly full.
const streamChunk = 64 << 10

// streamHold is what a streamed answer holds in the budget while written:
// its chunk buffer and about an encoder's state. In a budget so small
// that this would crowd it, a sixteenth of the budget instead.
const streamHold = 1 << 20

// streams reports whether the answer of records records in pk's format is
// expected to take more than half the budget: holding it would push out
// nearly everything else, so it is streamed rather than built. Without an
// answer of the dataset and format encoded yet, q's estimate is expected.
func (c *answerCache) streams(pk perRecordKey, records int, q *dataset.Query) bool {
	if c.b == nil {
		return false
	}
	c.mu.Lock()
	per := c.perRecord[pk]
	c.mu.Unlock()
	if per == 0 {
		per = int64(q.RecordBytes())
	}
	return int64(records)*per > c.b.Limit()/2
}

// learn remembers the bytes a record took in an answer of records records
// and n bytes, for the next answer of pk's dataset and format to expect.
// The caller holds c.mu.
func (c *answerCache) learn(pk perRecordKey, records int, n int64) {
	if records > 0 {
		c.perRecord[pk] = n/int64(records) + 1
	}
}

// holdStream holds a stream's bytes in the budget, waiting for room as an
// encoding does; it returns the bytes to release.
func (c *answerCache) holdStream(ctx context.Context) (int64, error) {
	n := min(streamHold, c.b.Limit()/16)
	wctx, cancel := context.WithTimeout(ctx, answerWait)
	defer cancel()
	if err := c.b.Hold(wctx, n); err != nil {
		return 0, errAnswersBusy
	}
	return n, nil
}

// streamed is an answer too large for the budget, to be encoded as it is
// written.
type streamed struct {
	view    *dataset.Snapshot // the data as of the query's time
	q       *dataset.Query
	f       format
	pk      perRecordKey
	records int
}

// writeStreamed answers with s, encoded record by record from its parts
// and compressed as it is written in the coding accepted asks for, with
// a's validators and no Content-Length; or 304 if the caller holds it. A
// HEAD gets the headers alone.
func writeStreamed(w http.ResponseWriter, r *http.Request, o Options, a recentAnswer, accepted coding.Accepted, cache *answerCache, s streamed) {
	k, ok := accepted.Choose(coding.MinSize) // it is large
	if !ok {
		writeError(w, r, o.Log, errNoCoding)
		return
	}
	if held, ok := holds(r, a, accepted, k); ok {
		w = answering(w)
		writeValidators(w, o, a, held)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hold, err := cache.holdStream(r.Context())
	if err != nil {
		writeError(w, r, o.Log, err)
		return
	}
	defer cache.b.Release(hold)
	// The parts are read before anything is sent: a failed read is still
	// answered with its error.
	sel, err := s.view.Select(r.Context(), s.q)
	if err != nil {
		writeError(w, r, o.Log, err)
		return
	}
	w = answering(w)
	writeValidators(w, o, a, k)
	o.Cache.Compression.SetHeaders(w.Header(), k)
	w.Header()["Content-Type"] = contentTypeHeaders[s.f]
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	cw := o.Cache.Compression.NewWriter(w, k, -1)
	write := sel.WriteJSON
	if s.f == formatCSV {
		write = sel.WriteCSV
	}
	n, err := write(cw, make([]byte, 0, streamChunk))
	if cerr := cw.Close(); err != nil || cerr != nil {
		return // the caller is gone
	}
	cache.mu.Lock()
	cache.learn(s.pk, s.records, n)
	cache.mu.Unlock()
}
