package dataset

import (
	"context"
	"math"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// A derived record is revised when its own values change, not whenever a
// source record of its period does: correcting one quarter hour of a day's
// load revises that day's peak if it moves the peak, and nothing if it
// moves neither extreme. A source part keeps only its records' current
// values and when each was first published and last changed, so the times
// of the records derived from it are found by walking the part back
// through the states it passed through, newest first, deriving from each
// and comparing: a derived record was revised at the latest change before
// which it derived otherwise, and published when it began to derive at
// all. The stamps tell the state before a change at t without the store:
// the records first published at t were absent and the others held their
// values, unless one of them changed at t; only then is the replaced part
// read back from the store's history. A walk follows only the periods (a
// day, for a daily peak) whose rows' times it has not found yet, and
// derives at each change only the periods it touched: Derivation.Rows
// derives each period from that period's source records alone. A walk runs
// when a request first needs a part derived at a data version (its records,
// or its span for the validators; see lazyderive.go) and for asOf reads,
// not again while the budget keeps the result, and stops at the version
// derived from before if the budget still keeps that, whose times it
// already has.

// derivation is what a dataset derives from one version of a source part,
// with exact times: where a walk that reaches that version stops.
type derivation struct {
	src     *Part // the source part; nil when none is known
	derived *Part
}

// derive returns the part d derives from src, a version of the part id of
// d's source (nil for none), its records stamped with exact times. known,
// when set, is the derivation of an earlier version of the same part.
func (l *Live) derive(ctx context.Context, d *Dataset, id string, src *Part, known derivation) (*Part, error) {
	lay := l.cat.layoutOf(d)
	if src == nil {
		return BuildPart(lay, id, nil), nil
	}
	rows := d.Derive.Rows(src)
	if err := l.stamp(ctx, d, id, src, rows, known); err != nil {
		return nil, err
	}
	p := BuildPart(lay, id, rows)
	p.Version, p.Written = src.Version, src.Written
	return p, nil
}

// stamp sets the times of rows, which d derives from src, by the walk
// above. The rows of one version have distinct keys.
func (l *Live) stamp(ctx context.Context, d *Dataset, id string, src *Part, rows []Row, known derivation) error {
	w := newWalk(l, d, id, rows)
	// state is the source part, as far as the periods still open go, as it
	// stood from its latest stamp until upper.
	state, upper := w.prune(src), int64(math.MaxInt64)
	for len(w.open) > 0 && state.Len() > 0 {
		t := state.Stamps[len(state.Stamps)-1]
		if k := known; k.src != nil && k.derived != nil && t <= k.src.Written && k.src.Written < upper {
			w.finish(k.derived, t)
			return nil
		}
		before, exact, err := w.before(ctx, state, t, known.src)
		if err != nil {
			return err
		}
		w.compare(before, w.touched(state, t), t, exact)
		state, upper = w.prune(before), t
	}
	return nil
}

// walk is one derivation's walk back through a source part's states.
type walk struct {
	l       *Live
	d       *Dataset
	id      string
	lay     *Layout        // d's
	srcLay  *Layout        // its source's
	rows    []Row          // derived from the newest state
	open    map[string]int // key -> index in rows of those whose publication is not found yet
	revised []bool         // whether row i's revision is found
	periods map[int64]int  // period -> how many of its rows are open
}

func newWalk(l *Live, d *Dataset, id string, rows []Row) *walk {
	w := &walk{l: l, d: d, id: id, lay: l.cat.layoutOf(d), srcLay: l.cat.layoutOf(l.cat.byName[d.Derive.From]), rows: rows,
		open: make(map[string]int, len(rows)), revised: make([]bool, len(rows)), periods: map[int64]int{}}
	for i, r := range rows {
		w.open[w.lay.keyOf(d.Grain, r)] = i
		w.periods[Bucket(d.Grain, r.Time)]++
	}
	return w
}

// close records that open row i, of key, was published at pub; if its
// revision is not found yet, it is pub too.
func (w *walk) close(key string, i int, pub int64) {
	w.rows[i].Pub = pub
	if !w.revised[i] {
		w.rows[i].Rev = pub
	}
	delete(w.open, key)
	if p := Bucket(w.d.Grain, w.rows[i].Time); w.periods[p] > 1 {
		w.periods[p]--
	} else {
		delete(w.periods, p)
	}
}

// finish closes the open rows with the times of derived, what the state
// now reached derives, with those times (unless an inexact step left the
// state's values unknown: then t bounds them).
func (w *walk) finish(derived *Part, t int64) {
	prev := keyed(w.lay, w.d.Grain, derived.Rows())
	for key, i := range w.open {
		p, ok := prev[key]
		if !ok {
			p.Pub, p.Rev = t, t
		}
		if !w.revised[i] {
			w.rows[i].Rev, w.revised[i] = p.Rev, true
		}
		w.close(key, i, p.Pub)
	}
}

// touched returns the periods in which state's records changed at t.
func (w *walk) touched(state *Part, t int64) map[int64]bool {
	out := map[int64]bool{}
	for _, sp := range periodSpans(w.d.Grain, state) {
		for i := sp.lo; i < sp.hi; i++ {
			if state.Published(i) == t || state.Revised(i) == t {
				out[sp.start] = true
				break
			}
		}
	}
	return out
}

// compare derives the periods touched at t from before, the state just
// before t, and closes or revises at t the open rows that derived
// otherwise then (every open row of those periods when !exact).
func (w *walk) compare(before *Part, touched map[int64]bool, t int64, exact bool) {
	var prev map[string]Row
	if sub := subset(w.srcLay, w.d.Grain, before, func(p int64) bool { return touched[p] }); sub.Len() > 0 {
		prev = keyed(w.lay, w.d.Grain, w.d.Derive.Rows(sub))
	}
	for key, i := range w.open {
		if !touched[Bucket(w.d.Grain, w.rows[i].Time)] {
			continue
		}
		p, ok := prev[key]
		switch {
		case !ok:
			w.close(key, i, t)
		case !w.revised[i] && (!exact || !sameRow(p, w.rows[i])):
			w.rows[i].Rev, w.revised[i] = t, true
		}
	}
}

// prune returns the records of p in the periods that still have open rows.
func (w *walk) prune(p *Part) *Part {
	return subset(w.srcLay, w.d.Grain, p, func(period int64) bool { return w.periods[period] > 0 })
}

// before returns the source part as it stood just before t, the latest
// time at which state changed, as far as state's periods go; nil if it
// held nothing then. have is a version the caller holds, used rather than
// read again. exact is false when the values that records changed at t
// held before could not be read back (a source that keeps no history, or
// a history that lacks the version): those records then keep their
// current values, and the rows derived from their periods count as
// revised at t.
func (w *walk) before(ctx context.Context, state *Part, t int64, have *Part) (p *Part, exact bool, err error) {
	changed, kept := false, 0
	for i := range state.Len() {
		if pub := state.Published(i); pub < t {
			kept++
			changed = changed || state.Revised(i) == t
		}
	}
	if changed {
		p, ok, err := w.l.replaced(ctx, PartRef{w.d.Derive.From, w.id}, t-1, have)
		if err != nil || ok {
			return p, true, err
		}
	}
	if kept == 0 {
		return nil, true, nil
	}
	rows := make([]Row, 0, kept)
	for i := range state.Len() {
		if state.Published(i) < t {
			r := state.Row(i)
			if r.Rev == t { // only when !exact: its earlier revisions are unknown
				r.Rev = r.Pub
			}
			rows = append(rows, r)
		}
	}
	return BuildPart(w.srcLay, w.id, rows), !changed, nil
}

// keyed returns rows by their natural key.
func keyed(l *Layout, g Grain, rows []Row) map[string]Row {
	out := make(map[string]Row, len(rows))
	for _, r := range rows {
		out[l.keyOf(g, r)] = r
	}
	return out
}

// span is the records lo..hi-1 of a part, those of the period of a
// grain that begins at start.
type span struct {
	start  int64
	lo, hi int
}

// periodSpans returns the periods of grain g that p's records fall in, in
// order, with their records (a part's records are in time order).
func periodSpans(g Grain, p *Part) []span {
	var out []span
	end := int64(math.MinInt64)
	for i := range p.Len() {
		if p.Time(i) < end {
			out[len(out)-1].hi = i + 1
			continue
		}
		start := Bucket(g, p.Time(i))
		end = periodEnd(g, start)
		out = append(out, span{start, i, i + 1})
	}
	return out
}

// periodEnd returns the end of the period of grain g that begins at start.
func periodEnd(g Grain, start int64) int64 {
	lt := time.Unix(start, 0).In(energy.Rome())
	switch g {
	case Day:
		return lt.AddDate(0, 0, 1).Unix()
	case Month:
		return lt.AddDate(0, 1, 0).Unix()
	case Year:
		return lt.AddDate(1, 0, 0).Unix()
	}
	return start + 1 // finer records are keyed by their own moment
}

// subset returns the records of p (of layout l) in the periods of grain g
// that keep accepts: p itself if it accepts every one.
func subset(l *Layout, g Grain, p *Part, keep func(period int64) bool) *Part {
	spans := periodSpans(g, p)
	n := 0
	for _, sp := range spans {
		if keep(sp.start) {
			n += sp.hi - sp.lo
		}
	}
	if n == p.Len() {
		return p
	}
	rows := make([]Row, 0, n)
	for _, sp := range spans {
		if keep(sp.start) {
			for i := sp.lo; i < sp.hi; i++ {
				rows = append(rows, p.Row(i))
			}
		}
	}
	return BuildPart(l, p.ID, rows)
}

// replaced returns the version of ref that an import replaced and that
// was current at t (Unix microseconds): have if that is its version, else
// read from the store's history; ok is false if there is none or the
// source keeps no history.
func (l *Live) replaced(ctx context.Context, ref PartRef, t int64, have *Part) (p *Part, ok bool, err error) {
	hist, ok := l.src.(PartHistory)
	if !ok {
		return nil, false, nil
	}
	meta, ok, err := hist.PartVersionAt(ctx, ref, time.UnixMicro(t))
	if err != nil || !ok {
		return nil, false, err
	}
	if have != nil && have.Version == meta.Version {
		return have, true, nil
	}
	p, err = l.stored(ctx, ref, meta.Version)
	return p, err == nil, err
}

// derivedAt returns what d derives from src, the version of its source's
// part id that stood at t (Unix microseconds), or only its records
// published by then (subset): kept in the budget under its own key, which
// a derivation of the whole version shares with the snapshots.
func (l *Live) derivedAt(ctx context.Context, d *Dataset, id string, src *Part, subset bool, t int64) (*Part, error) {
	if src == nil {
		return nil, nil
	}
	key := partKey{ref: PartRef{d.Derive.From, id}, version: src.Version, derived: d.Name}
	if subset {
		key.asOf = t
	}
	return l.parts.Load(ctx, key, func(ctx context.Context) (*Part, int64, error) {
		p, err := l.derive(ctx, d, id, src, derivation{})
		if err != nil {
			return nil, 0, err
		}
		return p, p.Bytes(), nil
	})
}
