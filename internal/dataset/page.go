package dataset

import (
	"context"
	"encoding/base64"
	"fmt"
	"hash/fnv"
	"strconv"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// MaxLimit bounds the limit parameter: the records of one page.
const MaxLimit = 100000

// pagingParams are the parameters the machinery adds to every dataset.
var pagingParams = []Param{
	{Name: "limit", Kind: LimitParam,
		Doc: "At most this many records (1 to 100000), in the answer's order; a Link header with rel=\"next\" names the next page while there is one. A paged request's date range may span any number of days."},
	{Name: "cursor", Kind: CursorParam,
		Doc: "The position of the next page, as the Link header names it; opaque. Every page of one paging is read from the data as they stood at its first page: an import in between neither skips nor repeats a record."},
}

// cursor is where a page starts: after the records before moment after,
// and the first skip records at it, of the answer to a query whose key
// hashes to query, read from the data as they stood at asOf (Unix
// microseconds).
type cursor struct {
	asOf  int64
	after int64
	skip  int
	query uint64
}

// String returns the cursor as the cursor parameter carries it.
func (c cursor) String() string {
	s := fmt.Sprintf("1.%d.%d.%d.%x", c.asOf, c.after, c.skip, c.query)
	return base64.RawURLEncoding.EncodeToString([]byte(s))
}

// parseCursor reads a cursor made by String.
func parseCursor(s string) (cursor, bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return cursor{}, false
	}
	var c cursor
	n, err := fmt.Sscanf(string(b), "1.%d.%d.%d.%x", &c.asOf, &c.after, &c.skip, &c.query)
	return c, err == nil && n == 4 && c.skip >= 0 && c.asOf >= 0
}

// hashKey hashes a query's key up to its paging: the query a cursor
// belongs to.
func hashKey(key string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(key))
	return h.Sum64()
}

// limit reads the LimitParam.
func (qp *queryParser) limit(p Param) error {
	s, err := single(qp.params, p.Name, false)
	if err != nil || s == "" {
		return err
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > MaxLimit {
		return energy.Errorf(energy.Invalid, "parameter %s value %q is not a number of records from 1 to %d", p.Name, s, MaxLimit)
	}
	qp.q.pageOf = hashKey(qp.key.String())
	qp.q.Limit = n
	qp.key.WriteString("|limit=" + s)
	return nil
}

// cursor reads the CursorParam, which needs limit.
func (qp *queryParser) cursor(p Param) error {
	s, err := single(qp.params, p.Name, false)
	if err != nil || s == "" {
		return err
	}
	if qp.q.Limit == 0 {
		return energy.Errorf(energy.Invalid, "parameter %s needs limit", p.Name)
	}
	c, ok := parseCursor(s)
	if !ok || c.query != qp.q.pageOf {
		return energy.Errorf(energy.Invalid, "parameter %s value %q is not a cursor of this query: follow the Link header of its previous page", p.Name, s)
	}
	qp.q.cursor = &c
	qp.key.WriteString("|cursor=" + s)
	return nil
}

// Paged reports whether q asks for one page of its answer.
func (q *Query) Paged() bool { return q.Limit > 0 }

// Pinned returns q bound to the data version its pages are read from:
// for a first page, the data s serves now; for a next page, the data as
// they stood at its first. q itself when not paged. The copy has AsOf set
// when s no longer serves that version of q's dataset: the caller reads
// the data as of then (Live.AsOf).
func (s *Snapshot) Pinned(q *Query) *Query {
	if !q.Paged() {
		return q
	}
	p := *q
	switch {
	case q.cursor != nil:
		p.pin = q.cursor.asOf
		if s.written(q.Dataset) != p.pin {
			p.AsOf = time.UnixMicro(p.pin).UTC()
		}
	case !q.AsOf.IsZero():
		p.pin = q.AsOf.UnixMicro()
	default:
		p.pin = s.written(q.Dataset)
	}
	return &p
}

// written returns when the last of the parts d's answers read (its own
// and, for a derived dataset, its source's) was written, Unix
// microseconds: the data as of then are the data s serves of d, and an
// import that changes them writes later.
func (s *Snapshot) written(d *Dataset) int64 {
	var last int64
	for ref, m := range s.stored {
		if ref.Dataset == d.Name || d.Derive != nil && ref.Dataset == d.Derive.From {
			last = max(last, m.Written)
		}
	}
	return last
}

// pager picks the records of one page, in the answer's order.
type pager struct {
	limit int // 0: every record
	// at and skip are the page's start: records before at, and the first
	// skip at it, belong to earlier pages (start is false on a first page).
	start bool
	at    int64
	skip  int
	taken int
	// last is the moment of the last record taken and atLast how many
	// records at it the pages so far hold.
	last   int64
	atLast int
	more   bool // a record after the page's last exists
}

func newPager(q *Query) *pager {
	pg := &pager{limit: q.Limit}
	if c := q.cursor; c != nil {
		pg.start, pg.at, pg.skip = true, c.after, c.skip
		pg.last, pg.atLast = c.after, c.skip
	}
	return pg
}

// take reports whether the record at t belongs to the page, and whether
// the page is full (a later record exists).
func (pg *pager) take(t int64) (take, full bool) {
	if pg.start && (t < pg.at || t == pg.at && pg.skip > 0) {
		if t == pg.at {
			pg.skip--
		}
		return false, false
	}
	if pg.limit > 0 && pg.taken == pg.limit {
		pg.more = true
		return false, true
	}
	pg.taken++
	if t != pg.last {
		pg.last, pg.atLast = t, 0
	}
	pg.atLast++
	return true, false
}

// pick is one record of a part, as a shaped selection lists it.
type pick struct {
	p *Part
	i int
}

// selectShaped is Select for a query that pages or aggregates: the parts
// read one after another, each aggregated if q asks, until the page is
// full, and the records picked.
func (s *Snapshot) selectShaped(ctx context.Context, q *Query) (*Selection, error) {
	ms, err := s.coveringIn(ctx, q)
	if err != nil {
		return nil, err
	}
	sel := &Selection{s: s, q: q, picked: []pick{}}
	pg := newPager(q)
	for _, m := range ms {
		p, err := s.load(ctx, q.Dataset, m)
		if err != nil {
			return nil, err
		}
		full := false
		visit := func(p *Part, i int) bool {
			take, f := pg.take(p.Time(i))
			if take {
				sel.picked = append(sel.picked, pick{p, i})
			}
			full = f
			return !f
		}
		if q.aggregates() {
			// A bucket never spans two parts: parts are months.
			p = s.Catalog.aggregate(q, p)
			for i := 0; i < p.Len() && visit(p, i); i++ {
			}
		} else {
			eachSelected([]*Part{p}, q, visit)
		}
		if full {
			break
		}
	}
	if pg.more {
		sel.next = cursor{asOf: q.pin, after: pg.last, skip: pg.atLast, query: q.pageOf}.String()
	}
	return sel, nil
}

// Next returns the cursor of the page after the selection's, empty when
// it is the last.
func (sel *Selection) Next() string { return sel.next }
