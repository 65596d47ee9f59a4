package client

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestRecordsAsEncodingJSON: the records parseRecords reads, in one pass
// or not, are those encoding/json reads from the answer's array into
// Records, for answers of the family's shape and for others (escapes,
// nulls, invalid UTF-8, fields in another order, numbers, a second array,
// text after the answer).
func TestRecordsAsEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{
		`{"result": {"status": "OK"}, "records": [{"b": "2", "a": "1"}, {"b": "4", "a": "3"}]}`,
		`{"records": [{"a": "x\"y", "b": null}, {"a": "\u00e8\n", "b": ""}], "result": {"n": [1, {"x": 2}]}}`,
		`{"result": {}, "records": [{"a": "caf` + "\xff" + `"}]}`,
		`{"result": {}, "records": [{"a": "1", "b": "2"}, {"b": "2", "a": "1"}]}`,
		`{"result": {}, "records": [{"a": "1"}, {"a": "1", "b": "2"}, {}]}`,
		`{"result": {}, "records": [{"a": "1", "a": "2"}]}`,
		`{"result": {}, "records": []}`,
		`{"records": [{"a": "1"}]}  ` + "\n",
	} {
		got, err := parseRecords("/p", []byte(doc))
		if err != nil {
			t.Errorf("%s: %v", doc, err)
			continue
		}
		var w map[string]json.RawMessage
		var want []Record
		if err := json.Unmarshal([]byte(doc), &w); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(w["records"], &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\ngot  %q\nwant %q", doc, got, want)
		}
	}
	for _, doc := range []string{
		`{"result": {}, "records": [{"a": 1}]}`,
		`{"result": {}, "records": [{"a": "1"}]} x`,
		`{"result": {}, "records": [{"a": "1"}]`,
	} {
		if recs, err := parseRecords("/p", []byte(doc)); err == nil {
			t.Errorf("%s: read %q, want an error as encoding/json gives", doc, recs)
		}
	}
}
