package ingest

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/energyapi/energyapi/internal/answerjson"
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

// uniformAnswer reads an answer as the family serves it in one pass
// (answerjson.Read); ok is false for any other document, which rawRecords
// then reads with encoding/json. For the documents it accepts the Table is
// rawRecords' (FuzzReadAnswer compares them). A mirror reads every
// upstream answer.
func uniformAnswer(name string, data []byte) (t *Table, ok bool) {
	a, ok := answerjson.Read(data)
	if !ok {
		return nil, false
	}
	t = &Table{File: name, Rows: make([][]string, 0, len(a.Rows)+1), Lines: make([]int, len(a.Rows)+1)}
	t.Rows = append(append(t.Rows, a.Fields), a.Rows...)
	for i := range t.Lines {
		t.Lines[i] = i + 1
	}
	return t, true
}
