package store

import "github.com/energyapi/energyapi/internal/energy"

// Change is what an import does to the stored row of one of its records.
type Change int8

const (
	Unchanged Change = iota // the key is stored with the same values: nothing to write
	Inserted                // the key is new
	Updated                 // the key is stored with other values
)

// count adds one record with change c to st.
func count(st *energy.ImportStats, c Change) {
	switch c {
	case Inserted:
		st.Inserted++
	case Updated:
		st.Updated++
	default:
		st.Unchanged++
	}
}

// changeOf compares a record's values with the stored ones, if any. Values
// compare with ==, floats exactly: a re-import of the same file yields the
// same bits, and prepared batches hold no NaN.
func changeOf[V comparable](v V, old V, stored bool) Change {
	switch {
	case !stored:
		return Inserted
	case old != v:
		return Updated
	}
	return Unchanged
}

// diff classifies each of recs against stored, the values stored under the
// keys that recs may hold, and counts it. It calls write, in the order of
// recs, with each record that is new or changed.
func diff[R any, K, V comparable](recs []R, stored map[K]V, keyValue func(R) (K, V), write func(R, Change) error) (energy.ImportStats, error) {
	st := energy.ImportStats{Read: len(recs)}
	for _, r := range recs {
		k, v := keyValue(r)
		old, ok := stored[k]
		c := changeOf(v, old, ok)
		count(&st, c)
		if c == Unchanged {
			continue
		}
		if err := write(r, c); err != nil {
			return energy.ImportStats{}, err
		}
	}
	return st, nil
}
