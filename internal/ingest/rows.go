package ingest

import (
	"fmt"
	"io"
	"math"
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
	if d.Import.Parse != nil {
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
	t, err := ReadTable(name, r)
	if err != nil {
		return nil, err
	}
	cols, err := columnsOf(d)
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
	lay := c.Layout(d)
	var rows []dataset.Row
	seen := map[string]int{} // row index of each key's first record
	for i := head + 1; i < len(t.Rows); i++ {
		if t.Blank(i) {
			continue
		}
		row := dataset.Row{Text: make([]string, lay.NText), Num: make([]float64, lay.NNum)}
		var wall, offset string
		var month time.Month // a MonthOf field's month, which refines YearOf's moment
		for _, col := range cols {
			v := ""
			for _, n := range col.names {
				if j, ok := idx[n]; ok {
					v = t.Cell(i, j)
					break
				}
			}
			f := col.field
			switch {
			case col.isOffset:
				offset = v
			case f.Kind == dataset.Instant:
				wall = v
			case f.Kind == dataset.YearOf:
				if v == "" {
					return nil, t.Errorf(i, "%s is missing", f.Name)
				}
				y, err := strconv.Atoi(v)
				if err != nil {
					return nil, t.Errorf(i, "%s %q is not an integer", f.Name, v)
				}
				if y < energy.MinYear || y > energy.MaxYear {
					return nil, t.Errorf(i, "%s %d is outside %d..%d", f.Name, y, energy.MinYear, energy.MaxYear)
				}
				row.Time = time.Date(y, time.January, 1, 0, 0, 0, 0, energy.Rome()).Unix()
			case f.Kind == dataset.MonthOf:
				name, ok := energy.MonthNames().Canonical(v)
				if !ok {
					return nil, t.Errorf(i, "%s %q is not a month (want Gennaio to Dicembre)", f.Name, v)
				}
				month = energy.MonthOfName(name)
			case f.Kind == dataset.DateOf:
				day, err := parseDay(v, xlsx)
				if err != nil {
					return nil, t.Errorf(i, "%s %q: %v", f.Name, v, err)
				}
				row.Time = day.Start().Unix()
			case f.Kind == dataset.Text:
				k, _ := lay.TextIndex(f.Name)
				row.Text[k] = v
			case f.Kind == dataset.Number:
				k, _ := lay.NumIndex(f.Name)
				if v == "" {
					row.Num[k] = math.NaN()
					continue
				}
				n, err := parseCellNumber(v, xlsx, d.Import.EnglishNumbers)
				if err != nil {
					return nil, t.Errorf(i, "%s: %s", f.Name, energy.ErrorMessage(err))
				}
				row.Num[k] = n
			}
		}
		if month != 0 {
			y := time.Unix(row.Time, 0).In(energy.Rome()).Year()
			row.Time = time.Date(y, month, 1, 0, 0, 0, 0, energy.Rome()).Unix()
		}
		if hasInstant(d) {
			at, err := parseInstant(wall, offset, xlsx)
			if err != nil {
				return nil, t.Errorf(i, "%s %q: %v", instantName(d), strings.TrimSpace(wall+" "+offset), err)
			}
			row.Time = at
		}
		if err := c.Canonical(d, &row); err != nil {
			return nil, t.Errorf(i, "%s", energy.ErrorMessage(err))
		}
		k := c.KeyOf(d, row)
		if first, dup := seen[k]; dup {
			return nil, t.Errorf(i, "same %s as line %d", keyWords(d), t.Lines[first])
		}
		seen[k] = i
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, energy.Errorf(energy.Invalid, "%s: no data rows below the header", name)
	}
	return rows, nil
}

// column is a column the generic reader looks for.
type column struct {
	field    dataset.Field
	names    []string // the header names accepted, the preferred first
	optional bool
	isOffset bool // the UTC offset beside an Instant
}

func columnsOf(d *dataset.Dataset) ([]column, error) {
	var cols []column
	for _, f := range d.Fields {
		if f.Hidden {
			return nil, energy.Errorf(energy.Invalid, "dataset %s has no generic file format: import its own files", d.Name)
		}
		name := f.Name
		if f.Column != "" {
			name = f.Column
		}
		// A zone name column (date_tz) may be present and is not read: the
		// moment's offset decides.
		optional := (f.Kind == dataset.Number && f.Optional) || f.Kind == dataset.Zone
		cols = append(cols, column{field: f, names: append([]string{name}, f.Aliases...), optional: optional})
		if f.Kind == dataset.Instant && f.Offset != "" {
			cols = append(cols, column{field: f, names: []string{f.Offset}, optional: true, isOffset: true})
		}
	}
	return cols, nil
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
