package api

import (
	"context"
	"io"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// NewJSONLog returns a log handler that writes JSON lines to w as
// slog.NewJSONHandler(w, opts) does, and through which the server writes
// its request lines itself: encoded straight into a pooled buffer from the
// line's attributes, with no slog.Record and no reflection, in the bytes
// the JSON handler would write for them (logging a cached answer through
// slog took a third of the handler's time). A line it cannot write so (a
// source location asked for, an attribute of a kind it does not encode)
// goes through slog. Writes to w are serialised, one line per Write.
func NewJSONLog(w io.Writer, opts *slog.HandlerOptions) slog.Handler {
	if opts == nil {
		opts = &slog.HandlerOptions{}
	}
	lw := &lockedWriter{w: w}
	return &jsonLog{Handler: slog.NewJSONHandler(lw, opts), w: lw, opts: *opts}
}

// jsonLog is NewJSONLog's handler. Handlers derived from it (WithAttrs,
// WithGroup) are plain JSON handlers: their lines carry more than their
// attributes.
type jsonLog struct {
	slog.Handler
	w    *lockedWriter
	opts slog.HandlerOptions
	// second is the time of the last line written, to the second, as its
	// time field begins and ends (see appendTime).
	second atomic.Pointer[stampedSecond]
}

// stampedSecond is one second's RFC 3339 date and time of day, and its
// zone offset, as time.RFC3339Nano writes them.
type stampedSecond struct {
	unix       int64
	loc        *time.Location
	date, zone []byte // "2006-01-02T15:04:05" and "Z07:00"
}

// appendTime appends t as a JSON string, as t.AppendFormat(time.RFC3339Nano)
// writes it, from the last second's date and zone when t falls in it: a
// line's time took a quarter of the line's instructions when formatted
// whole. A zone's offset changes only at whole seconds, so one second has
// one offset. It reports false for a year RFC 3339 cannot write.
func (h *jsonLog) appendTime(b []byte, t time.Time) ([]byte, bool) {
	s := h.second.Load()
	if s == nil || s.unix != t.Unix() || s.loc != t.Location() {
		if y := t.Year(); y < 0 || y >= 10000 {
			return b, false // slog writes an error in its place
		}
		s = &stampedSecond{unix: t.Unix(), loc: t.Location(),
			date: t.AppendFormat(nil, "2006-01-02T15:04:05"), zone: t.AppendFormat(nil, "Z07:00")}
		h.second.Store(s)
	}
	b = append(append(b, '"'), s.date...)
	if ns := t.Nanosecond(); ns != 0 {
		var frac [10]byte
		frac[0] = '.'
		for i := 9; i > 0; i-- {
			frac[i] = byte('0' + ns%10)
			ns /= 10
		}
		n := 10
		for frac[n-1] == '0' {
			n--
		}
		b = append(b, frac[:n]...)
	}
	return append(append(b, s.zone...), '"'), true
}

// lockedWriter serialises the writes of the JSON handler and of jsonLog's
// own lines, so that lines never interleave.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// lineBuffers holds the buffers lines are encoded in.
var lineBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// writeLine writes the line of a record of level and msg at t with attrs,
// and reports whether it did; if not, the caller logs the record through
// slog. The caller has checked that the level is enabled.
func (h *jsonLog) writeLine(t time.Time, level slog.Level, msg string, attrs []slog.Attr) bool {
	if h.opts.AddSource {
		return false
	}
	p := lineBuffers.Get().(*[]byte)
	defer func() {
		if cap(*p) <= 64<<10 { // a rare long line is not kept
			lineBuffers.Put(p)
		}
	}()
	b, ok := h.appendLine((*p)[:0], t, level, msg, attrs)
	*p = b
	if ok {
		_, _ = h.w.Write(b) // as slog's handlers, the log's own errors go nowhere
	}
	return ok
}

// appendLine appends the line to b as the JSON handler writes it: the
// built-in time, level and message, then attrs, each through ReplaceAttr
// when there is one.
func (h *jsonLog) appendLine(b []byte, t time.Time, level slog.Level, msg string, attrs []slog.Attr) ([]byte, bool) {
	e := lineEncoder{b: append(b, '{'), rep: h.opts.ReplaceAttr}
	ok := true
	if e.rep == nil {
		e.key(slog.TimeKey)
		e.b, ok = h.appendTime(e.b, t.Round(0))
	} else {
		ok = e.builtIn(slog.Time(slog.TimeKey, t.Round(0)))
	}
	ok = ok && e.builtIn(slog.Any(slog.LevelKey, level)) &&
		e.builtIn(slog.String(slog.MessageKey, msg))
	for _, a := range attrs {
		ok = ok && e.attr(a, noGroups)
	}
	return append(e.b, '}', '\n'), ok
}

// noGroups is what ReplaceAttr is told of the groups of an attribute of
// the root handler: none, as a list.
var noGroups = []string{}

// lineEncoder appends one JSON line's attributes as slog's JSON handler
// does; each method reports false for what it does not encode the same
// way.
type lineEncoder struct {
	b   []byte
	sep bool // an attribute was written: the next needs a comma
	rep func([]string, slog.Attr) slog.Attr
}

// builtIn appends one of the built-in attributes, which ReplaceAttr sees
// without groups, and which slog writes by its own rules when there is no
// ReplaceAttr: the level as its name.
func (e *lineEncoder) builtIn(a slog.Attr) bool {
	if e.rep == nil && a.Key == slog.LevelKey {
		e.key(a.Key)
		e.b = appendJSONString(e.b, a.Value.Any().(slog.Level).String())
		return true
	}
	return e.attr(a, nil)
}

// attr appends a, replaced as ReplaceAttr says; an attribute replaced by
// the empty one is left out.
func (e *lineEncoder) attr(a slog.Attr, groups []string) bool {
	if a.Value.Kind() == slog.KindLogValuer {
		a.Value = a.Value.Resolve()
	}
	if e.rep != nil && a.Value.Kind() != slog.KindGroup {
		a = e.rep(groups, a)
		a.Value = a.Value.Resolve()
	}
	// Only an attribute with no key can be the empty one: the line's
	// attributes all have keys, and skip the comparison.
	if a.Key == "" && a.Equal(slog.Attr{}) {
		return true
	}
	e.key(a.Key)
	return e.value(a.Value)
}

func (e *lineEncoder) key(k string) {
	if e.sep {
		e.b = append(e.b, ',')
	}
	e.sep = true
	e.b = append(appendJSONString(e.b, k), ':')
}

// value appends v as the JSON handler does, for the kinds of values that
// need no reflection: not groups, nor any value of KindAny but a level.
func (e *lineEncoder) value(v slog.Value) bool {
	switch v.Kind() {
	case slog.KindString:
		e.b = appendJSONString(e.b, v.String())
	case slog.KindInt64:
		e.b = strconv.AppendInt(e.b, v.Int64(), 10)
	case slog.KindUint64:
		e.b = strconv.AppendUint(e.b, v.Uint64(), 10)
	case slog.KindFloat64:
		return e.float(v.Float64())
	case slog.KindBool:
		e.b = strconv.AppendBool(e.b, v.Bool())
	case slog.KindDuration:
		e.b = strconv.AppendInt(e.b, int64(v.Duration()), 10)
	case slog.KindTime:
		t := v.Time()
		if y := t.Year(); y < 0 || y >= 10000 {
			return false // slog writes an error in its place
		}
		e.b = append(t.AppendFormat(append(e.b, '"'), time.RFC3339Nano), '"')
	case slog.KindAny:
		l, ok := v.Any().(slog.Level) // its MarshalJSON quotes its name
		if !ok {
			return false
		}
		e.b = appendJSONString(e.b, l.String())
	default:
		return false
	}
	return true
}

// float appends f as encoding/json does, which the JSON handler calls for
// floats: 'f' format but for very small and very large magnitudes, and a
// two-digit exponent cut to one where it can be.
func (e *lineEncoder) float(f float64) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return false // slog writes an error in its place
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	e.b = strconv.AppendFloat(e.b, f, format, -1, 64)
	if n := len(e.b); format == 'e' && n >= 4 && e.b[n-4] == 'e' && e.b[n-3] == '-' && e.b[n-2] == '0' {
		e.b[n-2] = e.b[n-1]
		e.b = e.b[:n-1]
	}
	return true
}

// appendJSONString appends s quoted as the JSON handler quotes strings:
// control characters, quotes and backslashes escaped, invalid UTF-8 as
// U+FFFD, and U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := plainPrefix(s); i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(b, s[start:]...), '"')
}

// plainPrefix returns how many leading bytes of s, in whole words of 8,
// need no escaping: none is a control character, a quote, a backslash or
// outside ASCII. Log lines are nearly all such bytes, and a word at a time
// takes a fraction of the instructions of a byte at a time.
func plainPrefix(s string) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		v := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		quote, backslash := v^(ones*'"'), v^(ones*'\\')
		// A byte of v at or above 0x80, below 0x20, or a zero byte of
		// quote or backslash (the classic has-less-than and has-zero tests).
		if (v|(v-ones*0x20)&^v|(quote-ones)&^quote|(backslash-ones)&^backslash)&highs != 0 {
			break
		}
	}
	return i
}

// writeRequestLine writes a request's log line, the line of requestAttrs,
// with its keys as constants and its values appended as lineEncoder
// appends them: the same bytes (TestRequestLineAsAttrs) without an
// attribute's dispatch and key quoting for each of a dozen fields, which
// cost a third of the line. It reports false, having written nothing,
// where ReplaceAttr or AddSource asks for the general path.
func (h *jsonLog) writeRequestLine(t time.Time, r *http.Request, e *entry, route string, d time.Duration, remoteAddr string, bid []string) bool {
	if h.opts.ReplaceAttr != nil || h.opts.AddSource {
		return false
	}
	p := lineBuffers.Get().(*[]byte)
	defer func() {
		if cap(*p) <= 64<<10 { // a rare long line is not kept
			lineBuffers.Put(p)
		}
	}()
	l := lineEncoder{b: append((*p)[:0], `{"time":`...), sep: true}
	var ok bool
	if l.b, ok = h.appendTime(l.b, t.Round(0)); !ok {
		return false
	}
	l.b = appendJSONString(append(l.b, `,"level":"INFO","msg":"request","req_id":`...), e.id)
	l.b = appendJSONString(append(l.b, `,"method":`...), r.Method)
	l.b = appendJSONString(append(l.b, `,"path":`...), r.URL.Path)
	l.b = appendJSONString(append(l.b, `,"route":`...), route)
	l.b = strconv.AppendInt(append(l.b, `,"status":`...), int64(e.w.status), 10)
	l.b = append(l.b, `,"duration_ms":`...)
	l.float(float64(d.Microseconds()) / 1000)
	l.b = strconv.AppendInt(append(l.b, `,"bytes":`...), int64(e.w.bytes), 10)
	l.b = appendJSONString(append(l.b, `,"remote_addr":`...), remoteAddr)
	if ua := userAgent(r); ua != "" {
		l.b = appendJSONString(append(l.b, `,"user_agent":`...), ua)
	}
	if e.clientID != "" {
		l.b = appendJSONString(append(l.b, `,"client_id":`...), e.clientID)
	}
	if bid != nil {
		l.b = appendJSONString(append(l.b, `,"business_id":`...), bid[0])
	}
	for _, a := range e.extra {
		if !l.attr(a, noGroups) {
			return false
		}
	}
	*p = append(l.b, '}', '\n')
	_, _ = h.w.Write(*p)
	return true
}

// logRecord writes a record of level and msg at t with attrs to h: itself
// when h is NewJSONLog's, else through slog.
func logRecord(ctx context.Context, h slog.Handler, t time.Time, level slog.Level, msg string, attrs []slog.Attr) {
	if j, ok := h.(*jsonLog); ok && j.writeLine(t, level, msg, attrs) {
		return
	}
	rec := slog.NewRecord(t, level, msg, 0)
	rec.AddAttrs(attrs...)
	_ = h.Handle(ctx, rec)
}
