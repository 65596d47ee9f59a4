package dataset

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/energyapi/energyapi/internal/energy"
)

// Query is a validated request for one dataset's records, with every
// filter value in its canonical form.
type Query struct {
	Dataset *Dataset
	// From and To are the days of a DateRange, both included.
	From, To energy.Date
	// Year and Month are a YearParam's and a MonthParam's values, 0 when absent.
	Year, Month int
	// echo is the value of the dataset's MessageParam, "" when not given.
	echo string
	// UTC asks for instants in UTC rather than Europe/Rome wall time.
	UTC bool
	// AsOf, when not zero, asks for the data as they stood at that time;
	// ChangedSince, when not zero, for the records published or revised
	// after it only. Meta adds each record's publication and revision times.
	AsOf, ChangedSince time.Time
	Meta               bool
	// Resolution, when not zero, is the grain the records are aggregated
	// to (resolution.go).
	Resolution Grain
	// Limit, when not zero, asks for a page of at most that many records
	// (page.go): the page after cursor's position, or the first, read from
	// the data as of pin (Snapshot.Pinned). pageOf hashes the query's key
	// without its paging.
	Limit   int
	cursor  *cursor
	pin     int64
	pageOf  uint64
	filters []filter
	// unknown is set when a filter value lies outside its reference list:
	// the API answers that with an empty body, not an error.
	unknown bool
	key     string
	// view, when set, is the reshaping view the query was asked at, and
	// viewLayout its names (view.go).
	view       *View
	viewLayout *viewLayout
}

// filter keeps the records whose Text field text holds one of values.
type filter struct {
	param  string // the Enum parameter's name
	text   int
	values []string // canonical, sorted, distinct
}

// Limits are the server's settings that bound queries.
type Limits struct {
	// MaxRangeDays bounds a DateRange that does not declare its own bound;
	// 0 for none.
	MaxRangeDays int
	// Now is the current time, for year windows.
	Now time.Time
	// PagedMaxRangeDays bounds the DateRange of a paged request (one with
	// limit), in place of the above and the dataset's own; 0 for none.
	PagedMaxRangeDays int
	paged             bool
}

// Key returns the query in a canonical form: two queries with equal keys
// select the same records and get the same answer.
func (q *Query) Key() string { return q.key }

// Message returns result.message for a successful answer: with a
// resolution, followed by ", resolution: P1D".
func (q *Query) Message() string {
	if q.Resolution != 0 {
		return q.message() + ", resolution: " + q.Resolution.ISO()
	}
	return q.message()
}

func (q *Query) message() string {
	m := q.Dataset.Message
	if q.view != nil && q.view.Message != 0 {
		m = q.view.Message
	}
	switch m {
	case MessageRequest:
		var b strings.Builder
		b.WriteString("Operation completed for the following request: ")
		q.appendRequest(&b)
		return b.String()
	case MessageDates:
		return "Operation completed for the following input. Date from: " + q.From.DMY() + ", date to: " + q.To.DMY() + q.echoed()
	case MessageDatesColon:
		return "Operation completed for the following input: date from: " + q.From.DMY() + ", date to: " + q.To.DMY() + q.echoed()
	case MessageMarketDate:
		return "Operation completed for the following input. Market Date: " + q.From.DMY()
	case MessageYear:
		return "Operation completed for the following input. Year: " + strconv.Itoa(q.Year)
	}
	return "OK"
}

// echoed is what the message adds for the MessageParam's value: ", data
// type: Orario" for dataType=Orario; nothing when it was not given.
func (q *Query) echoed() string {
	if q.echo == "" {
		return ""
	}
	var words strings.Builder
	for i, r := range q.Dataset.MessageParam {
		if unicode.IsUpper(r) && i > 0 {
			words.WriteByte(' ')
		}
		words.WriteRune(unicode.ToLower(r))
	}
	return ", " + words.String() + ": " + q.echo
}

// ParseQuery validates the query parameters of a request for d. It returns
// an error with code Invalid, whose message names the parameter and repeats
// the value, for a missing required parameter, a repeated 0..1 parameter, a
// malformed date, year or month, or a date range that is reversed or too
// long. A filter value outside its reference list is not an error: the
// query is then Unknown. Parameters d does not declare are ignored, and an
// empty value counts as absent.
func (c *Catalog) ParseQuery(d *Dataset, params map[string][]string, lim Limits) (*Query, error) {
	if d.Takes("limit") && len(many(params, "limit")) > 0 {
		lim.paged = true
	}
	qp := &queryParser{
		params: params,
		lim:    lim,
		layout: c.layoutOf(d),
		q:      &Query{Dataset: d},
		enums:  map[string]string{},
	}
	qp.key.WriteString(d.Name)
	for _, p := range d.Parameters() {
		if err := qp.parse(p); err != nil {
			return nil, err
		}
	}
	qp.checkNesting()
	qp.q.key = qp.key.String()
	return qp.q, nil
}

// queryParser builds a Query one parameter at a time, in the dataset's
// order of parameters, which is also the order of the query's key.
type queryParser struct {
	params map[string][]string
	lim    Limits
	layout *Layout
	q      *Query
	key    strings.Builder
	enums  map[string]string // single Enum values by parameter, for Within
}

// parse reads parameter p into the query, with the reader of its kind.
func (qp *queryParser) parse(p Param) error {
	readers := [...]func(*queryParser, Param) error{
		TimeZoneParam:   (*queryParser).timeZone,
		IncludeParam:    (*queryParser).include,
		ResolutionParam: (*queryParser).resolution,
		LimitParam:      (*queryParser).limit,
		CursorParam:     (*queryParser).cursor,
		YearParam:       (*queryParser).year,
		MonthParam:      (*queryParser).month,
		Enum:            (*queryParser).enum,
		// Kinds that share a reader: a range of days or one day; an instant.
		DateRange: (*queryParser).days, DayParam: (*queryParser).days,
		AsOfParam: (*queryParser).instant, ChangedSinceParam: (*queryParser).instant,
	}
	if p.Kind < 0 || int(p.Kind) >= len(readers) || readers[p.Kind] == nil {
		return nil
	}
	return readers[p.Kind](qp, p)
}

// days reads a DateRange, or a DayParam as the range of its one day.
func (qp *queryParser) days(p Param) error {
	var from, to energy.Date
	var err error
	if p.Kind == DayParam {
		from, err = parseDay(qp.params, p)
		to = from
	} else {
		from, to, err = parseRange(qp.params, p, qp.lim)
	}
	if err != nil {
		return err
	}
	qp.q.From, qp.q.To = from, to
	qp.key.WriteString("|" + from.String() + "|" + to.String())
	return nil
}

// timeZone reads a TimeZoneParam: Europe/Rome (the default) or UTC.
func (qp *queryParser) timeZone(p Param) error {
	s, err := single(qp.params, p.Name, false)
	if err != nil {
		return err
	}
	switch {
	case s == "" || strings.EqualFold(s, energy.TimeZone):
	case strings.EqualFold(s, "UTC"):
		qp.q.UTC = true
		qp.key.WriteString("|utc")
	default:
		return energy.Errorf(energy.Invalid, "parameter %s value %q is not a time zone this API writes instants in (want Europe/Rome or UTC)", p.Name, s)
	}
	return nil
}

// instant reads an AsOfParam or a ChangedSinceParam: an RFC 3339 instant.
func (qp *queryParser) instant(p Param) error {
	s, err := single(qp.params, p.Name, false)
	if err != nil || s == "" {
		return err
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return energy.Errorf(energy.Invalid, "parameter %s value %q does not conform to an RFC 3339 instant such as 2024-03-01T12:00:00Z", p.Name, s)
	}
	// Stored times are microseconds; nothing was published before 1970.
	t = t.UTC().Truncate(time.Microsecond)
	if t.Before(time.Unix(0, 0)) {
		t = time.Unix(0, 0).UTC()
	}
	if p.Kind == AsOfParam {
		qp.q.AsOf = t
		qp.key.WriteString("|asof=" + strconv.FormatInt(t.UnixMicro(), 10))
	} else {
		qp.q.ChangedSince = t
		qp.key.WriteString("|since=" + strconv.FormatInt(t.UnixMicro(), 10))
	}
	return nil
}

// include reads an IncludeParam: comma-separated words, of which only
// IncludeMeta exists.
func (qp *queryParser) include(p Param) error {
	for _, v := range many(qp.params, p.Name) {
		for _, w := range strings.Split(v, ",") {
			if w = strings.TrimSpace(w); !strings.EqualFold(w, IncludeMeta) {
				return energy.Errorf(energy.Invalid, "parameter %s value %q is not one this API knows (want %s)", p.Name, w, IncludeMeta)
			}
		}
		if !qp.q.Meta {
			qp.q.Meta = true
			qp.key.WriteString("|meta")
		}
	}
	return nil
}

// year reads a YearParam. A year outside the parameter's window is an
// unknown filter value, not an error.
func (qp *queryParser) year(p Param) error {
	s, err := single(qp.params, p.Name, p.Required)
	if err != nil || s == "" {
		return err
	}
	y, err := strconv.Atoi(s)
	if err != nil {
		return energy.Errorf(energy.Invalid, "parameter %s value %q does not conform to an integer year", p.Name, s)
	}
	qp.q.Year = y
	if now := qp.lim.Now.Year(); p.YearWindow > 0 && (y > now || y < now-p.YearWindow) {
		qp.q.unknown = true
	}
	qp.key.WriteString("|y" + strconv.Itoa(y))
	return nil
}

// month reads a MonthParam: a number, or with MonthNames also a name.
func (qp *queryParser) month(p Param) error {
	s, err := single(qp.params, p.Name, p.Required)
	if err != nil || s == "" {
		return err
	}
	m, ok, unknownName := monthOf(s, p.MonthNames)
	switch {
	case unknownName:
		qp.q.unknown = true
		return nil
	case !ok:
		return energy.Errorf(energy.Invalid, "parameter %s value %q does not conform to a month, 1 to 12 (01 to 12)", p.Name, s)
	}
	qp.q.Month = m
	qp.key.WriteString("|m" + strconv.Itoa(m))
	return nil
}

// monthOf returns the month s names: a number, 1 to 12 with zero padding
// optional, or with names also a month named as the statistics pages list
// them. A name outside that list is unknownName, an unknown filter value
// rather than an error.
func monthOf(s string, names bool) (m int, ok, unknownName bool) {
	m, err := strconv.Atoi(s)
	if names && err != nil {
		name, found := energy.MonthNames().Canonical(s)
		if !found {
			return 0, false, true
		}
		return int(energy.MonthOfName(name)), true, false
	}
	return m, err == nil && m >= 1 && m <= 12 && (len(s) <= 2 || names), false
}

// enum reads an Enum into a filter of canonical values; values outside the
// reference list make the query unknown.
func (qp *queryParser) enum(p Param) error {
	var raw []string
	if p.Many {
		raw = many(qp.params, p.Name)
	} else {
		s, err := single(qp.params, p.Name, p.Required)
		if err != nil {
			return err
		}
		if s != "" {
			raw = []string{s}
		}
	}
	if len(raw) == 0 {
		return nil
	}
	d := qp.q.Dataset
	ref := d.paramRef(p)
	f := filter{param: p.Name, text: qp.layout.text[qp.layout.byName[p.Field]]}
	for _, s := range raw {
		v, ok := ref.Canonical(s)
		if !ok {
			qp.q.unknown = true
			continue
		}
		f.values = append(f.values, v)
	}
	slices.Sort(f.values)
	f.values = slices.Compact(f.values)
	if !p.Many && len(f.values) == 1 {
		qp.enums[p.Name] = f.values[0]
		if p.Name == d.MessageParam {
			qp.q.echo = f.values[0]
		}
	}
	qp.q.filters = append(qp.q.filters, f)
	qp.key.WriteString("|" + p.Name + "=" + strings.Join(f.values, "\x00"))
	return nil
}

// checkNesting makes the query unknown when an Enum's value does not lie
// within the value of the Enum it is declared Within (a zone of another
// region, say).
func (qp *queryParser) checkNesting() {
	d := qp.q.Dataset
	for _, p := range d.Params {
		if p.Kind != Enum || p.Within == "" {
			continue
		}
		v, parent := qp.enums[p.Name], qp.enums[p.Within]
		if v != "" && parent != "" && d.paramRef(p).(NestedRef).Parent(v) != parent {
			qp.q.unknown = true
		}
	}
}

func parseRange(params map[string][]string, p Param, lim Limits) (from, to energy.Date, err error) {
	for _, e := range []struct {
		name string
		dst  *energy.Date
	}{{p.Name, &from}, {p.To, &to}} {
		s, err := single(params, e.name, true)
		if err != nil {
			return from, to, err
		}
		d, err := energy.ParseDate(s)
		if err != nil && p.ShortYear {
			d, err = energy.ParseShortYearDate(s)
		}
		if err != nil {
			format := "dd/mm/yyyy"
			if p.ShortYear {
				format += " or dd/mm/yy"
			}
			return from, to, energy.Errorf(energy.Invalid, "parameter %s value %q does not conform to a date in the format %s", e.name, s, format)
		}
		*e.dst = d
	}
	if from.Compare(to) > 0 {
		return from, to, energy.Errorf(energy.Invalid, "parameter %s value %q is after %s value %q", p.Name, from.DMY(), p.To, to.DMY())
	}
	if p.SameDay && from != to {
		return from, to, energy.Errorf(energy.Invalid, "parameters %s %q and %s %q must name the same day", p.Name, from.DMY(), p.To, to.DMY())
	}
	maxDays := p.MaxDays
	if maxDays == 0 {
		maxDays = lim.MaxRangeDays
	}
	if lim.paged && !p.SameDay {
		maxDays = lim.PagedMaxRangeDays
	}
	if days := from.DaysUntil(to) + 1; maxDays > 0 && days > maxDays {
		return from, to, energy.Errorf(energy.Invalid, "the range from %s %q to %s %q spans %d days; at most %d are allowed per request", p.Name, from.DMY(), p.To, to.DMY(), days, maxDays)
	}
	return from, to, nil
}

// parseDay reads a DayParam: the first of its names the request gives.
func parseDay(params map[string][]string, p Param) (energy.Date, error) {
	for _, name := range append([]string{p.Name}, p.Aliases...) {
		s, err := single(params, name, false)
		if err != nil {
			return energy.Date{}, err
		}
		if s == "" {
			continue
		}
		d, err := energy.ParseDate(s)
		if err != nil && p.ShortYear {
			d, err = energy.ParseShortYearDate(s)
		}
		if err != nil {
			return d, energy.Errorf(energy.Invalid, "parameter %s value %q does not conform to a date in the format dd/mm/yyyy", name, s)
		}
		return d, nil
	}
	return energy.Date{}, energy.Errorf(energy.Invalid, "parameter %s is required", p.Name)
}

// single returns a 0..1 (or, with required, 1..1) query parameter. An empty
// value counts as absent: callers that build URLs from optional arguments
// send "region=" for "no region".
func single(q map[string][]string, name string, required bool) (string, error) {
	vs := q[name]
	if len(vs) > 1 {
		return "", energy.Errorf(energy.Invalid, "parameter %s is repeated; it takes one value", name)
	}
	if len(vs) == 0 || vs[0] == "" {
		if required {
			return "", energy.Errorf(energy.Invalid, "parameter %s is required", name)
		}
		return "", nil
	}
	return vs[0], nil
}

// many returns a 0..n query parameter's values that are not blank.
func many(q map[string][]string, name string) []string {
	var out []string
	for _, v := range q[name] {
		if strings.TrimSpace(v) != "" {
			out = append(out, v)
		}
	}
	return out
}

// bounds returns the Unix interval [lo, hi) of the moments q selects: its
// period, for a page after a cursor from the cursor's moment on.
func (q *Query) bounds() (lo, hi int64) {
	lo, hi = q.period()
	if q.cursor != nil {
		lo = max(lo, q.cursor.after)
	}
	return lo, hi
}

// period returns the Unix interval [lo, hi) of the moments q's period
// holds; the widest interval when q selects by no time at all.
func (q *Query) period() (lo, hi int64) {
	lo, hi = q.asked()
	if q.viewLayout != nil && q.viewLayout.until != 0 && hi > q.viewLayout.until {
		// A view whose data stop: nothing from its Until on.
		hi = q.viewLayout.until
		lo = min(lo, hi)
	}
	return lo, hi
}

// asked returns the Unix interval [lo, hi) of the moments q's parameters
// ask for.
func (q *Query) asked() (lo, hi int64) {
	rome := energy.Rome()
	switch {
	case q.From != (energy.Date{}):
		return q.From.Start().Unix(), q.To.End().Unix()
	case q.Year != 0 && q.Month != 0:
		s := time.Date(q.Year, time.Month(q.Month), 1, 0, 0, 0, 0, rome)
		return s.Unix(), s.AddDate(0, 1, 0).Unix()
	case q.Year != 0:
		s := time.Date(q.Year, time.January, 1, 0, 0, 0, 0, rome)
		return s.Unix(), s.AddDate(1, 0, 0).Unix()
	}
	return minTime, maxTime
}

const (
	minTime = -1 << 62
	maxTime = 1 << 62
)
