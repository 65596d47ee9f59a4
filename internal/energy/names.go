package energy

import (
	"cmp"
	"slices"
)

// Names is a reference list matched by the rules at the top of
// reference.go: canonical values in their documented order, each with the
// aliases it is also known by, and optionally the value of another list
// that it belongs to. It is immutable once built.
type Names struct {
	values []string
	byKey  map[string]string
	parent map[string]string
}

// Name is one entry of a Names list.
type Name struct {
	Value   string
	Aliases []string
	Parent  string // the value of another list this one belongs to, if any
}

// NewNames builds a list. It panics if two entries share a spelling, which
// is a mistake in a list written in the code.
func NewNames(entries ...Name) *Names {
	n := &Names{byKey: map[string]string{}, parent: map[string]string{}}
	for _, e := range entries {
		n.values = append(n.values, e.Value)
		if e.Parent != "" {
			n.parent[e.Value] = e.Parent
		}
		for _, s := range append([]string{e.Value}, e.Aliases...) {
			for _, k := range []string{s, normKey(s)} {
				if old, dup := n.byKey[k]; dup && old != e.Value {
					panic("energy: reference name " + s + " is ambiguous")
				}
				n.byKey[k] = e.Value
			}
		}
	}
	return n
}

// Plain builds a list of values without aliases.
func Plain(values ...string) *Names {
	es := make([]Name, len(values))
	for i, v := range values {
		es[i] = Name{Value: v}
	}
	return NewNames(es...)
}

// Values returns the canonical values in order. The slice is the caller's.
func (n *Names) Values() []string { return slices.Clone(n.values) }

// Canonical returns the canonical value s names; ok is false if none.
func (n *Names) Canonical(s string) (string, bool) { return lookup(n.byKey, s) }

// Parent returns the value of the other list that v belongs to.
func (n *Names) Parent(v string) string { return n.parent[v] }

// CategoryNames returns the thermoelectric categories of spec 4.2.
func CategoryNames() *Names {
	var es []Name
	for _, c := range categoryTable() {
		es = append(es, Name{Value: c.name, Aliases: c.aliases})
	}
	return NewNames(es...)
}

// SubcategoryNames returns every thermoelectric subcategory of spec 4.2,
// each belonging to its category.
func SubcategoryNames() *Names {
	var es []Name
	for _, c := range categoryTable() {
		for _, s := range c.members {
			es = append(es, Name{Value: s.name, Aliases: s.aliases, Parent: c.name})
		}
	}
	return NewNames(es...)
}

// RegionNames returns Italy's regions, sorted byte-wise.
func RegionNames() *Names {
	var es []Name
	for _, r := range regionTable() {
		es = append(es, Name{Value: r.name, Aliases: r.aliases})
	}
	return sortedNames(es)
}

// ProvinceNames returns Italy's provinces, each belonging to its region,
// sorted byte-wise.
func ProvinceNames() *Names {
	return provinceNames(func(region string) string { return region })
}

// provinceNames returns Italy's provinces sorted byte-wise, each belonging
// to its region as parent spells it.
func provinceNames(parent func(region string) string) *Names {
	var es []Name
	for _, r := range regionTable() {
		for _, p := range r.members {
			es = append(es, Name{Value: p.name, Aliases: p.aliases, Parent: parent(r.name)})
		}
	}
	return sortedNames(es)
}

// sortedNames returns es as a reference list sorted byte-wise by value.
func sortedNames(es []Name) *Names {
	slices.SortFunc(es, func(a, b Name) int { return cmp.Compare(a.Value, b.Value) })
	return NewNames(es...)
}

// CapacityTypeNames returns "Lorda" (gross) and "Netta" (net).
func CapacityTypeNames() *Names { return Plain(Lorda, Netta) }

// ZoneNames returns the bidding zones and Italy, as the total-load files name them.
func ZoneNames() *Names {
	zs := Zones()
	vs := make([]string, len(zs))
	for i, z := range zs {
		vs[i] = string(z)
	}
	return Plain(vs...)
}
