// Package answerjson reads, in one pass over its text, an answer of the
// family's JSON shape: an object whose members are "result" and one array
// of records, each record a flat object of strings (or nulls) naming the
// same fields in the same order. The mirror's import and the Go client read
// the answers they fetch with it; any other document is theirs to read with
// encoding/json, which reads the documents Read accepts alike
// (FuzzReadAnswer in internal/ingest and TestRecordsAsEncodingJSON in
// client check it).
package answerjson

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"
)

// Answer is an answer's records: the fields they name, sorted, and one row
// of values a record, in the order of Fields. A null is an empty value.
// The values are parts of the document's text, not one allocation each.
type Answer struct {
	Fields []string
	Rows   [][]string
}

// Read reads data if it is an answer of the family's shape; ok is false
// for any other document. encoding/json's reading into a map a record was
// most of the CPU a mirror's fill spent (its scanner steps a call a byte).
func Read(data []byte) (a Answer, ok bool) {
	s := scanner{b: string(data)}
	if !s.next('{') {
		return a, false
	}
	arrays := 0
	for first := true; !s.next('}'); first = false {
		if !first && !s.next(',') {
			return a, false
		}
		key, ok := s.str()
		if !ok || !s.next(':') {
			return a, false
		}
		if key == "result" {
			if !s.skipValue() {
				return a, false
			}
			continue
		}
		if arrays++; arrays > 1 {
			return a, false
		}
		if a, ok = s.records(); !ok {
			return a, false
		}
	}
	s.space()
	return a, arrays == 1 && s.i == len(s.b)
}

// scanner reads JSON text from b at i. The text is a string so that the
// cells it reads are parts of it, not one allocation each: an Answer
// holds its document's text.
type scanner struct {
	b string
	i int
}

// space skips white space.
func (s *scanner) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\n' || s.b[s.i] == '\r' || s.b[s.i] == '\t') {
		s.i++
	}
}

// next skips white space and then c, reporting whether c was there.
func (s *scanner) next(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str reads a string; one holding an escape is unquoted by encoding/json,
// which also makes invalid UTF-8 its replacement character. A string of
// ASCII alone, as most are, is not read a second time to check its UTF-8.
func (s *scanner) str() (string, bool) {
	if !s.next('"') {
		return "", false
	}
	start, plain, ascii := s.i, true, true
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			raw := s.b[start-1 : s.i]
			if plain && (ascii || utf8.ValidString(raw)) {
				return raw[1 : len(raw)-1], true
			}
			var v string
			return v, json.Unmarshal([]byte(raw), &v) == nil
		case c == '\\':
			plain = false
			s.i++
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// skipValue skips any one JSON value, checked by encoding/json.
func (s *scanner) skipValue() bool {
	s.space()
	start, depth := s.i, 0
	for ; s.i < len(s.b); s.i++ {
		switch s.b[s.i] {
		case '"':
			if _, ok := s.str(); !ok {
				return false
			}
			s.i--
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return json.Valid([]byte(s.b[start:s.i]))
			}
			depth--
		case ',':
			if depth == 0 {
				return json.Valid([]byte(s.b[start:s.i]))
			}
		}
	}
	return false
}

// records reads an array of records: the first record's fields, sorted,
// are the header, and every other record must name the same fields in the
// same order.
func (s *scanner) records() (Answer, bool) {
	var a Answer
	if !s.next('[') {
		return a, false
	}
	var fields []string // in the records' order
	var col []int       // each field's column in the header
	for !s.next(']') {
		if len(a.Rows) > 0 && !s.next(',') {
			return a, false
		}
		if !s.next('{') {
			return a, false
		}
		firstRecord := len(a.Rows) == 0
		var row []string
		if !firstRecord {
			row = make([]string, len(fields))
		}
		n := 0
		for ; !s.next('}'); n++ {
			if n > 0 && !s.next(',') {
				return a, false
			}
			key, ok := s.str()
			if !ok || !s.next(':') {
				return a, false
			}
			v, ok := s.cell()
			if !ok {
				return a, false
			}
			if firstRecord {
				fields, row = append(fields, key), append(row, v)
				continue
			}
			if n >= len(fields) || key != fields[n] {
				return a, false
			}
			row[col[n]] = v
		}
		if firstRecord {
			if col = columns(fields); col == nil {
				return a, false
			}
			row = sortedRow(row, col)
			a.Fields = slices.Sorted(slices.Values(fields))
		} else if n != len(fields) {
			return a, false
		}
		a.Rows = append(a.Rows, row)
	}
	return a, true
}

// cell reads a record's value: a string, or null as an empty cell.
func (s *scanner) cell() (string, bool) {
	s.space()
	if strings.HasPrefix(s.b[s.i:], "null") {
		s.i += len("null")
		return "", true
	}
	return s.str()
}

// columns returns each field's index among the fields sorted, or nil if a
// field appears twice.
func columns(fields []string) []int {
	sorted := slices.Sorted(slices.Values(fields))
	col := make([]int, len(fields))
	for i, f := range fields {
		j, _ := slices.BinarySearch(sorted, f)
		if j+1 < len(sorted) && sorted[j+1] == f {
			return nil
		}
		col[i] = j
	}
	return col
}

// sortedRow places the first record's values in their columns.
func sortedRow(row []string, col []int) []string {
	out := make([]string, len(row))
	for i, v := range row {
		out[col[i]] = v
	}
	return out
}
