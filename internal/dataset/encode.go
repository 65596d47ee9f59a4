package dataset

import (
	"context"
	"io"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/energyapi/energyapi/internal/energy"
)

// Columns returns the names of the fields a record shows, in order: the
// visible fields, each Instant followed by its zone and offset fields.
func (d *Dataset) Columns() []string {
	var out []string
	for _, f := range d.Fields {
		if f.Hidden {
			continue
		}
		out = append(out, f.Name)
		if f.Kind == Instant {
			if f.TZ != "" {
				out = append(out, f.TZ)
			}
			if f.Offset != "" {
				out = append(out, f.Offset)
			}
		}
	}
	return out
}

// The fields include=meta adds to every record.
const (
	PublishedAt = "published_at"
	RevisedAt   = "revised_at"
)

// Columns returns the names of the fields an answer to q shows: the
// dataset's, then with Meta its publication and revision times.
func (q *Query) Columns() []string {
	var cols []string
	for _, c := range q.columnNames() {
		if c != "" {
			cols = append(cols, c)
		}
	}
	return cols
}

// columnNames returns, for each column appendValues emits, in its order,
// the name q's answer shows it by: the dataset's, or its view's, "" for a
// column the view leaves out.
func (q *Query) columnNames() []string {
	var cols []string
	if q.viewLayout != nil {
		cols = slices.Clone(q.viewLayout.names)
	} else {
		cols = q.Dataset.Columns()
	}
	if q.Meta {
		cols = append(cols, PublishedAt, RevisedAt)
	}
	return cols
}

// AppendValues appends the shown values of record i of p, in Columns order,
// as strings, calling emit once per value with the column index and the
// value's bytes in buf, or nil for a value written as JSON null (a Null
// field's missing number). It returns buf for reuse.
func (c *Catalog) appendValues(buf []byte, q *Query, p *Part, i int, emit func(col int, v []byte)) []byte {
	d := q.Dataset
	l := c.layoutOf(d)
	if buf == nil {
		// Never emit a nil slice for an empty value: nil means null.
		buf = make([]byte, 0, 64)
	}
	col := 0
	var lt time.Time
	haveTime := false
	localTime := func() time.Time {
		if !haveTime {
			lt = time.Unix(p.Time(i), 0).In(energy.Rome())
			haveTime = true
		}
		return lt
	}
	zone, zoneName := energy.Rome(), energy.TimeZone
	if q.UTC {
		zone, zoneName = time.UTC, "UTC"
	}
	late := q.view != nil && q.view.LateRepeatedHour && !q.UTC
	for fi, f := range d.Fields {
		if f.Hidden {
			continue
		}
		buf = buf[:0]
		switch f.Kind {
		case Instant:
			buf, col = appendInstant(buf, emit, col, f, time.Unix(p.Time(i), 0).In(zone), zoneName, late)
			continue
		case YearOf:
			buf = strconv.AppendInt(buf, int64(localTime().Year()), 10)
		case MonthOf:
			buf = append(buf, energy.MonthName(localTime().Month())...)
		case DateOf:
			layout := f.Layout
			if layout == "" {
				layout = "2006-01-02"
			}
			buf = localTime().AppendFormat(buf, layout)
		case Text:
			buf = append(buf, p.Text(l.text[fi], i)...)
		case Zone:
			buf = append(buf, zoneName...)
		case Number:
			v := p.Num(l.num[fi], i)
			if f.Null && math.IsNaN(v) {
				emit(col, nil) // JSON null
				col++
				continue
			}
			buf = AppendNumber(buf, v, f.Format)
		}
		emit(col, buf)
		col++
	}
	if q.Meta {
		emit(col, appendStamp(buf[:0], p.Published(i)))
		emit(col+1, appendStamp(buf[:0], p.Revised(i)))
	}
	return buf
}

// appendStamp appends a publication time (Unix microseconds) as an RFC
// 3339 instant in UTC, with as many fractional digits as it has.
func appendStamp(dst []byte, us int64) []byte {
	return time.UnixMicro(us).UTC().AppendFormat(dst, time.RFC3339Nano)
}

// AppendNumber appends v as format writes it; NaN appends nothing.
func AppendNumber(dst []byte, v float64, format NumberFormat) []byte {
	switch {
	case math.IsNaN(v):
		return dst
	case format.Italian:
		return energy.AppendItalian(dst, v)
	}
	return strconv.AppendFloat(dst, v, 'f', format.Decimals, 64)
}

// Selection is the answer to a query with its parts read: what AppendJSON
// and AppendCSV encode whole, and WriteJSON and WriteCSV stream.
type Selection struct {
	s     *Snapshot
	q     *Query
	parts []*Part
	// picked, for a query that pages or aggregates, lists the records
	// of the answer (the parts are then unused); next is the next page's
	// cursor, empty for none.
	picked []pick
	next   string
}

// each calls fn with every record of the answer, in order.
func (sel *Selection) each(fn func(p *Part, i int)) {
	if sel.picked == nil {
		eachIn(sel.parts, sel.q, fn)
		return
	}
	for _, pk := range sel.picked {
		fn(pk.p, pk.i)
	}
}

// Select reads the parts the answer to q covers. It may read them from
// the store, and returns the error of such a read: a caller that streams
// the answer learns of it before sending anything.
func (s *Snapshot) Select(ctx context.Context, q *Query) (*Selection, error) {
	if q.Paged() || q.aggregates() {
		return s.selectShaped(ctx, q)
	}
	parts, err := s.parts(ctx, q)
	if err != nil {
		return nil, err
	}
	return &Selection{s: s, q: q, parts: parts}, nil
}

// AppendJSON appends the whole success answer to q: the result envelope
// and the dataset's array of records, every value a JSON string. It may
// read parts from the store, and returns the error of such a read.
func (s *Snapshot) AppendJSON(ctx context.Context, dst []byte, q *Query) ([]byte, error) {
	sel, err := s.Select(ctx, q)
	if err != nil {
		return dst, err
	}
	return sel.encodeJSON(dst, nil)
}

// AppendJSONTee is AppendJSON handing the answer to tee as it grows: a
// piece of at least every bytes at a time, after a record, and the rest
// at the end. The pieces are the answer's own bytes and do not change
// afterwards, so that a caller can compress them while the rest is
// encoded (coding.Pipe). The parts are read before the first piece: a
// store that fails does so before tee sees anything.
func (s *Snapshot) AppendJSONTee(ctx context.Context, dst []byte, q *Query, every int, tee func([]byte)) ([]byte, error) {
	return s.appendTee(ctx, dst, q, every, tee, (*Selection).encodeJSON)
}

// AppendCSVTee is AppendCSV handing the answer to tee as AppendJSONTee does.
func (s *Snapshot) AppendCSVTee(ctx context.Context, dst []byte, q *Query, every int, tee func([]byte)) ([]byte, error) {
	return s.appendTee(ctx, dst, q, every, tee, (*Selection).encodeCSV)
}

func (s *Snapshot) appendTee(ctx context.Context, dst []byte, q *Query, every int, tee func([]byte), encode func(*Selection, []byte, *flusher) ([]byte, error)) ([]byte, error) {
	sel, err := s.Select(ctx, q)
	if err != nil {
		return dst, err
	}
	fl := &flusher{at: max(every, 1), tee: true, sent: len(dst), out: func(b []byte) error { tee(b); return nil }}
	dst, err = encode(sel, dst, fl)
	if err == nil && len(dst) > fl.sent {
		tee(dst[fl.sent:])
	}
	return dst, err
}

// AppendJSON appends the whole answer of the selection, as
// Snapshot.AppendJSON does.
func (sel *Selection) AppendJSON(dst []byte) ([]byte, error) { return sel.encodeJSON(dst, nil) }

// AppendCSV appends the selection's answer as CSV, as Snapshot.AppendCSV does.
func (sel *Selection) AppendCSV(dst []byte) ([]byte, error) { return sel.encodeCSV(dst, nil) }

// WriteJSON writes the answer AppendJSON appends to w, encoded in buf (its
// capacity) and written each time it is nearly full; it returns the bytes
// written.
func (sel *Selection) WriteJSON(w io.Writer, buf []byte) (int64, error) {
	return stream(w, buf, sel.encodeJSON)
}

// RecordBytes is about the bytes a record of q's answer takes in JSON:
// each value's key and a dozen bytes.
func (q *Query) RecordBytes() int {
	per := 2
	for _, c := range q.Columns() {
		per += len(c) + 18 // the key's quotes, separators and the value
	}
	return per
}

// encodeJSON is the one JSON encoder of answers: it appends the answer to
// dst, handing dst to fl whenever it passes fl's size; with a nil fl it
// builds the whole answer.
func (sel *Selection) encodeJSON(dst []byte, fl *flusher) ([]byte, error) {
	q := sel.q
	// A column the view leaves out has no key, and is not written.
	cols := q.columnNames()
	keys := make([][]byte, len(cols))
	sep := "{"
	for i, c := range cols {
		if c == "" {
			continue
		}
		keys[i] = appendJSONString([]byte(sep), c)
		keys[i] = append(keys[i], ':')
		sep = ","
	}
	if fl.builds() {
		// Sizing the answer up front saves growing it a dozen times.
		n := 0
		sel.each(func(*Part, int) { n++ })
		dst = slices.Grow(dst, 160+n*q.RecordBytes())
	}
	dst = appendEnvelope(dst, q)
	dst = append(dst, '[')
	first := true
	var buf []byte
	sel.each(func(p *Part, i int) {
		if fl.failed() {
			return
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		buf = sel.s.Catalog.appendValues(buf, q, p, i, func(col int, v []byte) {
			if keys[col] == nil {
				return
			}
			dst = append(dst, keys[col]...)
			if v == nil {
				dst = append(dst, "null"...)
				return
			}
			dst = appendJSONBytes(dst, v)
		})
		dst = fl.after(append(dst, '}'))
	})
	return append(dst, "]}"...), fl.error()
}

// flusher hands an encoder's buffer to out once it holds at bytes or
// more, after a record; the encoder goes on in the emptied buffer. A nil
// flusher never flushes: the answer is built whole.
type flusher struct {
	at  int
	out func([]byte) error
	err error // out's first error: the encoder stops
	// tee keeps building the whole answer in the buffer, handing out only
	// what was added since the last piece: the bytes from sent on.
	tee  bool
	sent int
}

func (f *flusher) after(dst []byte) []byte {
	if f == nil || len(dst)-f.sent < f.at || f.err != nil {
		return dst
	}
	f.err = f.out(dst[f.sent:])
	if f.tee {
		f.sent = len(dst)
		return dst
	}
	return dst[:0]
}

// builds reports whether an encoder with f builds the whole answer.
func (f *flusher) builds() bool { return f == nil || f.tee }

func (f *flusher) failed() bool { return f != nil && f.err != nil }

func (f *flusher) error() error {
	if f == nil {
		return nil
	}
	return f.err
}

// stream runs encode with a flusher that writes to w through buf, and
// writes what is left at the end; it returns the bytes written.
func stream(w io.Writer, buf []byte, encode func([]byte, *flusher) ([]byte, error)) (int64, error) {
	var n int64
	fl := &flusher{at: max(cap(buf)*7/8, 1), out: func(b []byte) error {
		m, err := w.Write(b)
		n += int64(m)
		return err
	}}
	rest, err := encode(buf[:0], fl)
	if err == nil {
		err = fl.out(rest)
	}
	return n, err
}

// AppendEmptyJSON appends a success answer with no records: the answer to
// an unknown filter value for callers that cannot read an empty body.
// Array returns the name of the answer's array: the dataset's, or its view's.
func (q *Query) Array() string {
	if q.view != nil && q.view.Array != "" {
		return q.view.Array
	}
	return q.Dataset.Array
}

func AppendEmptyJSON(dst []byte, q *Query) []byte {
	return append(appendEnvelope(dst, q), "[]}"...)
}

// appendEnvelope appends the success answer up to its array: the result
// object and the array's name.
func appendEnvelope(dst []byte, q *Query) []byte {
	dst = append(dst, `{"result":{`...)
	dst = appendJSONString(dst, q.Dataset.ResultMessageKey())
	dst = append(dst, ':')
	dst = appendJSONString(dst, q.Message())
	dst = append(dst, `,"status":"Completed"},`...)
	dst = appendJSONString(dst, q.Array())
	return append(dst, ':')
}

// AppendCSV appends the records q selects as CSV (RFC 4180): a header row
// with the field names, then one row per record with the same strings the
// JSON answer holds. It may read parts from the store, and returns the
// error of such a read.
func (s *Snapshot) AppendCSV(ctx context.Context, dst []byte, q *Query) ([]byte, error) {
	sel, err := s.Select(ctx, q)
	if err != nil {
		return dst, err
	}
	return sel.encodeCSV(dst, nil)
}

// WriteCSV writes the answer AppendCSV appends to w, as WriteJSON does.
func (sel *Selection) WriteCSV(w io.Writer, buf []byte) (int64, error) {
	return stream(w, buf, sel.encodeCSV)
}

// encodeCSV is the one CSV encoder of answers, as encodeJSON is of JSON.
func (sel *Selection) encodeCSV(dst []byte, fl *flusher) ([]byte, error) {
	q := sel.q
	names := q.columnNames()
	first := slices.IndexFunc(names, func(c string) bool { return c != "" })
	for i, c := range names {
		if c == "" {
			continue
		}
		if i > first {
			dst = append(dst, ',')
		}
		dst = appendCSVField(dst, []byte(c))
	}
	dst = append(dst, "\r\n"...)
	var buf []byte
	sel.each(func(p *Part, i int) {
		if fl.failed() {
			return
		}
		buf = sel.s.Catalog.appendValues(buf, q, p, i, func(col int, v []byte) {
			if names[col] == "" {
				return // a column the view leaves out
			}
			if col > first {
				dst = append(dst, ',')
			}
			dst = appendCSVField(dst, v)
		})
		dst = fl.after(append(dst, "\r\n"...))
	})
	return dst, fl.error()
}

func appendCSVField(dst, v []byte) []byte {
	quote := false
	for _, b := range v {
		if b == ',' || b == '"' || b == '\r' || b == '\n' {
			quote = true
			break
		}
	}
	if len(v) > 0 && (v[0] == ' ' || v[0] == '\t') {
		quote = true
	}
	if !quote {
		return append(dst, v...)
	}
	dst = append(dst, '"')
	for _, b := range v {
		if b == '"' {
			dst = append(dst, '"')
		}
		dst = append(dst, b)
	}
	return append(dst, '"')
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as encoding/json writes a string (HTML-safe,
// invalid UTF-8 as U+FFFD), so that answers stay byte-identical to what
// json.Marshal produced for the same values.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			dst = appendJSONByte(dst, b)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, `\u202`...)
			dst = append(dst, hexDigits[r&0xF])
		default:
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}

func appendJSONBytes(dst, b []byte) []byte {
	// Values are mostly digits and plain letters: copy them straight.
	plain := true
	for _, c := range b {
		if c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			plain = false
			break
		}
	}
	if plain {
		dst = append(dst, '"')
		dst = append(dst, b...)
		return append(dst, '"')
	}
	return appendJSONString(dst, string(b))
}

func appendJSONByte(dst []byte, b byte) []byte {
	switch b {
	case '\\', '"':
		return append(dst, '\\', b)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	case '<', '>', '&':
		return append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
	}
	if b < 0x20 {
		return append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
	}
	return append(dst, b)
}
