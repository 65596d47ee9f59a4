package dataset

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// Canonical checks a record about to be imported into d and replaces its
// Text values by their canonical form. It returns an error with code
// Invalid, whose message names the field and repeats the value, for a
// missing key value, a value outside the field's reference list, a value
// that does not belong to the value of the field it lies within (a province
// of another region), an infinite number, or a number outside the field's
// plausible range.
func (c *Catalog) Canonical(d *Dataset, r *Row) error {
	l := c.layoutOf(d)
	if len(r.Text) != l.NText || len(r.Num) != l.NNum {
		return energy.Errorf(energy.Invalid, "%d text and %d number values, want %d and %d", len(r.Text), len(r.Num), l.NText, l.NNum)
	}
	for fi, f := range d.Fields {
		switch f.Kind {
		case Text:
			t := l.text[fi]
			v := strings.TrimSpace(r.Text[t])
			if v == "" {
				if l.isKey(t) {
					return energy.Errorf(energy.Invalid, "%s is missing", f.Name)
				}
				r.Text[t] = v
				continue
			}
			if f.Layout != "" {
				at, ok := ParseStoredTime(v)
				if !ok {
					return energy.Errorf(energy.Invalid, "%s %q is not a date (want yyyy-mm-dd, yyyy/mm/dd or dd/mm/yyyy, optionally with hh:mm:ss)", f.Name, r.Text[t])
				}
				v = at.Format(f.Layout)
			}
			if f.Ref != nil {
				canon, ok := f.Ref.Canonical(v)
				if !ok {
					return energy.Errorf(energy.Invalid, "unknown %s %q%s", f.Name, r.Text[t], wantOneOf(f.Ref))
				}
				v = canon
			}
			r.Text[t] = v
		case Number:
			v := r.Num[l.num[fi]]
			switch {
			case math.IsNaN(v) && !f.Optional:
				return energy.Errorf(energy.Invalid, "%s is missing", f.Name)
			case math.IsNaN(v):
			case math.IsInf(v, 0):
				return energy.Errorf(energy.Invalid, "%s %v is not a finite number", f.Name, v)
			case (f.Min != 0 || f.Max != 0) && (v < f.Min || v > f.Max):
				return energy.Errorf(energy.Invalid, "%s %v is outside the plausible range %v to %v", f.Name, v, f.Min, f.Max)
			}
		}
	}
	for fi, f := range d.Fields {
		if f.Within == "" {
			continue
		}
		v, parent := r.Text[l.text[fi]], r.Text[l.text[l.byName[f.Within]]]
		if v == "" || parent == "" {
			continue
		}
		if p := f.Ref.(NestedRef).Parent(v); p != parent {
			return energy.Errorf(energy.Invalid, "%s %q is not in %s %q (it is in %q)", f.Name, v, f.Within, parent, p)
		}
	}
	return nil
}

// storedLayouts are the forms a Text field with a Layout accepts.
var storedLayouts = []string{
	"2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02",
	"2006/01/02 15:04:05", "2006/01/02 15:04", "2006/01/02",
	"02/01/2006 15:04:05", "02/01/2006 15:04", "02/01/2006",
	"2/1/2006",
}

// ParseStoredTime reads the value of a Text field with a Layout: a
// calendar day, optionally with a wall-clock time, in any of the forms
// imports accept. It is read as a wall time without a zone.
func ParseStoredTime(s string) (time.Time, bool) {
	for _, layout := range storedLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, t.Year() >= energy.MinYear && t.Year() <= energy.MaxYear
		}
	}
	return time.Time{}, false
}

func (l *Layout) isKey(t int) bool {
	for _, k := range l.key {
		if k == t {
			return true
		}
	}
	return false
}

// KeyOf returns the natural key of a record of d as one comparable string.
func (c *Catalog) KeyOf(d *Dataset, r Row) string { return c.layoutOf(d).keyOf(d.Grain, r) }

// Layout returns where each field's value lies within a Row of d.
func (c *Catalog) Layout(d *Dataset) *Layout { return c.layoutOf(d) }

// TextIndex returns the index in Row.Text of field name; ok is false if
// name is not a Text field.
func (l *Layout) TextIndex(name string) (int, bool) {
	i, ok := l.byName[name]
	if !ok || l.text[i] < 0 {
		return 0, false
	}
	return l.text[i], true
}

// NumIndex returns the index in Row.Num of field name; ok is false if name
// is not a Number field.
func (l *Layout) NumIndex(name string) (int, bool) {
	i, ok := l.byName[name]
	if !ok || l.num[i] < 0 {
		return 0, false
	}
	return l.num[i], true
}

// KeyNames returns the names of the fields that, with the moment, make the
// natural key.
func (d *Dataset) KeyNames() []string { return d.keyNames() }

// wantOneOf lists a short reference list for a message: ` (want "A" or "B")`.
func wantOneOf(ref Ref) string {
	vs := ref.Values()
	if len(vs) == 0 || len(vs) > 8 {
		return ""
	}
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = strconv.Quote(v)
	}
	if len(q) == 1 {
		return " (want " + q[0] + ")"
	}
	return " (want " + strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1] + ")"
}
