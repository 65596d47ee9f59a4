package api

import (
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// format is a representation a data endpoint can answer in.
type format int

const (
	formatJSON format = iota
	formatCSV
)

var formatNames = [...]string{formatJSON: "json", formatCSV: "csv"}

var contentTypes = [...]string{formatJSON: "application/json", formatCSV: "text/csv; charset=utf-8"}

// contentTypeHeaders are contentTypes as header values, shared by every
// answer (net/http does not change header values).
var contentTypeHeaders = [...][]string{formatJSON: {contentTypes[formatJSON]}, formatCSV: {contentTypes[formatCSV]}}

// negotiate picks the representation an Accept header asks for: JSON unless
// text/csv is accepted and JSON is not preferred to it. ok is false when the
// header admits neither.
func negotiate(header string) (f format, ok bool) {
	switch header {
	case "", "*/*", "application/json", "Application/Json":
		// What nearly every caller sends, without parsing.
		return formatJSON, true
	}
	if strings.TrimSpace(header) == "" {
		return formatJSON, true
	}
	bestQ, best := -1.0, formatJSON
	for _, part := range strings.Split(header, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if s, ok := params["q"]; ok {
			if q, err = strconv.ParseFloat(s, 64); err != nil || q <= 0 {
				continue
			}
		}
		var cand format
		switch mt { // ParseMediaType lowercases the type
		case "*/*", "application/*", "application/json":
			cand = formatJSON
		case "text/csv", "text/*":
			cand = formatCSV
		default:
			continue
		}
		if q > bestQ {
			bestQ, best = q, cand
		}
	}
	return best, bestQ > 0
}

// requestFormat picks the representation of r: the format query parameter
// (json or csv, for links that cannot set headers) when present, else the
// Accept header. ok is false for any other format value or an Accept header
// that admits neither.
func requestFormat(r *http.Request) (f format, ok bool) {
	// Parsing the query costs more than the rest of a revalidation: skip it
	// when no key can be format (a key may be percent-encoded).
	if raw := r.URL.RawQuery; !strings.Contains(raw, "format") && !strings.Contains(raw, "%") {
		return negotiate(r.Header.Get("Accept"))
	}
	if v, set := r.URL.Query()["format"]; set {
		switch {
		case len(v) == 1 && v[0] == "json":
			return formatJSON, true
		case len(v) == 1 && v[0] == "csv":
			return formatCSV, true
		}
		return formatJSON, false
	}
	return negotiate(r.Header.Get("Accept"))
}
