package dataset

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// View is a further path at which a dataset answers: a former prefix that
// answers the same bytes, or an earlier version of the endpoint whose
// answers showed the same records under other names (the transparency
// v1.0 paths of the v2.0 series). A view is data on the descriptor: the
// records, parameters, parts, validators and cache are the dataset's, and
// only the encoder reads the view, through names worked out once per
// catalogue (NewCatalog), never per request.
type View struct {
	// Path is where the view answers: "/transparency/v1.0/gettotalload".
	Path string
	// Array names the answer's array; the dataset's when empty.
	Array string
	// Names, when set, maps the dataset's columns (Dataset.Columns) to the
	// names this path shows them by; the columns it leaves out are not
	// shown (v1.0 had no date_tz or date_offset). Order is the dataset's.
	Names map[string]string
	// Message, when not zero, is the success message's wording at this path.
	Message Message
	// Quote names, for MessageRequest, the fields the query is quoted
	// with: a date range's (or year's) first parameter by the moment's
	// field ("dateFrom": "DATA_ORA") and each Enum by its field ("type": "TIPO").
	Quote map[string]string
	// Until, when set, is the first day whose records this path no longer
	// answers: the v1.0 paths' data stop at 31 July 2023.
	Until energy.Date
	// LateRepeatedHour writes the second pass of the repeated autumn hour a
	// minute late (02:01, 02:16, ...), as v1.0 rows without an offset field
	// did to tell the two passes apart. Moments in UTC are written as they are.
	LateRepeatedHour bool
	// Deprecated, when set, is when the path was deprecated, announced by
	// the Deprecation header (RFC 9745) with Sunset (RFC 8594) and a Link
	// to the successor version.
	Deprecated, Sunset time.Time
	// Successor is the path that replaces the view's: the dataset's own
	// when empty.
	Successor string
	// Source is where the view's shape comes from.
	Source Source
}

// Status is a path's standing, as GET /catalog lists it.
type Status string

// Path statuses.
const (
	StatusCurrent    Status = "current"
	StatusDeprecated Status = "deprecated"
)

// Status returns the view's standing: deprecated when it has a deprecation date.
func (v *View) Status() Status {
	if v.Deprecated.IsZero() {
		return StatusCurrent
	}
	return StatusDeprecated
}

// SuccessorOf returns the path that replaces v's, a view of d.
func (v *View) SuccessorOf(d *Dataset) string {
	if v.Successor != "" {
		return v.Successor
	}
	return d.Path()
}

// Reshapes reports whether answers at the view differ from the dataset's
// in more than their headers.
func (v *View) Reshapes() bool {
	return v.Array != "" || v.Names != nil || v.Message != 0 || v.Until != (energy.Date{}) || v.LateRepeatedHour
}

// viewLayout is what the encoder needs of a reshaping view, worked out once.
type viewLayout struct {
	// names holds, per column of the dataset (Dataset.Columns), the name
	// the view shows it by, "" for a column it leaves out.
	names []string
	until int64 // Until's start as a Unix time, 0 for none
}

// checkViews checks d's views and returns the layout of each reshaping
// one: a name must be a column of d, shown once; Quote must name
// parameters of d.
func (d *Dataset) checkViews() (map[*View]*viewLayout, error) {
	out := map[*View]*viewLayout{}
	cols := d.Columns()
	for i := range d.Views {
		v := &d.Views[i]
		if !strings.HasPrefix(v.Path, "/") || v.Path == d.Path() {
			return nil, d.errorf("view %q is not a further path", v.Path)
		}
		if !v.Reshapes() {
			continue
		}
		vl := &viewLayout{names: slices.Clone(cols)}
		if v.Names != nil {
			seen := map[string]bool{}
			for j, c := range cols {
				vl.names[j] = v.Names[c]
				if n := vl.names[j]; n != "" && seen[n] {
					return nil, d.errorf("view %s shows %q twice", v.Path, n)
				}
				seen[vl.names[j]] = true
			}
			for c := range v.Names {
				if !slices.Contains(cols, c) {
					return nil, d.errorf("view %s renames %q, which is no column", v.Path, c)
				}
			}
		}
		for p := range v.Quote {
			if !d.Takes(p) {
				return nil, d.errorf("view %s quotes parameter %q, which the dataset does not take", v.Path, p)
			}
		}
		if v.Until != (energy.Date{}) {
			vl.until = v.Until.Start().Unix()
		}
		out[v] = vl
	}
	return out, nil
}

// View returns the view of d at path, nil for none.
func (d *Dataset) View(path string) *View {
	for i := range d.Views {
		if d.Views[i].Path == path {
			return &d.Views[i]
		}
	}
	return nil
}

// Viewed returns a copy of d's declaration as the view shows it (array,
// field names, the zone and offset fields it leaves out), for documents
// that describe the view's answers: the OpenAPI document and GET /catalog.
// It is never served or stored.
func (d *Dataset) Viewed(v *View) *Dataset {
	vd := *d
	vd.Aliases, vd.Views = nil, nil
	if v.Source.Ref != "" {
		vd.Source = v.Source
	}
	if v.Array != "" {
		vd.Array = v.Array
	}
	if v.Names == nil {
		return &vd
	}
	vd.Fields = slices.Clone(d.Fields)
	for i, f := range vd.Fields {
		if n := v.Names[f.Name]; n != "" {
			vd.Fields[i].Name = n
		} else {
			vd.Fields[i].Hidden = true
		}
		vd.Fields[i].TZ, vd.Fields[i].Offset = v.Names[f.TZ], v.Names[f.Offset]
	}
	vd.ExactlyOne = nil
	for _, n := range d.ExactlyOne {
		vd.ExactlyOne = append(vd.ExactlyOne, v.Names[n])
	}
	return &vd
}

// ParseViewQuery is ParseQuery for a request at view v of d; a nil v, or
// one that answers as d does, is d's own query. The query's key tells the
// view apart, so that its answers are kept apart from d's.
func (c *Catalog) ParseViewQuery(d *Dataset, v *View, params map[string][]string, lim Limits) (*Query, error) {
	q, err := c.ParseQuery(d, params, lim)
	if err != nil || v == nil || !v.Reshapes() {
		return q, err
	}
	q.view, q.viewLayout = v, c.views[v]
	q.key = v.Path + "|" + q.key
	return q, nil
}

// appendRequest appends MessageRequest's quotation of the query, in the
// shape the v1.0 example shows: {$and:[{DATA_ORA:{$gte:"2019-03-02",
// $lte:"2019-03-20"}},{DATA_ORA:{$lt:"2023-07-31"}}], TIPO:{$in:[ "Wind",
// "Hydro" ]}}. Filter values are written canonical and sorted.
func (q *Query) appendRequest(b *strings.Builder) {
	v := q.view
	if v == nil {
		b.WriteString("{}") // MessageRequest is a view's; checkViews declares no other
		return
	}
	var clauses []string
	for _, p := range q.Dataset.Params {
		field := v.Quote[p.Name]
		switch {
		case field == "":
		case p.Kind == DateRange || p.Kind == DayParam:
			and := fmt.Sprintf(`{%s:{$gte:%q, $lte:%q}}`, field, q.From.String(), q.To.String())
			if v.Until != (energy.Date{}) {
				and += fmt.Sprintf(`,{%s:{$lt:%q}}`, field, v.Until.String())
			}
			clauses = append(clauses, "$and:["+and+"]")
		case p.Kind == YearParam && q.Year != 0:
			clauses = append(clauses, fmt.Sprintf(`%s:{$eq:%d}`, field, q.Year))
		case p.Kind == Enum:
			if vals := q.filterValues(p.Name); len(vals) > 0 {
				clauses = append(clauses, fmt.Sprintf(`%s:{$in:[ "%s" ]}`, field, strings.Join(vals, `", "`)))
			}
		}
	}
	b.WriteString("{" + strings.Join(clauses, ", ") + "}")
}

// filterValues returns the canonical values the query filters parameter
// name by, nil when it does not.
func (q *Query) filterValues(name string) []string {
	for _, f := range q.filters {
		if f.param == name {
			return f.values
		}
	}
	return nil
}

// View returns the view q was asked at, nil for the dataset's own shape.
func (q *Query) View() *View { return q.view }

// repeatedSecondPass reports whether t, a Europe/Rome time, lies in the
// second pass of the repeated autumn hour: an hour earlier the clock read
// the same hour with a larger offset.
func repeatedSecondPass(t time.Time) bool {
	_, off := t.Zone()
	_, before := t.Add(-time.Hour).Zone()
	return off < before
}
