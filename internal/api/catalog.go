package api

import (
	"encoding/json"
	"net/http"
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
	Name        string         `json:"name"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	Method      string         `json:"method"`
	Path        string         `json:"path"`
	Aliases     []string       `json:"aliases,omitempty"`
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
	Records int    `json:"records"`
}

// catalogAnswer is the catalogue as of one snapshot, encoded, with the
// compressed forms made so far.
type catalogAnswer struct {
	snap  *dataset.Snapshot
	forms *coding.Forms
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
		if a == nil || a.snap != snap {
			out := catalogBody{Datasets: []catalogDataset{}}
			for _, d := range o.Data.Catalog.All() {
				t, err := snap.TableOf(r.Context(), d)
				if err != nil { // a part not read from the store: 503, as for data
					writeError(w, r, o.Log, err)
					return
				}
				out.Datasets = append(out.Datasets, describeDataset(o, d, t))
			}
			body, err := json.Marshal(out)
			if err != nil { // our own types always marshal
				writeError(w, r, o.Log, err)
				return
			}
			a = &catalogAnswer{snap: snap, forms: coding.NewForms(body)}
			last.Store(a)
		}
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Content-Type", "application/json")
		o.Cache.Compression.ServeBody(w, r, http.StatusOK, a.forms)
	})
}

func describeDataset(o Options, d *dataset.Dataset, t *dataset.Table) catalogDataset {
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
		day := func(u int64) string { return time.Unix(u, 0).In(energy.Rome()).Format("2006-01-02") }
		cd.Coverage = &catalogCoverage{First: day(first), Last: day(last), Records: t.Records()}
	}
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
