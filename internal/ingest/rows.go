package ingest

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// ReadRows reads one import file for dataset d of c into canonical records:
// through the dataset's own parser if it declares one, else as a CSV or
// XLSX table whose header row names each field's column (the field's name,
// or its declared Column or an alias), in any order, below any title rows.
//
// The first bad row fails the whole file, so that an import is all or
// nothing: the error has code Invalid and reads "FILE:LINE: reason". A
// missing key value, a malformed moment or number, a value outside a
// reference list or a plausible range, and a row with the same natural key
// as an earlier one (the message names both lines) are errors, as is a file
// with no data row.
func ReadRows(c *dataset.Catalog, d *dataset.Dataset, name string, r io.Reader) ([]dataset.Row, error) {
	if d.Import == nil {
		return nil, energy.Errorf(energy.Invalid, "dataset %s takes no import files", d.Name)
	}
	// An answer of the API (JSON) names every field as the API does, which
	// the generic reader reads for every dataset; a dataset's own parser is
	// for the files of the download section.
	f, _ := FormatOf(name)
	if d.Import.Parse != nil && (f != JSON || hasHidden(d)) {
		return readParsed(c, d, name, r)
	}
	tr, err := newTableReader(c, d, name, r, f == JSON)
	if err != nil {
		return nil, err
	}
	return tr.readAll()
}

// readParsed reads a file through d's own parser and puts its records in
// canonical form.
func readParsed(c *dataset.Catalog, d *dataset.Dataset, name string, r io.Reader) ([]dataset.Row, error) {
	rows, err := d.Import.Parse(name, r)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		if err := c.Canonical(d, &rows[i]); err != nil {
			return nil, energy.Errorf(energy.Invalid, "%s: record %d (%s): %s", name, i+1, d.DescribeKey(rows[i]), energy.ErrorMessage(err))
		}
	}
	return rows, nil
}

// tableReader reads the records of a CSV or XLSX file whose header names
// each field's column.
type tableReader struct {
	c    *dataset.Catalog
	d    *dataset.Dataset
	lay  *dataset.Layout
	name string // the file's
	t    *Table
	cols []column
	head int   // the header's row
	at   []int // each of cols' column in the table, -1 when the file lacks it
	xlsx bool  // cells may hold Excel dates and E notation
}

// newTableReader reads the table and finds its header.
func newTableReader(c *dataset.Catalog, d *dataset.Dataset, name string, r io.Reader, answer bool) (*tableReader, error) {
	t, err := ReadTable(name, r)
	if err != nil {
		return nil, err
	}
	cols, err := columnsOf(d, answer)
	if err != nil {
		return nil, err
	}
	var required, optional []string
	for _, col := range cols {
		if col.optional {
			optional = append(optional, col.names...)
		} else {
			required = append(required, col.names[0])
			optional = append(optional, col.names[1:]...)
		}
	}
	head, idx, err := t.Header(required, optional)
	if err != nil {
		return nil, err
	}
	xlsx := false
	if f, err := FormatOf(name); err == nil && f == XLSX {
		xlsx = true
	}
	// Each column's place, found once rather than by name in every row.
	at := make([]int, len(cols))
	for k, col := range cols {
		at[k] = -1
		for _, n := range col.names {
			if j, ok := idx[n]; ok {
				at[k] = j
				break
			}
		}
	}
	return &tableReader{c: c, d: d, lay: c.Layout(d), name: name, t: t, cols: cols, head: head, at: at, xlsx: xlsx}, nil
}

// readAll reads every row below the header, skipping blank ones, and
// refuses a key seen on an earlier line.
func (tr *tableReader) readAll() ([]dataset.Row, error) {
	var rows []dataset.Row
	seen := map[string]int{} // row index of each key's first record
	var last instant
	for i := tr.head + 1; i < len(tr.t.Rows); i++ {
		if tr.t.Blank(i) {
			continue
		}
		row, err := tr.row(i, &last)
		if err != nil {
			return nil, err
		}
		k := tr.c.KeyOf(tr.d, row)
		if first, dup := seen[k]; dup {
			return nil, tr.t.Errorf(i, "same %s as line %d", keyWords(tr.d), tr.t.Lines[first])
		}
		seen[k] = i
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, energy.Errorf(energy.Invalid, "%s: no data rows below the header", tr.name)
	}
	return rows, nil
}

// rowCells is a row as its cells are read: the record, and the parts of
// its moment that only the whole row decides.
type rowCells struct {
	row          dataset.Row
	wall, offset string     // an Instant's wall time and UTC offset
	month        time.Month // a MonthOf field's month, which refines YearOf's moment
}

// instant is the moment a row's instant cells were read as: rows of one
// moment (every series at it) come one after another, and parseInstant
// reads their cells once.
type instant struct {
	wall, offset string
	at           int64
	ok           bool
}

// row reads table row i into a canonical record; last is the instant of
// the row read before, which it updates.
func (tr *tableReader) row(i int, last *instant) (dataset.Row, error) {
	rc := rowCells{row: dataset.Row{Text: make([]string, tr.lay.NText), Num: make([]float64, tr.lay.NNum)}}
	for k := range tr.cols {
		if err := tr.cell(i, k, &rc); err != nil {
			return dataset.Row{}, err
		}
	}
	row := rc.row
	if rc.month != 0 {
		y := time.Unix(row.Time, 0).In(energy.Rome()).Year()
		row.Time = time.Date(y, rc.month, 1, 0, 0, 0, 0, energy.Rome()).Unix()
	}
	if hasInstant(tr.d) {
		if !last.ok || rc.wall != last.wall || rc.offset != last.offset {
			at, err := parseInstant(rc.wall, rc.offset, tr.xlsx)
			if err != nil {
				return dataset.Row{}, tr.t.Errorf(i, "%s %q: %v", instantName(tr.d), strings.TrimSpace(rc.wall+" "+rc.offset), err)
			}
			*last = instant{wall: rc.wall, offset: rc.offset, at: at, ok: true}
		}
		row.Time = last.at
	}
	if err := tr.c.Canonical(tr.d, &row); err != nil {
		return dataset.Row{}, tr.t.Errorf(i, "%s", energy.ErrorMessage(err))
	}
	return row, nil
}

// cell reads row i's cell in column k of cols into rc ("" when the file
// lacks the column).
func (tr *tableReader) cell(i, k int, rc *rowCells) error {
	col := tr.cols[k]
	v := tr.t.Cell(i, tr.at[k])
	f := col.field
	switch {
	case col.isOffset:
		rc.offset = v
	case f.Kind == dataset.Instant:
		rc.wall = v
	case f.Kind == dataset.YearOf:
		y, err := tr.year(i, f, v)
		if err != nil {
			return err
		}
		rc.row.Time = time.Date(y, time.January, 1, 0, 0, 0, 0, energy.Rome()).Unix()
	case f.Kind == dataset.MonthOf:
		name, ok := energy.MonthNames().Canonical(v)
		if !ok {
			return tr.t.Errorf(i, "%s %q is not a month (want Gennaio to Dicembre)", f.Name, v)
		}
		rc.month = energy.MonthOfName(name)
	case f.Kind == dataset.DateOf:
		day, err := parseDay(v, tr.xlsx)
		if err != nil {
			return tr.t.Errorf(i, "%s %q: %v", f.Name, v, err)
		}
		rc.row.Time = day.Start().Unix()
	case f.Kind == dataset.Text:
		k, _ := tr.lay.TextIndex(f.Name)
		rc.row.Text[k] = v
	case f.Kind == dataset.Number:
		k, _ := tr.lay.NumIndex(f.Name)
		if v == "" {
			rc.row.Num[k] = math.NaN()
			return nil
		}
		n, err := parseCellNumber(v, tr.xlsx, tr.d.Import.EnglishNumbers)
		if err != nil {
			return tr.t.Errorf(i, "%s: %s", f.Name, energy.ErrorMessage(err))
		}
		rc.row.Num[k] = n
	}
	return nil
}

// year reads a YearOf cell of row i.
func (tr *tableReader) year(i int, f dataset.Field, v string) (int, error) {
	if v == "" {
		return 0, tr.t.Errorf(i, "%s is missing", f.Name)
	}
	y, err := strconv.Atoi(v)
	if err != nil {
		return 0, tr.t.Errorf(i, "%s %q is not an integer", f.Name, v)
	}
	if y < energy.MinYear || y > energy.MaxYear {
		return 0, tr.t.Errorf(i, "%s %d is outside %d..%d", f.Name, y, energy.MinYear, energy.MaxYear)
	}
	return y, nil
}

// column is a column the generic reader looks for.
type column struct {
	field    dataset.Field
	names    []string // the header names accepted, the preferred first
	optional bool
	isOffset bool // the UTC offset beside an Instant
}

func columnsOf(d *dataset.Dataset, answer bool) ([]column, error) {
	var cols []column
	for _, f := range d.Fields {
		if f.Hidden {
			return nil, energy.Errorf(energy.Invalid, "dataset %s has no generic file format: import its own files", d.Name)
		}
		name, names := f.Name, f.Aliases
		if f.Column != "" && answer {
			names = append([]string{f.Column}, names...)
		} else if f.Column != "" {
			name = f.Column
		}
		// A zone name column (date_tz) may be present and is not read: the
		// moment's offset decides.
		optional := (f.Kind == dataset.Number && f.Optional) || f.Kind == dataset.Zone
		cols = append(cols, column{field: f, names: append([]string{name}, names...), optional: optional})
		if f.Kind == dataset.Instant && f.Offset != "" {
			cols = append(cols, column{field: f, names: []string{f.Offset}, optional: true, isOffset: true})
		}
	}
	return cols, nil
}

// hasHidden reports whether d has fields its answers leave out: its own
// parser reads even its answers.
func hasHidden(d *dataset.Dataset) bool {
	return slices.ContainsFunc(d.Fields, func(f dataset.Field) bool { return f.Hidden })
}

func hasInstant(d *dataset.Dataset) bool { return instantName(d) != "" }

func instantName(d *dataset.Dataset) string {
	for _, f := range d.Fields {
		if f.Kind == dataset.Instant {
			return f.Name
		}
	}
	return ""
}

// keyWords names the key for a duplicate-row message: "date and bidding_zone".
func keyWords(d *dataset.Dataset) string {
	var words []string
	for _, f := range d.Fields {
		if f.Kind == dataset.Instant || f.Kind == dataset.YearOf || f.Kind == dataset.DateOf {
			words = append(words, f.Name)
			break
		}
	}
	words = append(words, d.KeyNames()...)
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// parseCellNumber parses a number cell (ParseNumber's rules, or
// ParseEnglishNumber's when english); XLSX cells also admit the E notation
// that spreadsheets store.
func parseCellNumber(s string, xlsx, english bool) (float64, error) {
	parse := energy.ParseNumber
	if english {
		parse = energy.ParseEnglishNumber
	}
	v, err := parse(s)
	if err == nil || !xlsx || !strings.ContainsAny(s, "eE") {
		return v, err
	}
	f, perr := strconv.ParseFloat(s, 64)
	if perr != nil || math.IsInf(f, 0) || math.IsNaN(f) || strings.ContainsAny(s, "xXnN") {
		return v, err
	}
	return f, nil
}

// parseDay reads yyyy-mm-dd, yyyy/mm/dd, dd/mm/yyyy or an Excel date cell.
func parseDay(s string, xlsx bool) (energy.Date, error) {
	if xlsx && !strings.ContainsAny(s, "-/") {
		wall, err := excelWall(s)
		if err != nil {
			return energy.Date{}, err
		}
		return energy.DateOf(time.Unix(wall, 0).UTC()), nil
	}
	for _, layout := range []string{"2006-01-02", "2006/01/02"} {
		if t, err := time.Parse(layout, s); err == nil {
			d, _ := energy.NewDate(t.Year(), t.Month(), t.Day())
			return d, nil
		}
	}
	if d, err := energy.ParseDate(s); err == nil {
		return d, nil
	}
	// A day written with its time of day, as the outages' start_date is
	// (yyyy-mm-dd hh:mm): the day is what the record is keyed on.
	if t, ok := dataset.ParseStoredTime(s); ok {
		d, _ := energy.NewDate(t.Year(), t.Month(), t.Day())
		return d, nil
	}
	return energy.Date{}, fmt.Errorf("want yyyy-mm-dd, yyyy/mm/dd or dd/mm/yyyy, optionally with hh:mm")
}

// parseInstant reads a moment written as the API writes it (yyyy-mm-dd
// hh:mm:ss, Europe/Rome wall time), as the download files do (dd/mm/yyyy
// hh:mm:ss), or as an Excel date cell, with the UTC offset beside it when
// given. Without an offset, a wall time in the repeated autumn hour is
// ambiguous and refused, as is one in the skipped spring hour.
func parseInstant(wall, offset string, xlsx bool) (int64, error) {
	if wall == "" {
		return 0, fmt.Errorf("missing")
	}
	var w int64
	if t, err := time.Parse("2006-01-02 15:04:05", wall); err == nil {
		w = t.Unix()
	} else if w, err = parseLoadWall(wall, xlsx); err != nil {
		return 0, fmt.Errorf("want yyyy-mm-dd hh:mm:ss or dd/mm/yyyy hh:mm:ss")
	}
	if y := time.Unix(w, 0).UTC().Year(); y < energy.MinYear || y > energy.MaxYear {
		return 0, fmt.Errorf("year %d is outside %d..%d", y, energy.MinYear, energy.MaxYear)
	}
	if offset != "" {
		off, ok := parseOffset(offset)
		if !ok {
			return 0, fmt.Errorf("offset %q: want +hh:mm or -hh:mm", offset)
		}
		u := w - off
		if _, got := time.Unix(u, 0).In(energy.Rome()).Zone(); int64(got) != off {
			return 0, fmt.Errorf("Europe/Rome is not at offset %s at that time", offset)
		}
		return u, nil
	}
	early, _, n := romeInstants(w)
	switch n {
	case 0:
		return 0, fmt.Errorf("no such time in Europe/Rome (the clocks skip it in spring)")
	case 2:
		return 0, fmt.Errorf("the clocks show it twice in autumn: give the offset (+02:00 or +01:00) in a date_offset column")
	}
	return early, nil
}
