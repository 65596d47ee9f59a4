package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/energyapi/energyapi/internal/answerjson"
)

// Record is one record as the server sent it: every field's value, a
// string, by field name. The methods read the usual formats.
type Record map[string]string

// Float reads a number field, in either of the API's formats (decimal point,
// or the Italian decimal comma with thousands points). ok is false for an
// empty value.
func (r Record) Float(field string) (v float64, ok bool, err error) {
	s := r[field]
	if s == "" {
		return 0, false, nil
	}
	if strings.Contains(s, ",") {
		v, err = parseItalian(s)
	} else {
		v, err = parsePoint(s)
	}
	if err != nil {
		return 0, false, fmt.Errorf("client: field %s: %q: %w", field, s, err)
	}
	return v, true, nil
}

// Time reads the record's moment from date and its offset field
// (date_offset, or v1.0's offset), in the zone date_tz names (Europe/Rome
// when absent).
func (r Record) Time() (time.Time, error) { return r.TimeOf("date") }

// TimeOf is Time for a moment in another field than date: v1.0's
// reference_date or market_date.
func (r Record) TimeOf(field string) (time.Time, error) {
	offset, ok := r["date_offset"]
	if !ok {
		offset = r["offset"]
	}
	return instant(loadRome(), r[field], offset, r["date_tz"])
}

// Get fetches the records of one dataset of the API: path is the dataset's
// path ("/load/v2.0/total-load") or, on a server that lists its catalogue
// at /catalog, the dataset's name ("total-load"). params are the query
// parameters as the API names them; repeated values are sent as repeated
// keys. A dateFrom..dateTo range longer than the client's maximum
// (WithMaxRangeDays) is fetched in consecutive windows and merged in
// order. The empty-body answer gives no records and no error. Errors the
// server answered are *APIError.
func (c *Client) Get(ctx context.Context, path string, params url.Values) ([]Record, error) {
	if !strings.HasPrefix(path, "/") {
		p, err := c.datasetPath(ctx, path)
		if err != nil {
			return nil, err
		}
		path = p
	}
	from, to, isRange, err := rangeOf(params)
	if err != nil {
		return nil, err
	}
	if !isRange {
		body, err := c.get(ctx, path, params)
		if err != nil {
			return nil, err
		}
		return parseRecords(path, body)
	}
	windows := splitRange(from, to, c.maxDays)
	var out []Record
	for i, w := range windows {
		if c.progress != nil {
			c.progress(Progress{Request: i + 1, Requests: len(windows), From: w.from, To: w.to})
		}
		q := url.Values{}
		for k, v := range params {
			q[k] = v
		}
		q.Set("dateFrom", w.from.String())
		q.Set("dateTo", w.to.String())
		body, err := c.get(ctx, path, q)
		if err != nil {
			if len(windows) > 1 {
				return nil, fmt.Errorf("client: window %s to %s: %w", w.from, w.to, err)
			}
			return nil, err
		}
		recs, err := parseRecords(path, body)
		if err != nil {
			return nil, err
		}
		out = append(out, recs...)
	}
	return out, nil
}

// rangeOf reads the dateFrom and dateTo parameters, if both are given.
func rangeOf(params url.Values) (from, to Date, ok bool, err error) {
	f, t := params.Get("dateFrom"), params.Get("dateTo")
	if f == "" || t == "" {
		return from, to, false, nil
	}
	if from, err = ParseDate(f); err != nil {
		return from, to, false, fmt.Errorf("client: dateFrom: %w", err)
	}
	if to, err = ParseDate(t); err != nil {
		return from, to, false, fmt.Errorf("client: dateTo: %w", err)
	}
	if from.Compare(to) > 0 {
		return from, to, false, fmt.Errorf("client: the range starts on %s, after its end on %s", from, to)
	}
	return from, to, true, nil
}

// parseRecords reads an answer's records: the array that follows result
// (the API sends exactly one).
func parseRecords(path string, body []byte) ([]Record, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, nil
	}
	// An answer of the family's shape is read in one pass (a year of
	// quarter hours of every zone is a quarter of a million records, and
	// encoding/json's reading them most of a Get's time); any other by
	// encoding/json, which reads those alike.
	if a, ok := answerjson.Read(body); ok {
		recs := make([]Record, len(a.Rows))
		for i, row := range a.Rows {
			r := make(Record, len(a.Fields))
			for j, f := range a.Fields {
				r[f] = row[j]
			}
			recs[i] = r
		}
		return recs, nil
	}
	var w map[string]json.RawMessage
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, fmt.Errorf("client: answer of %s: %w", path, err)
	}
	for k, raw := range w {
		if k == "result" {
			continue
		}
		var recs []Record
		if err := json.Unmarshal(raw, &recs); err != nil {
			return nil, fmt.Errorf("client: answer of %s: array %s: %w", path, k, err)
		}
		return recs, nil
	}
	return nil, nil
}

// catalogue caches what GET /catalog maps dataset names to, once read.
type catalogue struct {
	mu    sync.Mutex
	paths map[string]string
}

// datasetPath resolves a dataset's name through the server's /catalog.
func (c *Client) datasetPath(ctx context.Context, name string) (string, error) {
	c.catalog.mu.Lock()
	defer c.catalog.mu.Unlock()
	if c.catalog.paths == nil {
		body, err := c.get(ctx, "/catalog", nil)
		if err != nil {
			return "", fmt.Errorf("client: dataset %q by name needs the server's /catalog: %w", name, err)
		}
		var cat struct {
			Datasets []struct{ Name, Path string }
		}
		if err := json.Unmarshal(body, &cat); err != nil {
			return "", fmt.Errorf("client: /catalog: %w", err)
		}
		c.catalog.paths = map[string]string{}
		for _, d := range cat.Datasets {
			c.catalog.paths[d.Name] = d.Path
		}
	}
	p, ok := c.catalog.paths[name]
	if !ok {
		return "", fmt.Errorf("client: the server lists no dataset %q at /catalog", name)
	}
	return p, nil
}
