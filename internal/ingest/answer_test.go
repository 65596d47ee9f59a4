package ingest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// answerSeeds are answers the one-pass reader must read (uniform: true) and
// documents it must leave to encoding/json (false), with why.
var answerSeeds = []struct {
	doc     string
	uniform bool
}{
	{`{"result":{"status":"OK","message":""},"flows":[{"date":"2024-10-27 02:00:00","flow":"North -> South","flow_MW":"-488.305"},` +
		`{"date":"2024-10-27 03:00:00","flow":"South -> North","flow_MW":"7"}]}`, true},
	{"{ \"flows\" :\n [ {\"b\":\"1\" , \"a\":null}\t,{\"b\":\"\",\"a\":\"x\"} ] ,\r\"result\":{\"m\":\"a},[\\\"b\",\"n\":[1,{\"x\":null}]} }\n", true},
	{`{"flows":[{"flow":"North \u002d> South","zone":"Sud\u00e8"},{"flow":"\"quoted\"","zone":"\\"}]}`, true},
	{`{"result":"plain","flows":[]}`, true},
	{`{"flows":[{}]}`, true},
	{"{\"flows\":[{\"a\":\"\xff\xfe\"}]}", true},               // invalid UTF-8: encoding/json's replacement character
	{`{"flows":[{"a":"1"},{"a":2}]}`, false},                   // a number
	{`{"flows":[{"a":"1"},{"a":true}]}`, false},                // a boolean
	{`{"flows":[{"a":"1","b":"2"},{"b":"2","a":"1"}]}`, false}, // another order
	{`{"flows":[{"a":"1","b":"2"},{"a":"1"}]}`, false},         // a field missing
	{`{"flows":[{"a":"1"},{"a":"1","b":"2"}]}`, false},         // a field more
	{`{"flows":[{"a":"1","a":"2"}]}`, false},                   // a field twice
	{`{"flows":[{}, {"a":"1"}]}`, false},
	{`{"flows":[{"a":"1"}],"other":[{"a":"1"}]}`, false}, // two arrays
	{`{"result":{"status":"OK"}}`, false},                // none
	{`{"flows":[{"a":"1"}]} trailing`, false},
	{`{"flows":[{"a":"1"}],"result":{,}}`, false},
	{`{"flows":[{"a":"1"},]}`, false},
	{`{"flows":[{"a":"1",}]}`, false},
	{"{\"flows\":[{\"a\":\"line\nbreak\"}]}", false},
	{`{"flows":[{"a":"\x"}]}`, false},
	{`{"flows":[{"a":nul}]}`, false},
	{`{"flows":{"a":"1"}}`, false},
	{`["flows"]`, false},
	{``, false},
}

// TestUniformAnswer checks the one-pass reader on the seeds: it reads what
// it must, leaves the rest to encoding/json, and where it reads an answer
// its Table is encoding/json's.
func TestUniformAnswer(t *testing.T) {
	for _, s := range answerSeeds {
		got, ok := checkUniformAnswer(t, []byte(s.doc))
		if ok != s.uniform {
			t.Errorf("%q: read in one pass %v, want %v", s.doc, ok, s.uniform)
		}
		if ok && len(got.Rows) < 2 && !strings.Contains(s.doc, "[]") {
			t.Errorf("%q: %d rows, want the header and a record at least", s.doc, len(got.Rows))
		}
	}
}

// TestUniformAnswerLarge reads an answer of a year of quarter hours in one
// pass, as a mirror reads the family's answers.
func TestUniformAnswerLarge(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"result":{"status":"Completed","message":""},"total_load":[`)
	for i := range 35040 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"date":"2024-01-01 00:00:00","date_offset":"+01:00","bidding_zone":"Centre-North","total_load_MW":"%d.5","forecast_total_load_MW":null}`, i)
	}
	b.WriteString("]}")
	got, ok := checkUniformAnswer(t, []byte(b.String()))
	if !ok {
		t.Fatal("not read in one pass")
	}
	if want := []string{"bidding_zone", "date", "date_offset", "forecast_total_load_MW", "total_load_MW"}; !reflect.DeepEqual(got.Rows[0], want) || len(got.Rows) != 35041 {
		t.Fatalf("header %q and %d rows, want %q and 35041", got.Rows[0], len(got.Rows), want)
	}
	if r := got.Rows[35040]; r[4] != "35039.5" || r[3] != "" {
		t.Errorf("last row %q", r)
	}
}

// FuzzReadAnswer: whatever the one-pass reader reads, encoding/json reads
// into the same Table.
func FuzzReadAnswer(f *testing.F) {
	for _, s := range answerSeeds {
		f.Add([]byte(s.doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) { checkUniformAnswer(t, doc) })
}

// checkUniformAnswer reads doc in one pass and, if that reads it, checks
// that encoding/json (rawRecords) gives the same Table.
func checkUniformAnswer(t *testing.T, doc []byte) (*Table, bool) {
	t.Helper()
	got, ok := uniformAnswer("a.json", doc)
	if !ok {
		return nil, false
	}
	recs, err := rawRecords("a.json", doc)
	var want *Table
	if err == nil {
		want, err = answerTable("a.json", recs)
	}
	if err != nil {
		t.Fatalf("%q: read in one pass, but encoding/json refuses it: %v", doc, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: one pass read\n%q\nencoding/json\n%q", doc, got.Rows, want.Rows)
	}
	return got, true
}
