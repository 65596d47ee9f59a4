package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/energyapi/energyapi/internal/coding"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// catalogBody is GET /catalog: every dataset with what a caller needs to
// query it and what data it holds.
type catalogBody struct {
	Datasets []catalogDataset `json:"datasets"`
}

type catalogDataset struct {
	Name        string   `json:"name"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Method      string   `json:"method"`
	Path        string   `json:"path"`
	Aliases     []string `json:"aliases,omitempty"`
	// Paths are every path the dataset answers at, its own first, with
	// each one's standing, source and coverage.
	Paths       []catalogPath  `json:"paths"`
	Array       string         `json:"array"`
	Source      *catalogSource `json:"source"` // null for a dataset that declares none
	Granularity string         `json:"granularity"`
	// GrainChanges are the days from which the records come at another
	// granularity (quarter hours after hours), each with its source.
	GrainChanges []catalogGrainChange `json:"grain_changes,omitempty"`
	// Resolutions are the values resolution takes, for a time series that
	// can be aggregated, and Aggregations how each field aggregates then,
	// by name; NoResolution says why a time series cannot.
	Resolutions  []string          `json:"resolutions,omitempty"`
	Aggregations map[string]string `json:"aggregations,omitempty"`
	NoResolution string            `json:"no_resolution,omitempty"`
	Parameters   []catalogParam    `json:"parameters"`
	Fields       []catalogField    `json:"fields"`
	Coverage     *catalogCoverage  `json:"coverage"`
	Derived      string            `json:"derived_from,omitempty"`
	Importable   bool              `json:"importable"`
	// LastUpdate is when an import last changed the dataset's records (for
	// a derived dataset, also those it derives from), null before any;
	// DataVersion the store's data version of that import, 0 before any.
	LastUpdate  *string `json:"last_update"`
	DataVersion int64   `json:"data_version"`
	// Mirror is what a mirror of an upstream deployment fetched of the
	// dataset into the store; absent on a store that mirrors nothing.
	Mirror *catalogMirror `json:"mirror,omitempty"`
}

// catalogMirror is a dataset's mirrored coverage: the upstream, its
// request windows planned and fetched, the days the fetched ones cover
// and when the last was fetched.
type catalogMirror struct {
	Upstream  string `json:"upstream"`
	Windows   int    `json:"windows"`
	Fetched   int    `json:"fetched"`
	First     string `json:"first,omitempty"`
	Last      string `json:"last,omitempty"`
	LastFetch string `json:"last_fetch,omitempty"`
}

// catalogPath is one path a dataset answers at: its own, an alias, or a
// view (a former prefix, a v1.0 path) with the array and fields it shows.
type catalogPath struct {
	Path   string         `json:"path"`
	Status dataset.Status `json:"status"` // current or deprecated
	Source *catalogSource `json:"source"`
	// Successor, Deprecation and Sunset are a deprecated path's: the path
	// that replaces it and the dates its headers announce (RFC 3339).
	Successor   string `json:"successor,omitempty"`
	Deprecation string `json:"deprecation,omitempty"`
	Sunset      string `json:"sunset,omitempty"`
	// Array and Fields are a view's own, when they differ from the dataset's.
	Array  string         `json:"array,omitempty"`
	Fields []catalogField `json:"fields,omitempty"`
	// Coverage is what the path answers: the dataset's, up to the day
	// before the view's data stop.
	Coverage *catalogCoverage `json:"coverage"`
}

// catalogSource is where a dataset's shape comes from: the portal page or
// the live client, how sure that is, and what is still a guess.
type catalogSource struct {
	Ref        string `json:"ref"`
	Confidence string `json:"confidence"`
	Guess      string `json:"guess,omitempty"`
}

// catalogGrainChange is a day from which a dataset's records come at
// another granularity, and where that was read.
type catalogGrainChange struct {
	From        string        `json:"from"` // yyyy-mm-dd, the first day at Granularity
	Granularity string        `json:"granularity"`
	Source      catalogSource `json:"source"`
}

type catalogParam struct {
	Name        string   `json:"name"`
	Kind        string   `json:"kind"`
	Required    bool     `json:"required"`
	Repeatable  bool     `json:"repeatable"`
	Description string   `json:"description,omitempty"`
	Values      []string `json:"values,omitempty"`
	MaxDays     int      `json:"max_days,omitempty"`
}

type catalogField struct {
	Name        string `json:"name"`
	Format      string `json:"format"`
	Description string `json:"description,omitempty"`
}

// catalogCoverage is the span of the stored records, null when there are none.
type catalogCoverage struct {
	First   string `json:"first"` // yyyy-mm-dd
	Last    string `json:"last"`
	Records int    `json:"records,omitempty"` // absent for a path whose data stop within the span
}

// catalogAnswer is the catalogue as of one snapshot, encoded, with the
// compressed forms made so far.
type catalogAnswer struct {
	snap   *dataset.Snapshot
	mirror *Mirrored
	forms  *coding.Forms
}

// handleCatalog serves GET /catalog. The body changes only with the data,
// so it is encoded (and each compressed form made) once per snapshot. The
// first request on a snapshot derives the derived datasets' parts not yet
// derived, for their coverage (TableOf): after an import, those whose
// source changed; after a server starts, every one.
func handleCatalog(o Options) http.Handler {
	var last atomic.Pointer[catalogAnswer]
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		snap := o.Data.Snapshot()
		a := last.Load()
		var mirrored *Mirrored
		if o.Data.Mirrored != nil {
			mirrored = o.Data.Mirrored()
		}
		if a == nil || a.snap != snap || a.mirror != mirrored {
			out := catalogBody{Datasets: []catalogDataset{}}
			for _, d := range o.Data.Catalog.All() {
				t, err := snap.TableOf(r.Context(), d)
				if err != nil { // a part not read from the store: 503, as for data
					writeError(w, r, o.Log, err)
					return
				}
				cd := describeDataset(o, d, t, requestDate(o, r))
				cd.Mirror = mirroredOf(mirrored, d.Name)
				out.Datasets = append(out.Datasets, cd)
			}
			body, err := json.Marshal(out)
			if err != nil { // our own types always marshal
				writeError(w, r, o.Log, err)
				return
			}
			a = &catalogAnswer{snap: snap, mirror: mirrored, forms: coding.NewForms(body)}
			last.Store(a)
		}
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Content-Type", "application/json")
		o.Cache.Compression.ServeBody(w, r, http.StatusOK, a.forms)
	})
}

// mirroredOf is the mirrored coverage of dataset name, nil for none.
func mirroredOf(m *Mirrored, name string) *catalogMirror {
	if m == nil {
		return nil
	}
	ds, ok := m.Datasets[name]
	if !ok {
		return nil
	}
	out := &catalogMirror{Upstream: strings.Join(m.Upstreams, " "), Windows: ds.Windows, Fetched: ds.Fetched, First: ds.First, Last: ds.Last}
	if !ds.LastFetch.IsZero() {
		out.LastFetch = ds.LastFetch.UTC().Format(time.RFC3339)
	}
	return out
}

func describeDataset(o Options, d *dataset.Dataset, t *dataset.Table, now time.Time) catalogDataset {
	cd := catalogDataset{
		Name: d.Name, Title: d.Title, Description: d.Doc, Method: http.MethodGet, Path: d.Path(), Aliases: d.Aliases,
		Array: d.Array, Granularity: d.Grain.String(), Importable: d.Import != nil,
	}
	if d.Source.Ref != "" {
		cd.Source = &catalogSource{Ref: d.Source.Ref, Confidence: d.Source.Confidence, Guess: d.Source.Guess}
	}
	for _, c := range d.GrainChanges {
		cd.GrainChanges = append(cd.GrainChanges, catalogGrainChange{From: c.From.String(), Granularity: c.Grain.String(),
			Source: catalogSource{Ref: c.Source.Ref, Confidence: c.Source.Confidence, Guess: c.Source.Guess}})
	}
	if d.Derive != nil {
		cd.Derived = d.Derive.From
	}
	cd.Parameters = catalogParams(d, o.Data.MaxRangeDays)
	if d.TimeSeries() {
		cd.Resolutions = d.EnumValues(dataset.Param{Kind: dataset.ResolutionParam})
		cd.NoResolution = d.ResolutionRefusal()
		for _, f := range d.Fields {
			if f.Agg != 0 && cd.NoResolution == "" {
				if cd.Aggregations == nil {
					cd.Aggregations = map[string]string{}
				}
				cd.Aggregations[f.Name] = f.Agg.String()
			}
		}
	}
	cd.Fields = catalogFields(d)
	if first, last, ok := t.Coverage(); ok {
		cd.Coverage = answered(d, now, &catalogCoverage{First: romeDay(first), Last: romeDay(last), Records: t.Records()})
	}
	cd.Paths = catalogPaths(d, cd)
	if version, written, ok := t.Latest(); ok {
		s := written.UTC().Format(time.RFC3339Nano)
		cd.LastUpdate, cd.DataVersion = &s, version
	}
	return cd
}

// catalogParams describes d's query parameters; maxRangeDays is the
// server's bound of a date range its parameter does not bound itself.
func catalogParams(d *dataset.Dataset, maxRangeDays int) []catalogParam {
	var out []catalogParam
	for _, p := range d.Parameters() {
		switch p.Kind {
		case dataset.TimeZoneParam:
			out = append(out, catalogParam{Name: p.Name, Kind: "timezone", Description: p.Doc, Values: d.EnumValues(p)})
		case dataset.AsOfParam, dataset.ChangedSinceParam:
			out = append(out, catalogParam{Name: p.Name, Kind: "instant", Description: p.Doc})
		case dataset.IncludeParam:
			out = append(out, catalogParam{Name: p.Name, Kind: "enum", Repeatable: p.Many, Description: p.Doc, Values: d.EnumValues(p)})
		case dataset.DateRange:
			maxDays := p.MaxDays
			if maxDays == 0 {
				maxDays = maxRangeDays
			}
			if p.SameDay {
				maxDays = 1
			}
			out = append(out,
				catalogParam{Name: p.Name, Kind: "date", Required: true, Description: "First day, dd/mm/yyyy.", MaxDays: max(maxDays, 0)},
				catalogParam{Name: p.To, Kind: "date", Required: true, Description: "Last day, included, dd/mm/yyyy.", MaxDays: max(maxDays, 0)})
		case dataset.DayParam:
			for _, name := range append([]string{p.Name}, p.Aliases...) {
				out = append(out, catalogParam{Name: name, Kind: "date", Required: name == p.Name && p.Required, Description: p.Doc, MaxDays: 1})
			}
		case dataset.YearParam:
			out = append(out, catalogParam{Name: p.Name, Kind: "year", Required: p.Required, Description: p.Doc})
		case dataset.MonthParam:
			out = append(out, catalogParam{Name: p.Name, Kind: "month", Required: p.Required, Description: p.Doc})
		case dataset.Enum:
			out = append(out, catalogParam{Name: p.Name, Kind: "enum", Required: p.Required, Repeatable: p.Many, Description: p.Doc, Values: d.EnumValues(p)})
		case dataset.ResolutionParam:
			out = append(out, catalogParam{Name: p.Name, Kind: "resolution", Description: p.Doc, Values: d.EnumValues(p)})
		case dataset.LimitParam:
			out = append(out, catalogParam{Name: p.Name, Kind: "integer", Description: p.Doc})
		case dataset.CursorParam:
			out = append(out, catalogParam{Name: p.Name, Kind: "cursor", Description: p.Doc})
		}
	}
	return out
}

// catalogFields describes the fields of d's records, as the answers name them.
func catalogFields(d *dataset.Dataset) []catalogField {
	var out []catalogField
	for _, f := range d.Fields {
		if f.Hidden {
			continue
		}
		switch f.Kind {
		case dataset.Instant:
			out = append(out, catalogField{f.Name, "datetime", f.Doc})
			if f.TZ != "" {
				out = append(out, catalogField{f.TZ, "timezone", "IANA time zone of " + f.Name + "."})
			}
			if f.Offset != "" {
				out = append(out, catalogField{f.Offset, "offset", "UTC offset of " + f.Name + "."})
			}
		case dataset.YearOf:
			out = append(out, catalogField{f.Name, "year", f.Doc})
		case dataset.MonthOf:
			out = append(out, catalogField{f.Name, "text", f.Doc})
		case dataset.DateOf:
			out = append(out, catalogField{f.Name, "date", f.Doc})
		case dataset.Text:
			kind := "text"
			if f.Layout != "" {
				kind = "date"
			}
			out = append(out, catalogField{f.Name, kind, f.Doc})
		case dataset.Zone:
			out = append(out, catalogField{f.Name, "timezone", f.Doc})
		case dataset.Number:
			format := "decimal-point"
			if f.Format.Italian {
				format = "decimal-comma"
			}
			out = append(out, catalogField{f.Name, format, f.Doc})
		}
	}
	return out
}

func romeDay(u int64) string { return time.Unix(u, 0).In(energy.Rome()).Format("2006-01-02") }

// catalogPaths lists every path d answers at, as cd describes d.
func catalogPaths(d *dataset.Dataset, cd catalogDataset) []catalogPath {
	out := []catalogPath{{Path: d.Path(), Status: dataset.StatusCurrent, Source: cd.Source, Coverage: cd.Coverage}}
	for _, a := range d.Aliases {
		out = append(out, catalogPath{Path: a, Status: dataset.StatusCurrent, Source: cd.Source, Coverage: cd.Coverage})
	}
	for i := range d.Views {
		v := &d.Views[i]
		p := catalogPath{Path: v.Path, Status: v.Status(), Source: cd.Source, Coverage: viewCoverage(d, v, cd.Coverage)}
		if v.Source.Ref != "" {
			p.Source = &catalogSource{Ref: v.Source.Ref, Confidence: v.Source.Confidence, Guess: v.Source.Guess}
		}
		if v.Status() == dataset.StatusDeprecated {
			p.Successor, p.Deprecation = v.SuccessorOf(d), v.Deprecated.UTC().Format(time.RFC3339)
			if !v.Sunset.IsZero() {
				p.Sunset = v.Sunset.UTC().Format(time.RFC3339)
			}
		}
		if v.Reshapes() {
			vd := d.Viewed(v)
			p.Array, p.Fields = vd.Array, catalogFields(vd)
		}
		out = append(out, p)
	}
	return out
}

// viewCoverage is the part of the dataset's coverage c that view v
// answers: the days before its data stop. The record count is the
// dataset's only when the view answers them all.
func viewCoverage(d *dataset.Dataset, v *dataset.View, c *catalogCoverage) *catalogCoverage {
	if c == nil || v.Until == (energy.Date{}) {
		return c
	}
	return within(c, "", periodStart(d, v.Until.AddDays(-1)))
}

// answered is the part of coverage c that d answers now: a year parameter
// with a window refuses the years before it.
func answered(d *dataset.Dataset, now time.Time, c *catalogCoverage) *catalogCoverage {
	for _, p := range d.Params {
		if p.Kind == dataset.YearParam && p.YearWindow > 0 {
			y := now.In(energy.Rome()).Year()
			return within(c, fmt.Sprintf("%04d-01-01", y-p.YearWindow), fmt.Sprintf("%04d-01-01", y))
		}
	}
	return c
}

// periodStart is the first day of d's period (a year, a month, a day) holding day.
func periodStart(d *dataset.Dataset, day energy.Date) string {
	switch {
	case d.Grain == dataset.Year:
		day.Month, day.Day = time.January, 1
	case d.Grain == dataset.Month:
		day.Day = 1
	}
	return day.String()
}

// within is the part of c from day start to day stop (yyyy-mm-dd, both
// included; "" for no bound), nil if none; the record count only when
// it is all of c.
func within(c *catalogCoverage, start, stop string) *catalogCoverage {
	if stop == "" {
		stop = c.Last
	}
	out := &catalogCoverage{First: max(c.First, start), Last: min(c.Last, stop)}
	switch {
	case out.First > out.Last:
		return nil
	case *out == catalogCoverage{First: c.First, Last: c.Last}:
		return c
	}
	return out
}
