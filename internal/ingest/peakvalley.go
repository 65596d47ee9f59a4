package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// Column names (and JSON keys) of a peak-valley record, as the API names them.
const (
	colPVDate   = "date"
	colPVTZ     = "date_tz"
	colPVOffset = "date_offset"
	colPVPeak   = "peak_load_GW"
	colPVValley = "valley_load_GW"
)

// pvRecord is one peak or valley record as text, with where it came from.
type pvRecord struct {
	date, tz, offset, peak, valley string
	tab                            *Table // nil for JSON
	i                              int    // row index in tab, or record index in the JSON array
}

// errorf returns an Invalid error located at the record: "FILE:LINE: reason"
// in a table, "FILE: record N: reason" (N from 1) in JSON.
func (r pvRecord) errorf(file, format string, args ...any) error {
	if r.tab != nil {
		return r.tab.Errorf(r.i, format, args...)
	}
	return energy.Errorf(energy.Invalid, "%s: record %d: %s", file, r.i+1, fmt.Sprintf(format, args...))
}

// where names the record for messages about another record.
func (r pvRecord) where() string {
	if r.tab != nil {
		return fmt.Sprintf("line %d", r.tab.Lines[r.i])
	}
	return fmt.Sprintf("record %d", r.i+1)
}

// ParsePeakValley reads daily peaks and valleys published without the curve
// they come from: a CSV or XLSX file with the columns date, date_tz,
// date_offset, peak_load_GW and valley_load_GW, or a .json file shaped like
// the peak-valley endpoint's response (its "peak_valley_load" array; values
// may be JSON strings, as the API writes them, or numbers). Each record
// carries exactly one of the two loads. It returns one DayExtremes per day,
// ascending, with instants in Europe/Rome.
//
// date is the wall clock "yyyy-mm-dd hh:mm:ss" (or an Excel date cell), and
// date_tz must be Europe/Rome. date_offset must be the offset Europe/Rome
// has at that wall time; in the repeated autumn hour it picks the occurrence
// ("+02:00" the earlier, "+01:00" the later). Loads are in GW with a decimal
// point or comma, and are never negative. Records are grouped by the
// Europe/Rome day of their instant.
//
// It returns an error with code Invalid, "FILE:LINE: reason" for tables or
// "FILE: record N: reason" for JSON (N counted from 1), for the first bad
// record, for a day with a second peak or valley, for a day that lacks
// either, for a day whose peak is below its valley, and for a file without
// records.
func ParsePeakValley(name string, r io.Reader) ([]energy.DayExtremes, error) {
	format, err := FormatOf(name)
	if err != nil {
		return nil, err
	}
	var recs []pvRecord
	if format == JSON {
		recs, err = readPeakValleyJSON(name, r)
	} else {
		recs, err = readPeakValleyTable(name, r)
	}
	if err != nil {
		return nil, err
	}

	type dayAcc struct {
		ext                energy.DayExtremes
		peakRec, valleyRec *pvRecord
	}
	days := make(map[energy.Date]*dayAcc)
	for k := range recs {
		rec := &recs[k]
		at, err := rec.instant(name)
		if err != nil {
			return nil, err
		}
		isPeak, gw, err := rec.load(name)
		if err != nil {
			return nil, err
		}
		day := energy.DateOf(at)
		acc := days[day]
		if acc == nil {
			acc = &dayAcc{ext: energy.DayExtremes{Day: day}}
			days[day] = acc
		}
		switch {
		case isPeak && acc.peakRec != nil:
			return nil, rec.errorf(name, "second peak for %v (the first is on %s)", day, acc.peakRec.where())
		case !isPeak && acc.valleyRec != nil:
			return nil, rec.errorf(name, "second valley for %v (the first is on %s)", day, acc.valleyRec.where())
		case isPeak:
			acc.ext.Peak, acc.peakRec = energy.Extreme{At: at, GW: gw}, rec
		default:
			acc.ext.Valley, acc.valleyRec = energy.Extreme{At: at, GW: gw}, rec
		}
	}
	out := make([]energy.DayExtremes, 0, len(days))
	for _, acc := range days {
		out = append(out, acc.ext)
	}
	slices.SortFunc(out, func(a, b energy.DayExtremes) int { return a.Day.Compare(b.Day) })
	for _, d := range out {
		acc := days[d.Day]
		switch {
		case acc.valleyRec == nil:
			return nil, acc.peakRec.errorf(name, "%v has a peak but no valley", d.Day)
		case acc.peakRec == nil:
			return nil, acc.valleyRec.errorf(name, "%v has a valley but no peak", d.Day)
		case d.Peak.GW < d.Valley.GW:
			return nil, acc.peakRec.errorf(name, "peak %v GW of %v is below its valley %v GW (%s)", d.Peak.GW, d.Day, d.Valley.GW, acc.valleyRec.where())
		}
	}
	return out, nil
}

func readPeakValleyTable(name string, r io.Reader) ([]pvRecord, error) {
	t, err := ReadTable(name, r)
	if err != nil {
		return nil, err
	}
	hdr, col, err := t.Header([]string{colPVDate, colPVTZ, colPVOffset, colPVPeak, colPVValley}, nil)
	if err != nil {
		return nil, err
	}
	format, err := FormatOf(name)
	if err != nil {
		return nil, err
	}
	var recs []pvRecord
	for i := hdr + 1; i < len(t.Rows); i++ {
		if t.Blank(i) {
			continue
		}
		date := t.Cell(i, col[colPVDate])
		if format == XLSX {
			// A date cell holds an Excel serial; text cells pass through.
			if wall, err := excelWall(date); err == nil {
				date = time.Unix(wall, 0).UTC().Format(time.DateTime)
			}
		}
		recs = append(recs, pvRecord{
			date:   date,
			tz:     t.Cell(i, col[colPVTZ]),
			offset: t.Cell(i, col[colPVOffset]),
			peak:   t.Cell(i, col[colPVPeak]),
			valley: t.Cell(i, col[colPVValley]),
			tab:    t,
			i:      i,
		})
	}
	if len(recs) == 0 {
		return nil, energy.Errorf(energy.Invalid, "%s: no data rows below the header", name)
	}
	return recs, nil
}

func readPeakValleyJSON(name string, r io.Reader) ([]pvRecord, error) {
	data, err := readFile(name, r)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Records []json.RawMessage `json:"peak_valley_load"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, energy.Errorf(energy.Invalid, "%s: not a peak-valley response: %v", name, err)
	}
	if len(doc.Records) == 0 {
		return nil, energy.Errorf(energy.Invalid, "%s: no records in peak_valley_load", name)
	}
	recs := make([]pvRecord, len(doc.Records))
	for i, raw := range doc.Records {
		var v struct {
			Date   jsonText `json:"date"`
			TZ     jsonText `json:"date_tz"`
			Offset jsonText `json:"date_offset"`
			Peak   jsonText `json:"peak_load_GW"`
			Valley jsonText `json:"valley_load_GW"`
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, energy.Errorf(energy.Invalid, "%s: record %d: %v", name, i+1, err)
		}
		recs[i] = pvRecord{
			date: string(v.Date), tz: string(v.TZ), offset: string(v.Offset),
			peak: string(v.Peak), valley: string(v.Valley), i: i,
		}
	}
	return recs, nil
}

// jsonText is a JSON string, or a number kept as written, or "" for null: the
// API writes every value as a string, and hand-made files may not.
type jsonText string

// UnmarshalJSON implements json.Unmarshaler.
func (t *jsonText) UnmarshalJSON(b []byte) error {
	switch {
	case bytes.Equal(b, []byte("null")):
		*t = ""
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = jsonText(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("want a string or a number, got %s", b)
	}
	*t = jsonText(n)
	return nil
}

// instant resolves the record's wall time, time zone and offset to an instant.
func (r *pvRecord) instant(file string) (time.Time, error) {
	w, err := time.Parse(time.DateTime, r.date)
	if err != nil || w.Nanosecond() != 0 {
		return time.Time{}, r.errorf(file, "%s %q: want yyyy-mm-dd hh:mm:ss", colPVDate, r.date)
	}
	wall := w.Unix()
	if r.tz != energy.TimeZone {
		return time.Time{}, r.errorf(file, "%s %q: want %s", colPVTZ, r.tz, energy.TimeZone)
	}
	off, ok := parseOffset(r.offset)
	if !ok {
		return time.Time{}, r.errorf(file, "%s %q: want a sign and hh:mm, like +01:00", colPVOffset, r.offset)
	}
	wallText := time.Unix(wall, 0).UTC().Format(time.DateTime)
	early, late, n := romeInstants(wall)
	switch {
	case n == 0:
		return time.Time{}, r.errorf(file, "%s %s does not exist in Europe/Rome (the clocks skip that hour)", colPVDate, wallText)
	case wall-early == off:
		return time.Unix(early, 0).In(energy.Rome()), nil
	case wall-late == off:
		return time.Unix(late, 0).In(energy.Rome()), nil
	case n == 2:
		return time.Time{}, r.errorf(file, "%s %s is not Europe/Rome's offset at %s (+02:00 the first time, +01:00 the second)",
			colPVOffset, r.offset, wallText)
	}
	return time.Time{}, r.errorf(file, "%s %s is not Europe/Rome's offset at %s (%s)",
		colPVOffset, r.offset, wallText, time.Unix(early, 0).In(energy.Rome()).Format("-07:00"))
}

// load returns which load the record carries and its value in GW.
func (r *pvRecord) load(file string) (isPeak bool, gw float64, err error) {
	col, s := colPVPeak, r.peak
	switch {
	case r.peak != "" && r.valley != "":
		return false, 0, r.errorf(file, "both %s and %s are set; a record is a peak or a valley", colPVPeak, colPVValley)
	case r.peak == "" && r.valley == "":
		return false, 0, r.errorf(file, "neither %s nor %s is set", colPVPeak, colPVValley)
	case r.valley != "":
		col, s = colPVValley, r.valley
	}
	v, err := energy.ParseNumber(s)
	if err != nil {
		return false, 0, r.errorf(file, "%s: %v", col, err)
	}
	if v < 0 {
		return false, 0, r.errorf(file, "%s: %q is negative", col, s)
	}
	return col == colPVPeak, v, nil
}

// parseOffset reads a UTC offset "+hh:mm" or "-hh:mm" as seconds east of UTC.
func parseOffset(s string) (int64, bool) {
	if len(s) != 6 || (s[0] != '+' && s[0] != '-') || s[3] != ':' {
		return 0, false
	}
	var n [4]int64
	for k, c := range []byte(s[1:3] + s[4:6]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n[k] = int64(c - '0')
	}
	h, m := n[0]*10+n[1], n[2]*10+n[3]
	if h > 23 || m > 59 {
		return 0, false
	}
	off := h*3600 + m*60
	if s[0] == '-' {
		off = -off
	}
	return off, true
}
