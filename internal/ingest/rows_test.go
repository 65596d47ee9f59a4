package ingest_test

import (
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/ingest"
)

// flows is a throwaway hourly dataset read by the generic reader: a
// moment with its offset, a zone pair and a flow in MW.
func flows(t *testing.T) (*dataset.Catalog, *dataset.Dataset) {
	t.Helper()
	d := &dataset.Dataset{
		Name: "test-flows", Area: "test", Version: "v2.0", Resource: "flows", Array: "flows",
		Message: dataset.MessageDates, Grain: dataset.Hour, Import: &dataset.ImportSpec{},
		Fields: []dataset.Field{
			{Name: "date", Kind: dataset.Instant, TZ: "date_tz", Offset: "date_offset"},
			{Name: "flow", Kind: dataset.Text, Ref: energy.Plain("North -> South", "South -> North")},
			{Name: "flow_MW", Kind: dataset.Number, Format: dataset.PointFull, Min: -10000, Max: 10000},
		},
	}
	c, err := dataset.NewCatalog(d)
	if err != nil {
		t.Fatal(err)
	}
	return c, d
}

func TestReadRowsGeneric(t *testing.T) {
	c, d := flows(t)
	// The autumn 2024 change: 02:00 twice, told apart by the offset column.
	const file = "Export of flows\n" +
		"flow_MW;date;date_offset;flow\n" +
		"-488,305;2024-10-27 02:00:00;+02:00;north -> south\n" +
		"12.5;2024-10-27 02:00:00;+01:00;North -> South\n" +
		"\n" +
		"7;27/10/2024 04:00:00;;South -> North\n"
	rows, err := ingest.ReadRows(c, d, "flows.csv", strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	wantAutumnFlows(t, rows)
}

func TestReadRowsGenericErrors(t *testing.T) {
	c, d := flows(t)
	const head = "date,date_offset,flow,flow_MW\n"
	for _, tc := range []struct{ name, body, want string }{
		{"ambiguous without offset", "2024-10-27 02:30:00,,North -> South,1\n", `flows.csv:2: date "2024-10-27 02:30:00": the clocks show it twice in autumn`},
		{"spring gap", "2024-03-31 02:30:00,,North -> South,1\n", `flows.csv:2: date "2024-03-31 02:30:00": no such time in Europe/Rome`},
		{"wrong offset", "2024-07-01 12:00:00,+01:00,North -> South,1\n", `flows.csv:2: date "2024-07-01 12:00:00 +01:00": Europe/Rome is not at offset +01:00`},
		{"implausible", "2024-07-01 12:00:00,,North -> South,28385000\n", `flows.csv:2: flow_MW 2.8385e+07 is outside the plausible range -10000 to 10000`},
		{"missing number", "2024-07-01 12:00:00,,North -> South,\n", `flows.csv:2: flow_MW is missing`},
		{"unknown text", "2024-07-01 12:00:00,,North -> Sicily,1\n", `flows.csv:2: unknown flow "North -> Sicily" (want "North -> South" or "South -> North")`},
		{"repeated key", "2024-07-01 12:00:00,,North -> South,1\n2024-07-01 12:00:00,+02:00,north -> south,2\n", `flows.csv:3: same date and flow as line 2`},
		{"no rows", "", `flows.csv: no data rows below the header`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ingest.ReadRows(c, d, "flows.csv", strings.NewReader(head+tc.body))
			if energy.ErrorCode(err) != energy.Invalid || !strings.HasPrefix(energy.ErrorMessage(err), tc.want) {
				t.Errorf("got %v, want an Invalid error starting %q", err, tc.want)
			}
		})
	}
}

// TestReadRowsEnglishNumbers reads a file in the transmission downloads'
// English format, where a comma groups thousands and is no decimal comma.
func TestReadRowsEnglishNumbers(t *testing.T) {
	c, d := flows(t)
	d.Import.EnglishNumbers = true
	const file = "date,flow,flow_MW\n" +
		"2024-05-01 10:00:00,North -> South,\"1,234.5\"\n" +
		"2024-05-01 11:00:00,North -> South,-488.25\n"
	rows, err := ingest.ReadRows(c, d, "flows.csv", strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Num[0] != 1234.5 || rows[1].Num[0] != -488.25 {
		t.Fatalf("got %+v, want 1234.5 and -488.25", rows)
	}
	// The same comma is a decimal comma without the flag, and in the
	// English format "1,5" is a malformed grouping, not one and a half.
	if _, err := ingest.ReadRows(c, d, "flows.csv", strings.NewReader("date,flow,flow_MW\n2024-05-01 10:00:00,North -> South,\"1,5\"\n")); err == nil || !strings.Contains(err.Error(), "flows.csv:2") {
		t.Errorf("got %v, want an error on flows.csv:2", err)
	}
}

// TestReadRowsAnswer reads an answer of the API as a mirror does: values
// as strings (one with escapes), null as a missing value, and, in the
// second answer, a number as its JSON text (read value by value rather
// than as strings); an object where a value belongs is refused.
func TestReadRowsAnswer(t *testing.T) {
	c, d := flows(t)
	const answer = `{"result":{"status":"OK"},"flows":[` +
		`{"date":"2024-10-27 02:00:00","date_offset":"+02:00","flow":"North \u002d> South","flow_MW":"-488.305"},` +
		`{"date":"2024-10-27 02:00:00","date_offset":"+01:00","flow":"North -> South","flow_MW":"12.5"},` +
		`{"date":"2024-10-27 04:00:00","date_offset":null,"flow":"South -> North","flow_MW":"7"}]}`
	for _, doc := range []string{answer, strings.Replace(answer, `"12.5"`, `12.5`, 1)} {
		checkAnswerRows(t, c, d, doc)
	}
	bad := strings.Replace(answer, `"flow_MW":"7"`, `"flow_MW":{"v":7}`, 1)
	_, err := ingest.ReadRows(c, d, "flows.json", strings.NewReader(bad))
	if want := "flows.json: record 3: flow_MW is not a value"; energy.ErrorCode(err) != energy.Invalid || energy.ErrorMessage(err) != want {
		t.Errorf("an object as a value: got %v, want %q", err, want)
	}
}

func checkAnswerRows(t *testing.T, c *dataset.Catalog, d *dataset.Dataset, answer string) {
	t.Helper()
	rows, err := ingest.ReadRows(c, d, "flows.json", strings.NewReader(answer))
	if err != nil {
		t.Fatal(err)
	}
	wantAutumnFlows(t, rows)
}

// wantAutumnFlows checks the rows of the flows files of these tests: three
// records around the autumn 2024 clock change, the first two at 02:00 told
// apart by their offset.
func wantAutumnFlows(t *testing.T, rows []dataset.Row) {
	t.Helper()
	want := []struct {
		at   time.Time
		flow string
		mw   float64
	}{
		{time.Date(2024, 10, 27, 0, 0, 0, 0, time.UTC), "North -> South", -488.305},
		{time.Date(2024, 10, 27, 1, 0, 0, 0, time.UTC), "North -> South", 12.5},
		{time.Date(2024, 10, 27, 3, 0, 0, 0, time.UTC), "South -> North", 7},
	}
	if len(rows) != len(want) {
		t.Fatalf("got %d rows, want %d", len(rows), len(want))
	}
	for i, w := range want {
		if r := rows[i]; r.Time != w.at.Unix() || r.Text[0] != w.flow || r.Num[0] != w.mw {
			t.Errorf("row %d: got %v %q %v, want %v %q %v", i, time.Unix(r.Time, 0).UTC(), r.Text[0], r.Num[0], w.at, w.flow, w.mw)
		}
	}
}
