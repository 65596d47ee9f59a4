package ingest

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/energyapi/energyapi/internal/energy"
)

// readAnswer reads an answer of the API as it serves it (the result
// envelope and one array of records whose values are strings) into a
// Table: a header of every field name the records hold, sorted, then one
// row a record. A null is an empty cell; a number or a boolean its JSON
// text. It is how a mirror imports what an upstream deployment answered.
func readAnswer(name string, r io.Reader) (*Table, error) {
	data, err := readFile(name, r)
	if err != nil {
		return nil, err
	}
	if t, ok := uniformAnswer(name, data); ok {
		return t, nil
	}
	recs, err := rawRecords(name, data)
	if err != nil {
		return nil, err
	}
	return answerTable(name, recs)
}

// rawRecords reads the records of any answer with each value as its JSON
// text, which answerValue reads: a number keeps its digits.
func rawRecords(name string, data []byte) ([]map[string]json.RawMessage, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, energy.Errorf(energy.Invalid, "%s: not an answer of the API: %v", name, err)
	}
	var recs []map[string]json.RawMessage
	arrays := 0
	for k, raw := range doc {
		if k == "result" || len(raw) == 0 || raw[0] != '[' {
			continue
		}
		arrays++
		if err := json.Unmarshal(raw, &recs); err != nil {
			return nil, energy.Errorf(energy.Invalid, "%s: %s is not an array of records: %v", name, k, err)
		}
	}
	if arrays != 1 {
		return nil, energy.Errorf(energy.Invalid, "%s: an answer holds one array of records, this one %d", name, arrays)
	}
	return recs, nil
}

// answerTable returns the Table of an answer's records: a header of every
// field name they hold, sorted, then a row a record, each value read by
// answerValue (a missing field is empty).
func answerTable(name string, recs []map[string]json.RawMessage) (*Table, error) {
	fields := map[string]bool{}
	for _, rec := range recs {
		for k := range rec {
			fields[k] = true
		}
	}
	head := slices.Sorted(maps.Keys(fields))
	t := &Table{File: name, Rows: make([][]string, 1, len(recs)+1), Lines: make([]int, 1, len(recs)+1)}
	t.Rows[0], t.Lines[0] = head, 1
	for i, rec := range recs {
		row := make([]string, len(head))
		for j, k := range head {
			v, ok := answerValue(rec[k])
			if !ok {
				return nil, energy.Errorf(energy.Invalid, "%s: record %d: %s is not a value", name, i+1, k)
			}
			row[j] = v
		}
		t.Rows = append(t.Rows, row)
		t.Lines = append(t.Lines, i+2)
	}
	return t, nil
}

// answerValue returns a record's value as a cell: a string's text, a
// number's or a boolean's JSON text, empty for null or a missing field; ok
// is false for an object or an array.
func answerValue(raw json.RawMessage) (string, bool) {
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return "", true
	case raw[0] == '"':
		if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
			return string(raw[1 : len(raw)-1]), true
		}
		var s string
		return s, json.Unmarshal(raw, &s) == nil
	case raw[0] == '{' || raw[0] == '[':
		return "", false
	default: // a number, true or false: valid JSON, as Unmarshal checked
		return string(raw), true
	}
}

// uniformAnswer reads, in one pass over its bytes, an answer as the family
// serves it: an object whose members are "result" and one array of
// records, each record a flat object of strings (or nulls) naming the same
// fields in the same order. ok is false for any other document, which
// rawRecords then reads with encoding/json; for the documents it accepts
// the Table is rawRecords' (FuzzReadAnswer compares them).
// A mirror reads every upstream answer: encoding/json's reading into maps
// was most of the CPU a mirror's fill spent (the scanner steps a call a
// byte, and a map a record).
func uniformAnswer(name string, data []byte) (t *Table, ok bool) {
	s := scanner{b: string(data)}
	if !s.next('{') {
		return nil, false
	}
	arrays := 0
	for first := true; !s.next('}'); first = false {
		if !first && !s.next(',') {
			return nil, false
		}
		key, ok := s.str()
		if !ok || !s.next(':') {
			return nil, false
		}
		if key == "result" {
			if !s.skipValue() {
				return nil, false
			}
			continue
		}
		if arrays++; arrays > 1 {
			return nil, false
		}
		if t, ok = s.records(name); !ok {
			return nil, false
		}
	}
	s.space()
	return t, arrays == 1 && s.i == len(s.b)
}

// scanner reads JSON text from b at i. The text is a string so that the
// cells it reads are parts of it, not one allocation each: a Table read in
// one pass holds its document's text.
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
// which also makes invalid UTF-8 its replacement character.
func (s *scanner) str() (string, bool) {
	if !s.next('"') {
		return "", false
	}
	start, plain := s.i, true
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			raw := s.b[start-1 : s.i]
			if plain && utf8.ValidString(raw) {
				return raw[1 : len(raw)-1], true
			}
			var v string
			return v, json.Unmarshal([]byte(raw), &v) == nil
		case c == '\\':
			plain = false
			s.i++
		case c < 0x20:
			return "", false
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

// records reads an array of records into a Table: the first record's
// fields, sorted, are the header, and every other record must name the
// same fields in the same order.
func (s *scanner) records(name string) (*Table, bool) {
	if !s.next('[') {
		return nil, false
	}
	t := &Table{File: name, Rows: [][]string{nil}, Lines: []int{1}}
	var fields []string // in the records' order
	var col []int       // each field's column in the header
	for !s.next(']') {
		if len(t.Rows) > 1 && !s.next(',') {
			return nil, false
		}
		if !s.next('{') {
			return nil, false
		}
		firstRecord := len(t.Rows) == 1
		var row []string
		if !firstRecord {
			row = make([]string, len(fields))
		}
		n := 0
		for ; !s.next('}'); n++ {
			if n > 0 && !s.next(',') {
				return nil, false
			}
			key, ok := s.str()
			if !ok || !s.next(':') {
				return nil, false
			}
			v, ok := s.cell()
			if !ok {
				return nil, false
			}
			if firstRecord {
				fields, row = append(fields, key), append(row, v)
				continue
			}
			if n >= len(fields) || key != fields[n] {
				return nil, false
			}
			row[col[n]] = v
		}
		if firstRecord {
			if col = columns(fields); col == nil {
				return nil, false
			}
			row = sortedRow(row, col)
			t.Rows[0] = slices.Sorted(slices.Values(fields))
		} else if n != len(fields) {
			return nil, false
		}
		t.Rows = append(t.Rows, row)
		t.Lines = append(t.Lines, len(t.Lines)+1)
	}
	return t, true
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
