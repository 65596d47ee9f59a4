// Package dataset is the machinery that serves, stores and imports any
// dataset of the API family from a declaration. A Dataset describes one
// endpoint: its path, its query parameters, its record fields and their
// formats, its granularity and its natural key. Everything else (parameter
// validation, the empty-body rule, partitioned storage, merging imports,
// in-memory serving, encoding, documentation) reads descriptors and knows
// nothing of any particular dataset. The package knows neither HTTP nor SQL.
package dataset

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/energyapi/energyapi/internal/energy"
)

// Grain is the spacing of a dataset's records in time.
type Grain int

// Granularities, finest first.
const (
	QuarterHour Grain = iota + 1
	Hour
	Day
	Month
	Year
)

func (g Grain) String() string {
	switch g {
	case QuarterHour:
		return "quarter-hour"
	case Hour:
		return "hour"
	case Day:
		return "day"
	case Month:
		return "month"
	case Year:
		return "year"
	}
	return fmt.Sprintf("Grain(%d)", int(g))
}

// Ref is a reference list: the values a text field holds and a filter
// accepts. Canonical maps what a caller or a file writes (aliases, other
// letter case, surrounding space) to the stored value.
type Ref interface {
	// Values returns the canonical values in their documented order.
	Values() []string
	// Canonical returns the canonical value s names; ok is false if s names none.
	Canonical(s string) (v string, ok bool)
}

// NestedRef is a reference list whose values each belong to a value of
// another list (a subcategory to its category, a province to its region).
type NestedRef interface {
	Ref
	// Parent returns the canonical value of the other list that v belongs to.
	Parent(v string) string
}

// FieldKind says where a record field's value comes from.
type FieldKind int

// Field kinds.
const (
	// Instant is the record's moment as Europe/Rome wall time
	// "yyyy-mm-dd hh:mm:ss", optionally followed by sibling fields with the
	// zone name and the UTC offset (Field.TZ, Field.Offset).
	Instant FieldKind = iota + 1
	// YearOf is the Europe/Rome year of the record's moment, as "2024".
	YearOf
	// MonthOf is the Europe/Rome month of the record's moment by its
	// Italian name ("Gennaio"), as the yearly statistics write it.
	MonthOf
	// DateOf is the Europe/Rome day of the record's moment in Field.Layout
	// ("2006-01-02" or "2006/01/02").
	DateOf
	// Text is a text value; a key field unless the dataset's Key says otherwise.
	Text
	// Number is a number formatted as Field.Format says; NaN is written as "".
	Number
	// Zone is the name of the zone the record's instants are written in
	// ("Europe/Rome", or "UTC" with timeZone=UTC), for records that show it
	// away from their instant (v1.0's date_tz) or have no instant at all.
	Zone
)

// NumberFormat is how a Number field is written.
type NumberFormat struct {
	Italian  bool // decimal comma and thousands points ("27.389,400"); else a decimal point
	Decimals int  // digits after the separator; -1 for the shortest exact form
}

// Number formats used across the family.
var (
	// Italian3 is the yearly statistics' format: "27.389,400".
	Italian3 = NumberFormat{Italian: true, Decimals: 3}
	// Point3 is a decimal point with three decimals: "34.218".
	Point3 = NumberFormat{Decimals: 3}
	// PointFull is a decimal point with as many digits as the value needs: "-488.3051289102222".
	PointFull = NumberFormat{Decimals: -1}
)

// Field is one field of a record, in response order.
type Field struct {
	Name   string
	Kind   FieldKind
	Doc    string
	Format NumberFormat // Number
	// Layout is how a DateOf field writes its day. On a Text field it makes
	// the value a calendar day or time stored with the record (an outage's
	// stop date, a publication date): imports accept yyyy-mm-dd, yyyy/mm/dd
	// or dd/mm/yyyy, each with or without hh:mm[:ss], and store the value
	// written in Layout ("2006/01/02", "2006-01-02 15:04:05").
	Layout string
	// TZ and Offset name the fields that follow an Instant with the zone name
	// ("Europe/Rome") and the UTC offset ("+01:00"); empty to omit either.
	TZ, Offset string
	// Ref lists the values of a Text field; imports refuse other values and
	// store canonical ones. Nil for free text.
	Ref Ref
	// Within names the Text field whose value must be this value's parent
	// (Ref is then a NestedRef): a province's region.
	Within string
	// Hidden fields are stored and take part in the key but are not part of
	// responses (the kind of a peak-valley record).
	Hidden bool
	// Column is the field's column header in import files; the field's name
	// when empty. Aliases are further headers accepted for it.
	Column  string
	Aliases []string
	// Optional Numbers may have no value (written as ""); others are
	// required in imports.
	Optional bool
	// Min and Max bound a Number's plausible values for imports; both zero for no bound.
	Min, Max float64
	// Null writes an Optional Number without a value as JSON null rather
	// than "" (the FCR auctions' price); CSV writes it empty either way.
	Null bool
	// Agg is how the field's values within a time bucket become one when a
	// time series is asked for at a coarser resolution: every Number field
	// of a time series declares one (unless its dataset declares
	// NoResolution). On a Text field it makes the field a value aggregated
	// (Max: the latest publication date) rather than a group the records
	// are aggregated by.
	Agg Aggregation
}

// ParamKind is the kind of a query parameter.
type ParamKind int

// Parameter kinds.
const (
	// DateRange is a pair of dd/mm/yyyy parameters (Param.Name, Param.To)
	// selecting records whose moment lies within those Europe/Rome days.
	DateRange ParamKind = iota + 1
	// YearParam selects the records of one year ("2024").
	YearParam
	// MonthParam selects one month (1..12, "2" or "02") within YearParam's year.
	MonthParam
	// Enum filters a Text field by values of its reference list.
	Enum
	// TimeZoneParam chooses the zone in which instants are written:
	// Europe/Rome (the default) or UTC. Every dataset with an Instant field
	// takes it (Parameters); descriptors do not declare it.
	TimeZoneParam
	// AsOfParam, ChangedSinceParam and IncludeParam are the revision
	// parameters every dataset takes (Parameters); descriptors do not
	// declare them. AsOfParam answers the data as they stood at an RFC 3339
	// instant; ChangedSinceParam only the records published or revised
	// after one; IncludeParam "meta" adds each record's published_at and
	// revised_at.
	AsOfParam
	ChangedSinceParam
	IncludeParam
	// DayParam selects the records of one Europe/Rome day, dd/mm/yyyy
	// (the FCR auctions' marketDate); Param.Aliases are further names
	// accepted for it.
	DayParam
	// ResolutionParam, LimitParam and CursorParam are added by the
	// machinery too: resolution (time series only) aggregates the records
	// to a coarser grain (resolution.go); limit and cursor page through an
	// answer (page.go).
	ResolutionParam
	LimitParam
	CursorParam
)

// IncludeMeta is the value of the include parameter that adds each
// record's publication and revision times.
const IncludeMeta = "meta"

// revisionParams are the parameters the machinery adds to every dataset.
var revisionParams = []Param{
	{Name: "asOf", Kind: AsOfParam,
		Doc: "An RFC 3339 instant (2024-03-01T12:00:00Z): the data as they stood then. A record published later is absent; a record revised since shows its value then."},
	{Name: "changedSince", Kind: ChangedSinceParam,
		Doc: "An RFC 3339 instant: only the records first published or last revised after it."},
	{Name: "include", Kind: IncludeParam, Many: true,
		Doc: "meta: each record also carries published_at (when it was first published) and revised_at (when its values last changed), RFC 3339 instants in UTC."},
}

// TimeZones are the values of the timeZone parameter, the default first.
var timeZones = []string{energy.TimeZone, "UTC"}

// Parameters returns the dataset's query parameters: the declared ones,
// then those the machinery adds (timeZone, for datasets with instants;
// asOf, changedSince and include, for every dataset; resolution, for time
// series; limit and cursor, for every dataset).
func (d *Dataset) Parameters() []Param {
	ps := slices.Clone(d.Params)
	for _, f := range d.Fields {
		if f.Kind == Instant {
			ps = append(ps, Param{Name: "timeZone", Kind: TimeZoneParam,
				Doc: "Zone of the instants: Europe/Rome (the default: wall time with its offset) or UTC (date in UTC, date_tz UTC, offset +00:00)."})
			break
		}
	}
	ps = append(ps, revisionParams...)
	if d.TimeSeries() {
		ps = append(ps, resolutionParam)
	}
	return append(ps, pagingParams...)
}

// ParameterNames returns the names of the query parameters d takes, in
// its order: a date range's two.
func (d *Dataset) ParameterNames() []string {
	var names []string
	for _, p := range d.Parameters() {
		names = append(names, p.Name)
		if p.To != "" {
			names = append(names, p.To)
		}
	}
	return names
}

// Takes reports whether d takes the query parameter name.
func (d *Dataset) Takes(name string) bool { return slices.Contains(d.ParameterNames(), name) }

// Param is a query parameter.
type Param struct {
	Name     string
	Kind     ParamKind
	Doc      string
	Required bool
	Many     bool // 0..n, as repeated keys
	// To is the name of a DateRange's end parameter.
	To string
	// MaxDays bounds a DateRange's span, both ends counted; 0 for the
	// server's default (--max-range-days), -1 for none.
	MaxDays int
	// SameDay requires a DateRange's two days to be equal.
	SameDay bool
	// ShortYear lets a DateRange's (or DayParam's) days carry a two-digit
	// year, 2000 to 2099 ("22/11/23"), as the v1.0 pages' examples write them.
	ShortYear bool
	// Field is the Text field an Enum filters; Ref its accepted values
	// (the field's Ref when nil).
	Field string
	Ref   Ref
	// Within names another Enum parameter whose value must be this value's
	// parent (Ref must be a NestedRef): a subcategory of another category
	// than the one asked for is an unknown filter value.
	Within string
	// MonthNames lets a MonthParam take the month's Italian name
	// ("Gennaio") as well as its number.
	MonthNames bool
	// YearWindow bounds a YearParam to the current year and this many before
	// it; 0 for no window. Years outside it are unknown filter values.
	YearWindow int
	// Aliases are further names of a DayParam, read when Name is absent:
	// a page documents one name and a generated description another.
	Aliases []string
}

// Message is the text of result.message on success.
type Message int

// Success messages.
const (
	// MessageOK is "OK", the yearly statistics' message.
	MessageOK Message = iota + 1
	// MessageDates repeats the date range: "Operation completed for the
	// following input. Date from: 01/02/2024, date to: 29/02/2024".
	MessageDates
	// MessageYear repeats the year: "Operation completed for the following input. Year: 2018".
	MessageYear
	// MessageDatesColon is the Fees pages' wording of MessageDates:
	// "Operation completed for the following input: date from: 22/05/2022, date to: 23/05/2022".
	MessageDatesColon
	// MessageMarketDate repeats a DayParam's day: "Operation completed for
	// the following input. Market Date: 05/12/2025".
	MessageMarketDate
	// MessageRequest quotes the query as the transparency v1.0 answers did:
	// "Operation completed for the following request: {$and:[...]}" (a
	// View's Quote names the fields; Query.appendRequest). Views only.
	MessageRequest
)

// Validation is how an area answers a request whose parameters are invalid.
type Validation int

// Validation styles.
const (
	// ValidationFamily is the v2.0 areas' answer: a 400 whose result.message
	// reads "Input Validation Error: " and names the parameter and value.
	ValidationFamily Validation = iota
	// ValidationV1 is what the v1.0 Market, Adequacy and Outages pages
	// document: a 406 whose message reads "Input Validation Error: the value
	// entered is incorrect or does not conform to the expected format.
	// Value entered: " followed by the same detail.
	ValidationV1
)

// Derivation computes a dataset's records from another dataset's: the
// daily peak and valley from the quarter-hourly load. Records imported for
// the dataset itself win over derived ones with the same key.
type Derivation struct {
	From string // the source dataset's name
	// Rows returns the records derived from one partition of the source,
	// or from some of its periods (days, for a daily dataset): each
	// period's records from the source records of that period alone, with
	// distinct keys. A record is revised when what Rows returns for it
	// changes.
	Rows func(src *Part) []Row
	// Gaps, optional, says which periods of a source partition Rows derives
	// nothing for, and why ("2024-03-31: has 10 of its 92 quarter hours"),
	// for import reports.
	Gaps func(src *Part) []string
	// Partial, optional, derives from the periods Gaps lists what they
	// hold, for an import that asks to publish those records anyway.
	Partial func(src *Part) []Row
}

// Source is where a dataset's declared shape comes from: what a reader of
// GET /catalog or the OpenAPI document needs to judge how far to trust it.
type Source struct {
	// Ref is the developer-portal page the shape was read from (its URL),
	// or "live client: ..." naming code that calls the public deployment,
	// whose behaviour wins where it and the page disagree.
	Ref string
	// Confidence is "H" (a page or live code states the shape), "M" (one
	// secondary source) or "L" (inferred).
	Confidence string
	// Guess says what is still a guess; empty when nothing is.
	Guess string
}

// Dataset declares one endpoint of the family.
type Dataset struct {
	// Name identifies the dataset in the CLI, imports and the catalogue
	// ("total-load"); it never changes once data are stored under it.
	Name    string
	Title   string
	Doc     string
	Area    string // "load", "generation", ...
	Version string // "v2.0"
	// Resource is the last path segment; Path joins the three.
	Resource string
	// Aliases are further paths that serve the same data.
	Aliases []string
	// Views are further paths that serve the same data in another shape or
	// with another standing (deprecated), declared as data (view.go).
	Views []View
	Array string // the response's array name
	// Source is where the shape comes from.
	Source  Source
	Message Message
	// MessageKey names result's message field: "message" when empty; the
	// v1.0 Market, Adequacy and Outages pages spell it "messagge".
	MessageKey string
	// MessageParam names an Enum parameter whose value, when the request
	// gives one, the success message repeats after the dates, its name
	// spelt out in lower case (the monthly summary's ", data type: Orario").
	MessageParam string
	// Validation is how invalid parameters are answered.
	Validation Validation
	// Grain is the spacing of the records in time; from each day
	// GrainChanges names on, the records come at that change's grain.
	Grain        Grain
	GrainChanges []GrainChange
	// NoResolution, for a time series whose records cannot be aggregated
	// over time, says why (answered 400 to a request for a resolution);
	// empty when each field declares its Agg.
	NoResolution string
	Params       []Param
	Fields       []Field
	// Key names the Text fields that, with the record's moment at the
	// dataset's Grain, identify a record; every Text field when empty.
	Key []string
	// Order names the Text fields by which records of the same moment are
	// sorted (byte-wise); Key order when empty.
	Order []string
	// ExactlyOne names Number fields of which each record fills exactly one
	// (a peak-valley record is a peak or a valley), for documentation.
	ExactlyOne []string
	// Derive, when set, computes records from another dataset.
	Derive *Derivation
	// Import says how files for the dataset are read; nil when it takes
	// no files of its own.
	Import *ImportSpec
	// Demo generates the dataset's demo records, nil for none (a derived
	// dataset has its source's). Its input holds the demo records of the
	// datasets DemoFrom names, generated before it, so that every dataset
	// tells of the same synthetic power system, and the range and seed
	// of the demo data.
	Demo     func(in DemoInput) []Row
	DemoFrom []string
}

// DemoInput is what a dataset's demo generator is given.
type DemoInput struct {
	// From holds the demo records of the datasets DemoFrom names.
	From map[string][]Row
	// First and Last are the Europe/Rome days the time series cover, both
	// included. Yearly statistics keep the years they are built for.
	First, Last energy.Date
	// StatsFirst, when before First's year, is the first year of the
	// yearly statistics: the yearly datasets that read the time series
	// (demand coverage) are generated from it, from series that are
	// generated for them but not written (DemoPeriods).
	StatsFirst int
	// Seed seeds the synthetic system's weather and noise.
	Seed uint64
	// Grain and GrainChanges are the generated dataset's, from its
	// descriptor (GrainOn); zero when a generator is called directly.
	Grain        Grain
	GrainChanges []GrainChange
	// shared keeps what the generators of one run make once (DemoShared),
	// or of every run of one DemoSource; nil when a generator is called
	// directly.
	shared *sync.Map
}

// DemoShared returns build's value for key, built once for all the
// generators of one run (EachDemo, EachDemoIn), which are given the same
// seed, or of all the runs of one DemoSource: the yearly load statistics
// that six datasets read, for example. A value depends on the seed alone,
// never on the range. A key names one value of one type. Outside a run it
// calls build.
func DemoShared[T any](in DemoInput, key string, build func() T) T {
	if in.shared == nil {
		return build()
	}
	v, _ := in.shared.LoadOrStore(key, sync.OnceValue(build))
	return v.(func() T)()
}

// EachDemo calls fn for each dataset of c that has a demo generator, in
// catalogue order, with its position k of n and a generate function that
// runs the generator on in, its From filled with the records of the
// datasets DemoFrom names. Records are kept only while a later generator
// needs them. EachDemo returns fn's first error.
func (c *Catalog) EachDemo(in DemoInput, fn func(k, n int, d *Dataset, generate func() []Row) error) error {
	return c.eachDemo(in, func(*Dataset) bool { return true }, fn)
}

// EachDemoOf is EachDemo for the datasets names lists: the datasets they
// read (DemoFrom, transitively) are generated too, but not given to fn,
// and no other.
func (c *Catalog) EachDemoOf(in DemoInput, names []string, fn func(k, n int, d *Dataset, generate func() []Row) error) error {
	return c.eachDemo(in, func(d *Dataset) bool { return slices.Contains(names, d.Name) }, fn)
}

// ImportSpec says how import files become records.
type ImportSpec struct {
	// Parse reads one file (its name tells the format) into canonical
	// records; nil for the generic reader of CSV and XLSX files whose header
	// names each field's Column. Errors have code Invalid and read
	// "FILE:LINE: reason".
	Parse func(name string, r io.Reader) ([]Row, error)
	// Formats describes the files Parse reads, for help texts.
	Formats string
	// EnglishNumbers makes the generic reader read number cells in the
	// English format (a decimal point, commas between thousands: "1,234.5"),
	// as the transmission download files write them, instead of
	// energy.ParseNumber's rules, under which a comma is a decimal comma.
	EnglishNumbers bool
}

// ResultMessageKey returns the name of result's message field.
func (d *Dataset) ResultMessageKey() string {
	if d.MessageKey == "" {
		return "message"
	}
	return d.MessageKey
}

// Path returns the dataset's path: "/load/v2.0/total-load".
func (d *Dataset) Path() string { return "/" + d.Area + "/" + d.Version + "/" + d.Resource }

// Paths returns every path the dataset answers at: its own, its aliases,
// its views'.
func (d *Dataset) Paths() []string {
	out := append([]string{d.Path()}, d.Aliases...)
	for _, v := range d.Views {
		out = append(out, v.Path)
	}
	return out
}

// Layout is the position of each field's value within a Row.
type Layout struct {
	text    []int // field index -> index in Row.Text, -1 otherwise
	num     []int // field index -> index in Row.Num, -1 otherwise
	NText   int
	NNum    int
	key     []int // Row.Text indexes of the key, in key order
	order   []int // Row.Text indexes in sort order
	byName  map[string]int
	hasTime bool
}

// Check validates d and returns its layout, or an error naming what is wrong.
func (d *Dataset) Check() (*Layout, error) {
	if d.Name == "" || d.Area == "" || d.Version == "" || d.Resource == "" || d.Array == "" {
		return nil, d.errorf("name, area, version, resource and array are required")
	}
	if d.Grain < QuarterHour || d.Grain > Year {
		return nil, d.errorf("no grain")
	}
	if err := d.checkGrainChanges(); err != nil {
		return nil, err
	}
	l, err := d.fieldLayout()
	if err != nil {
		return nil, err
	}
	if err := d.checkWithin(l); err != nil {
		return nil, err
	}
	if err := d.keyLayout(l); err != nil {
		return nil, err
	}
	if err := d.checkParams(l); err != nil {
		return nil, err
	}
	return l, nil
}

// errorf returns an error about d's declaration.
func (d *Dataset) errorf(format string, args ...any) error {
	return fmt.Errorf("dataset %s: %s", d.Name, fmt.Sprintf(format, args...))
}

// fieldLayout places d's fields within a Row, and returns an error for a
// field that is unnamed, repeated or of no kind, or for a dataset without
// a time field.
func (d *Dataset) fieldLayout() (*Layout, error) {
	l := &Layout{byName: map[string]int{}}
	for i, f := range d.Fields {
		if _, dup := l.byName[f.Name]; dup || f.Name == "" {
			return nil, d.errorf("field %q is empty or repeated", f.Name)
		}
		l.byName[f.Name] = i
		t, n := -1, -1
		switch f.Kind {
		case Instant, YearOf, DateOf, MonthOf:
			l.hasTime = true
		case Text:
			t = l.NText
			l.NText++
		case Zone:
		case Number:
			n = l.NNum
			l.NNum++
		default:
			return nil, d.errorf("field %q has no kind", f.Name)
		}
		l.text = append(l.text, t)
		l.num = append(l.num, n)
	}
	if !l.hasTime {
		return nil, d.errorf("no time field")
	}
	return l, nil
}

// checkWithin checks the message parameter and the fields declared within
// another: the message parameter must be a 0..1 enum, and a field within
// another must name a text field and have a nested reference list.
func (d *Dataset) checkWithin(l *Layout) error {
	if d.MessageParam != "" {
		if p, ok := d.Param(d.MessageParam); !ok || p.Kind != Enum || p.Many {
			return d.errorf("message parameter %q is not a 0..1 enum", d.MessageParam)
		}
	}
	for _, f := range d.Fields {
		if f.Within == "" {
			continue
		}
		if p, ok := l.byName[f.Within]; !ok || l.text[p] < 0 {
			return d.errorf("field %q is within %q, which is not a text field", f.Name, f.Within)
		}
		if _, ok := f.Ref.(NestedRef); !ok {
			return d.errorf("field %q is within %q but its list is not nested", f.Name, f.Within)
		}
	}
	return nil
}

// textIndex returns the index in Row.Text of d's text field name.
func (l *Layout) textIndex(d *Dataset, name string) (int, error) {
	i, ok := l.byName[name]
	if !ok || l.text[i] < 0 {
		return 0, d.errorf("%q is not a text field", name)
	}
	return l.text[i], nil
}

// keyLayout sets l's key and sort order: d's Key, by default every text
// field, and d's Order, by default the key.
func (d *Dataset) keyLayout(l *Layout) error {
	key := d.Key
	if len(key) == 0 {
		for _, f := range d.Fields {
			if f.Kind == Text {
				key = append(key, f.Name)
			}
		}
	}
	for _, k := range key {
		i, err := l.textIndex(d, k)
		if err != nil {
			return err
		}
		l.key = append(l.key, i)
	}
	order := d.Order
	if len(order) == 0 {
		order = key
	}
	for _, k := range order {
		i, err := l.textIndex(d, k)
		if err != nil {
			return err
		}
		l.order = append(l.order, i)
	}
	return nil
}

// checkParams checks d's parameters: names (and aliases) used once,
// including by the machinery's revision parameters and include=meta's
// columns, and each kind's declaration complete.
func (d *Dataset) checkParams(l *Layout) error {
	seen := map[string]bool{resolutionParam.Name: true}
	for _, p := range append(slices.Clone(revisionParams), pagingParams...) {
		seen[p.Name] = true
	}
	for _, c := range d.Columns() {
		if c == PublishedAt || c == RevisedAt {
			return d.errorf("field %q is a name include=meta adds", c)
		}
	}
	for _, p := range d.Params {
		if seen[p.Name] || (p.To != "" && seen[p.To]) {
			return d.errorf("parameter %q repeated", p.Name)
		}
		seen[p.Name], seen[p.To] = true, p.To != ""
		for _, a := range p.Aliases {
			if seen[a] || p.Kind != DayParam {
				return d.errorf("parameter %q: alias %q repeated or not of a day", p.Name, a)
			}
			seen[a] = true
		}
		if err := d.checkParamKind(l, p); err != nil {
			return err
		}
	}
	return nil
}

// checkParamKind checks what p's kind requires of its declaration.
func (d *Dataset) checkParamKind(l *Layout, p Param) error {
	switch p.Kind {
	case DateRange:
		if p.To == "" {
			return d.errorf("date range %q has no end parameter", p.Name)
		}
	case Enum:
		if _, err := l.textIndex(d, p.Field); err != nil {
			return err
		}
		if p.Ref == nil && d.Fields[l.byName[p.Field]].Ref == nil {
			return d.errorf("enum %q has no reference list", p.Name)
		}
		if p.Within != "" {
			if _, ok := d.paramRef(p).(NestedRef); !ok {
				return d.errorf("enum %q is within %q but its list is not nested", p.Name, p.Within)
			}
		}
	case YearParam, MonthParam, DayParam:
	case TimeZoneParam, AsOfParam, ChangedSinceParam, IncludeParam, ResolutionParam, LimitParam, CursorParam:
		return d.errorf("parameter %q: its kind is added by the machinery, not declared", p.Name)
	default:
		return d.errorf("parameter %q has no kind", p.Name)
	}
	return nil
}

// paramRef returns the reference list an Enum parameter accepts.
func (d *Dataset) paramRef(p Param) Ref {
	if p.Ref != nil {
		return p.Ref
	}
	for _, f := range d.Fields {
		if f.Name == p.Field {
			return f.Ref
		}
	}
	return nil
}

// Param returns the parameter named name.
func (d *Dataset) Param(name string) (Param, bool) {
	for _, p := range d.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// TextFields returns the names of the Text fields in Row.Text order.
func (d *Dataset) TextFields() []string { return d.fieldNames(Text) }

// NumberFields returns the names of the Number fields in Row.Num order.
func (d *Dataset) NumberFields() []string { return d.fieldNames(Number) }

// fieldNames returns the names of the fields of kind k, in order.
func (d *Dataset) fieldNames(k FieldKind) []string {
	var out []string
	for _, f := range d.Fields {
		if f.Kind == k {
			out = append(out, f.Name)
		}
	}
	return out
}

// Catalog is the set of served datasets, checked once.
type Catalog struct {
	list   []*Dataset
	layout map[*Dataset]*Layout
	byName map[string]*Dataset
	views  map[*View]*viewLayout
}

// NewCatalog checks every dataset and returns the catalogue, or an error
// naming the first that is malformed, a repeated name or path, or a
// derivation from a dataset not in the list.
func NewCatalog(ds ...*Dataset) (*Catalog, error) {
	c := &Catalog{layout: map[*Dataset]*Layout{}, byName: map[string]*Dataset{}, views: map[*View]*viewLayout{}}
	paths := map[string]bool{}
	for _, d := range ds {
		l, err := d.Check()
		if err != nil {
			return nil, err
		}
		if c.byName[d.Name] != nil {
			return nil, fmt.Errorf("dataset %s declared twice", d.Name)
		}
		views, err := d.checkViews()
		if err != nil {
			return nil, err
		}
		maps.Copy(c.views, views)
		for _, p := range d.Paths() {
			if paths[p] {
				return nil, fmt.Errorf("dataset %s: path %s is served twice", d.Name, p)
			}
			paths[p] = true
		}
		c.list = append(c.list, d)
		c.layout[d] = l
		c.byName[d.Name] = d
	}
	for i, d := range ds {
		if d.Derive != nil && c.byName[d.Derive.From] == nil {
			return nil, fmt.Errorf("dataset %s derives from unknown dataset %q", d.Name, d.Derive.From)
		}
		for _, from := range d.DemoFrom {
			// Demo data are generated in catalogue order.
			if j := slices.IndexFunc(ds, func(e *Dataset) bool { return e.Name == from }); j < 0 || j >= i || ds[j].Demo == nil {
				return nil, fmt.Errorf("dataset %s: demo data from %q, which is not a dataset with demo data declared before it", d.Name, from)
			}
		}
	}
	return c, nil
}

// All returns the datasets in declaration order.
func (c *Catalog) All() []*Dataset { return slices.Clone(c.list) }

// Lookup returns the dataset named name, accepting any letter case.
func (c *Catalog) Lookup(name string) (*Dataset, bool) {
	if d, ok := c.byName[name]; ok {
		return d, true
	}
	for n, d := range c.byName {
		if strings.EqualFold(n, name) {
			return d, true
		}
	}
	return nil, false
}

// Names returns every dataset's name in declaration order.
func (c *Catalog) Names() []string {
	out := make([]string, len(c.list))
	for i, d := range c.list {
		out[i] = d.Name
	}
	return out
}

func (c *Catalog) layoutOf(d *Dataset) *Layout { return c.layout[d] }

// EnumValues returns the canonical values an Enum (or TimeZoneParam)
// parameter accepts, in their documented order.
func (d *Dataset) EnumValues(p Param) []string {
	switch p.Kind {
	case TimeZoneParam:
		return slices.Clone(timeZones)
	case IncludeParam:
		return []string{IncludeMeta}
	case ResolutionParam:
		var out []string
		for _, g := range d.Resolutions() {
			out = append(out, g.ISO())
		}
		return out
	}
	if r := d.paramRef(p); r != nil {
		return r.Values()
	}
	return nil
}
