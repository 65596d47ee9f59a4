package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// demoHarness serves the demo data of demoSource: both 2024 clock changes.
func demoHarness(t *testing.T) (*harness, *dataset.Catalog) {
	t.Helper()
	cat, src := demoSource(t)
	return newHarnessWith(t, apitest.Options{Catalog: cat, Source: src}), cat
}

// decodeArray decodes member array of the JSON object body into v, in one
// pass over the text rather than reading every member raw and then the
// array again (the tests read megabytes of answers); the members after it
// are read too, so that body must be one whole JSON object.
func decodeArray(body []byte, array string, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return fmt.Errorf("not a JSON object (%v)", err)
	}
	found := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if key, _ := tok.(string); key == array && !found {
			if err := dec.Decode(v); err != nil {
				return fmt.Errorf("array %s: %w", array, err)
			}
			found = true
			continue
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("text after the object (%v)", err)
	}
	if !found {
		return fmt.Errorf("no array %s", array)
	}
	return nil
}

// recordsOf returns the array of a 200 JSON answer, its values as strings
// (null as "").
func recordsOf(t *testing.T, what string, r response, array string) []map[string]string {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("%s: got %d (%s), want 200", what, r.status, r.body)
	}
	var recs []map[string]*string
	if err := decodeArray(r.body, array, &recs); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	out := make([]map[string]string, len(recs))
	for i, rec := range recs {
		out[i] = map[string]string{}
		for k, v := range rec {
			if v != nil {
				out[i][k] = *v
			}
		}
	}
	return out
}

// TestResolutionClockChangeDays checks resolution=P1D of total-load on the
// days the clocks change: each zone's day is the mean of its 92 and 100
// quarter hours, computed here from the unaggregated answer.
func TestResolutionClockChangeDays(t *testing.T) {
	t.Parallel()
	h, _ := demoHarness(t)
	for _, tc := range []struct {
		day    string
		hours  int
		offset string
		date   string
	}{
		{"31/03/2024", 92, "+01:00", "2024-03-31 00:00:00"},
		{"27/10/2024", 100, "+02:00", "2024-10-27 00:00:00"},
	} {
		path := "/load/v2.0/total-load?dateFrom=" + tc.day + "&dateTo=" + tc.day
		raw := recordsOf(t, tc.day, h.get(t, path), "total_load")
		type sums struct {
			n       int
			sum, fc float64
			fcN     int
		}
		want := map[string]*sums{}
		for _, rec := range raw {
			s := want[rec["bidding_zone"]]
			if s == nil {
				s = &sums{}
				want[rec["bidding_zone"]] = s
			}
			s.n++
			s.sum += parse(t, rec["total_load_MW"])
			if rec["forecast_total_load_MW"] != "" {
				s.fc += parse(t, rec["forecast_total_load_MW"])
				s.fcN++
			}
		}
		r := h.get(t, path+"&resolution=P1D")
		if got := r.header.Get("X-Resolution"); got != "P1D" {
			t.Errorf("%s: X-Resolution %q, want P1D", tc.day, got)
		}
		var env envelope
		_ = json.Unmarshal(r.body, &env)
		if !strings.HasSuffix(env.Result.Message, ", resolution: P1D") {
			t.Errorf("%s: message %q, want it to end with the resolution", tc.day, env.Result.Message)
		}
		days := recordsOf(t, tc.day+" P1D", r, "total_load")
		if len(days) != len(want) || len(want) == 0 {
			t.Fatalf("%s: got %d daily records, want one per zone (%d)", tc.day, len(days), len(want))
		}
		for _, rec := range days {
			s := want[rec["bidding_zone"]]
			if s == nil || s.n != tc.hours {
				t.Fatalf("%s %s: %v quarter hours, want %d", tc.day, rec["bidding_zone"], s, tc.hours)
			}
			if rec["date"] != tc.date || rec["date_offset"] != tc.offset {
				t.Errorf("%s %s: dated %s %s, want %s %s", tc.day, rec["bidding_zone"], rec["date"], rec["date_offset"], tc.date, tc.offset)
			}
			if got, want := parse(t, rec["total_load_MW"]), s.sum/float64(s.n); got != want {
				t.Errorf("%s %s: total_load_MW %v, want the mean %v", tc.day, rec["bidding_zone"], got, want)
			}
			if s.fcN > 0 {
				if got, want := parse(t, rec["forecast_total_load_MW"]), s.fc/float64(s.fcN); got != want {
					t.Errorf("%s %s: forecast %v, want the mean %v", tc.day, rec["bidding_zone"], got, want)
				}
			}
		}
	}
}

func parse(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return v
}

// TestResolutionEveryAggregation checks every time series at every
// resolution coarser than its records over the March clock change: each
// aggregated record equals its bucket's records of the unaggregated
// answer aggregated as its fields declare, and each declared aggregation
// is met.
func TestResolutionEveryAggregation(t *testing.T) {
	t.Parallel()
	h, cat := demoHarness(t)
	met := map[dataset.Aggregation]bool{}
	for _, d := range cat.All() {
		var raw []map[string]string // the unaggregated answer, asked once
		for _, g := range d.Resolutions() {
			// The days asked for (2024) are before any grain change.
			if g <= d.Grain {
				continue
			}
			base := resolutionQuery(d)
			if raw == nil {
				raw = recordsOf(t, d.Name, h.get(t, d.Path()+"?"+base.Encode()), d.Array)
			}
			base.Set("resolution", g.ISO())
			got := recordsOf(t, d.Name+" "+g.ISO(), h.get(t, d.Path()+"?"+base.Encode()), d.Array)
			want := aggregateRecords(t, d, g, raw)
			if len(got) != len(want) || len(got) == 0 {
				t.Errorf("%s %s: got %d records, want %d (from %d)", d.Name, g.ISO(), len(got), len(want), len(raw))
				continue
			}
			for _, rec := range got {
				w, ok := want[groupKey(d, rec)]
				if !ok {
					t.Errorf("%s %s: record %v in no bucket of the unaggregated answer", d.Name, g.ISO(), rec)
					continue
				}
				for _, f := range d.Fields {
					if f.Agg == 0 {
						continue
					}
					if !sameValue(f, rec[f.Name], w[f.Name]) {
						t.Errorf("%s %s %s %s: got %q, want %q", d.Name, g.ISO(), groupKey(d, rec), f.Name, rec[f.Name], w[f.Name])
					}
					met[f.Agg] = met[f.Agg] || w[f.Name] != ""
				}
			}
		}
	}
	for _, a := range dataset.Aggregations {
		if !met[a] {
			t.Errorf("aggregation %s: no field tested with it", a)
		}
	}
}

// resolutionQuery asks d for the two days of the March clock change in
// UTC: instants that tell the repeated and skipped hours apart.
func resolutionQuery(d *dataset.Dataset) url.Values {
	q := url.Values{}
	for _, p := range d.Params {
		switch {
		case p.Kind == dataset.DateRange && p.SameDay:
			q.Set(p.Name, "31/03/2024")
			q.Set(p.To, "31/03/2024")
		case p.Kind == dataset.DateRange:
			q.Set(p.Name, "30/03/2024")
			q.Set(p.To, "31/03/2024")
		case p.Kind == dataset.DayParam:
			q.Set(p.Name, "31/03/2024")
		case p.Required && p.Kind == dataset.Enum:
			q.Set(p.Name, d.EnumValues(p)[0])
		}
	}
	if d.Takes("timeZone") {
		q.Set("timeZone", "UTC")
	}
	return q
}

// moment returns a record's time field: its instant (asked in UTC), or
// its day; and the layout and zone it is written in.
func moment(d *dataset.Dataset) (name, layout string, zone *time.Location) {
	for _, f := range d.Fields {
		switch f.Kind {
		case dataset.Instant:
			return f.Name, "2006-01-02 15:04:05", time.UTC
		case dataset.DateOf:
			layout := f.Layout
			if layout == "" {
				layout = "2006-01-02"
			}
			return f.Name, layout, energy.Rome()
		}
	}
	return "", "", nil
}

// groupKey is a record's moment and the values of the text fields it is
// grouped by.
func groupKey(d *dataset.Dataset, rec map[string]string) string {
	name, _, _ := moment(d)
	key := rec[name]
	for _, f := range d.Fields {
		if f.Kind == dataset.Text && f.Agg == 0 && !f.Hidden {
			key += "|" + rec[f.Name]
		}
	}
	return key
}

// aggregateRecords aggregates raw records of d to grain g as d declares,
// by group key; values as the answer writes them.
func aggregateRecords(t *testing.T, d *dataset.Dataset, g dataset.Grain, raw []map[string]string) map[string]map[string]string {
	t.Helper()
	name, layout, zone := moment(d)
	values := map[string]map[string][]string{}
	var order []string
	for _, rec := range raw {
		at, err := time.ParseInLocation(layout, rec[name], zone)
		if err != nil {
			t.Fatalf("%s: %s %q: %v", d.Name, name, rec[name], err)
		}
		b := bucketOf(at, g).In(zone).Format(layout)
		bucketed := map[string]string{name: b}
		for k, v := range rec {
			if k != name {
				bucketed[k] = v
			}
		}
		key := groupKey(d, bucketed)
		if values[key] == nil {
			values[key] = map[string][]string{}
			order = append(order, key)
		}
		for _, f := range d.Fields {
			if f.Agg != 0 && rec[f.Name] != "" {
				values[key][f.Name] = append(values[key][f.Name], rec[f.Name])
			}
		}
	}
	out := map[string]map[string]string{}
	for _, key := range order {
		out[key] = map[string]string{}
		for _, f := range d.Fields {
			if f.Agg != 0 {
				out[key][f.Name] = aggregateValues(t, f, values[key][f.Name])
			}
		}
	}
	return out
}

// bucketOf returns the start of the bucket of grain g holding at: Europe/Rome
// calendar days and months, hours and quarter hours of absolute time.
func bucketOf(at time.Time, g dataset.Grain) time.Time {
	switch g {
	case dataset.QuarterHour:
		return at.Truncate(15 * time.Minute)
	case dataset.Hour:
		return at.Truncate(time.Hour)
	}
	y, m, day := at.In(energy.Rome()).Date()
	if g == dataset.Month {
		day = 1
	}
	return time.Date(y, m, day, 0, 0, 0, 0, energy.Rome())
}

// aggregateValues aggregates a field's values as it declares, in order,
// formatted as the answer formats them; "" for none.
func aggregateValues(t *testing.T, f dataset.Field, vs []string) string {
	t.Helper()
	if len(vs) == 0 {
		return ""
	}
	if f.Kind == dataset.Text {
		best := vs[0]
		for _, v := range vs[1:] {
			if f.Agg == dataset.Max && v > best || f.Agg == dataset.Min && v < best {
				best = v
			}
		}
		return best
	}
	acc := parseValue(t, f, vs[0])
	for _, s := range vs[1:] {
		v := parseValue(t, f, s)
		switch f.Agg {
		case dataset.Mean, dataset.Sum:
			acc += v
		case dataset.Max:
			acc = math.Max(acc, v)
		case dataset.Min:
			acc = math.Min(acc, v)
		}
	}
	if f.Agg == dataset.Mean {
		acc /= float64(len(vs))
	}
	return string(dataset.AppendNumber(nil, acc, f.Format))
}

func parseValue(t *testing.T, f dataset.Field, s string) float64 {
	t.Helper()
	if f.Format.Italian {
		v, err := energy.ParseNumber(s)
		if err != nil {
			t.Fatalf("%s: %q: %v", f.Name, s, err)
		}
		return v
	}
	return parse(t, s)
}

// sameValue reports whether an aggregated value is the one computed: equal
// as written, or, for numbers, within what a differently rounded sum of
// the written (rounded) values can differ by.
func sameValue(f dataset.Field, got, want string) bool {
	if got == want || f.Kind != dataset.Number {
		return got == want
	}
	g, err1 := strconv.ParseFloat(got, 64)
	w, err2 := strconv.ParseFloat(want, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	tol := 1e-9 * math.Max(1, math.Abs(w))
	if f.Format.Decimals >= 0 {
		tol += 0.5 * math.Pow(10, -float64(f.Format.Decimals))
	}
	return math.Abs(g-w) <= tol
}

// TestResolutionRefused checks the 400s naming the parameter.
func TestResolutionRefused(t *testing.T) {
	t.Parallel()
	h, _ := demoHarness(t)
	for _, tc := range []struct{ name, path, want string }{
		{"not aggregable", "/load/v2.0/peak-valley-load?dateFrom=30/03/2024&dateTo=31/03/2024&resolution=P1D", "parameter resolution"},
		{"unknown value", "/load/v2.0/total-load?dateFrom=30/03/2024&dateTo=31/03/2024&resolution=PT5M", "parameter resolution value"},
		{"finer than the records", "/generation/v2.0/actual-generation?dateFrom=30/03/2024&dateTo=31/03/2024&resolution=PT15M", "finer"},
		{"with changedSince", "/load/v2.0/total-load?dateFrom=30/03/2024&dateTo=31/03/2024&changedSince=2024-01-01T00:00:00Z&resolution=P1D", "changedSince"},
	} {
		r := h.get(t, tc.path)
		if r.status != http.StatusBadRequest || !strings.Contains(string(r.body), tc.want) || !strings.Contains(string(r.body), `"status":"ERROR"`) {
			t.Errorf("%s: got %d %s, want 400 naming %q", tc.name, r.status, r.body, tc.want)
		}
	}
}
