package dataset

import (
	"context"
	"math"
	"time"
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
// read back from the store's history. A walk runs when a server loads a
// data version (and for asOf reads), never per request, and stops at the
// version the server derived from before, whose times it already has.

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
	lay := l.cat.layoutOf(d)
	open := make(map[string]int, len(rows)) // key -> index of a row whose publication is not found yet
	revised := make([]bool, len(rows))      // whether row i's revision is found
	for i := range rows {
		open[lay.keyOf(d.Grain, rows[i])] = i
	}
	// state is the source part as it stood from its latest stamp until upper.
	state, upper := src, int64(math.MaxInt64)
	for len(open) > 0 && state.Len() > 0 {
		t := state.Stamps[len(state.Stamps)-1]
		if k := known; k.src != nil && k.derived != nil && t <= k.src.Written && k.src.Written < upper {
			// state is the version known derives from: its rows are
			// those still open, with their times (unless an inexact
			// step left state's values unknown: then t bounds them).
			prev := keyed(lay, d.Grain, k.derived.Rows())
			for key, i := range open {
				p, ok := prev[key]
				if !ok {
					p.Pub, p.Rev = t, t
				}
				rows[i].Pub = p.Pub
				if !revised[i] {
					rows[i].Rev = p.Rev
				}
			}
			return nil
		}
		before, exact, err := l.before(ctx, d.Derive.From, id, state, t, known.src)
		if err != nil {
			return err
		}
		var prev map[string]Row
		if before.Len() > 0 {
			prev = keyed(lay, d.Grain, d.Derive.Rows(before))
		}
		for key, i := range open {
			p, ok := prev[key]
			switch {
			case !ok:
				rows[i].Pub = t
				if !revised[i] {
					rows[i].Rev = t
				}
				delete(open, key)
			case !revised[i] && (!exact || !sameRow(p, rows[i])):
				rows[i].Rev, revised[i] = t, true
			}
		}
		state, upper = before, t
	}
	return nil
}

// keyed returns rows by their natural key.
func keyed(l *Layout, g Grain, rows []Row) map[string]Row {
	out := make(map[string]Row, len(rows))
	for _, r := range rows {
		out[l.keyOf(g, r)] = r
	}
	return out
}

// before returns the part id of dataset name as it stood just before t,
// the latest time at which state, a version of it or an earlier state of
// one, changed; nil if it held nothing then. have is a version the caller
// holds, used rather than read again. exact is false when the values that
// records changed at t held before could not be read back (a source that
// keeps no history, or a history that lacks the version): those records
// then keep their current values, and the records derived there count as
// revised at t.
func (l *Live) before(ctx context.Context, name, id string, state *Part, t int64, have *Part) (p *Part, exact bool, err error) {
	changed, kept := false, 0
	for i := range state.Len() {
		if pub := state.Published(i); pub < t {
			kept++
			changed = changed || state.Revised(i) == t
		}
	}
	ref := PartRef{name, id}
	if changed {
		p, ok, err := l.replaced(ctx, ref, t-1, have)
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
	return BuildPart(l.cat.layoutOf(l.cat.byName[name]), id, rows), !changed, nil
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
	p, err = l.replacedVersion(ctx, hist, ref, meta.Version)
	return p, err == nil, err
}

// derivedAt returns what d derives from src, the version of its source's
// part id that s or the store's history holds: s's own derivation when src
// is s's part, else one walked from the history and kept, a bounded
// number, for the next asOf read.
func (l *Live) derivedAt(ctx context.Context, s *Snapshot, d *Dataset, id string, src *Part) (*Part, error) {
	if src == nil {
		return nil, nil
	}
	srcRef := PartRef{d.Derive.From, id}
	if p := s.derived[PartRef{d.Name, id}]; p != nil && src == s.stored[srcRef] {
		return p, nil
	}
	key := cachedKey{ref: srcRef, version: src.Version, derived: d.Name}
	if p := l.history.get(key); p != nil {
		return p, nil
	}
	p, err := l.derive(ctx, d, id, src, derivation{})
	if err != nil {
		return nil, err
	}
	l.history.put(key, p)
	return p, nil
}
