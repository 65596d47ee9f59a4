package api

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestJSONLogWritesWhatSlogWrites: the lines NewJSONLog encodes itself are
// byte for byte those of slog's JSON handler with the same options, for
// every kind of value it encodes and strings that need escaping, with and
// without a ReplaceAttr.
func TestJSONLogWritesWhatSlogWrites(t *testing.T) {
	rome, err := time.LoadLocation("Europe/Rome")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2024, 10, 27, 2, 30, 15, 123456789, rome)
	attrs := []slog.Attr{
		slog.String("plain", "GET"),
		slog.String("escapes", "a\"b\\c\nd\re\tf\x00\x1f\x7f <&> é \u2028\u2029 \xff\xfe end"),
		slog.String("", "empty key"),
		slog.Int("int", -42), slog.Uint64("uint", math.MaxUint64), slog.Bool("bool", true),
		slog.Float64("zero", 0), slog.Float64("ms", 0.123), slog.Float64("big", 1234.5),
		slog.Float64("tiny", 1e-7), slog.Float64("huge", 1e21), slog.Float64("neg", -2.5e-9),
		slog.Duration("wait", 1500*time.Microsecond), slog.Time("when", at.In(time.UTC)),
		slog.Any("lvl", slog.LevelWarn),
	}
	reps := map[string]func([]string, slog.Attr) slog.Attr{
		"none": nil,
		// As serve's: durations become float milliseconds.
		"durations in ms": func(_ []string, a slog.Attr) slog.Attr {
			if a.Value.Kind() == slog.KindDuration {
				return slog.Float64(a.Key+"_ms", float64(a.Value.Duration().Microseconds())/1000)
			}
			return a
		},
		"renames and drops": func(g []string, a slog.Attr) slog.Attr {
			switch a.Key {
			case "int":
				return slog.Attr{}
			case slog.MessageKey:
				return slog.String("message", a.Value.String())
			case slog.LevelKey:
				return slog.String("severity", strings.ToLower(a.Value.String()))
			}
			return a
		},
	}
	for name, rep := range reps {
		t.Run(name, func(t *testing.T) {
			opts := &slog.HandlerOptions{ReplaceAttr: rep}
			var want, got bytes.Buffer
			rec := slog.NewRecord(at, slog.LevelInfo, "request \"quoted\"", 0)
			rec.AddAttrs(attrs...)
			if err := slog.NewJSONHandler(&want, opts).Handle(context.Background(), rec); err != nil {
				t.Fatal(err)
			}
			j := NewJSONLog(&got, opts).(*jsonLog)
			if !j.writeLine(at, slog.LevelInfo, "request \"quoted\"", attrs) {
				t.Fatal("writeLine: not written")
			}
			if got.String() != want.String() {
				t.Errorf("got  %s\nwant %s", got.String(), want.String())
			}
		})
	}
}

// TestJSONLogLeavesTheRestToSlog: what the encoder does not write as slog
// would is left to slog, which the line then goes through.
func TestJSONLogLeavesTheRestToSlog(t *testing.T) {
	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		name  string
		opts  *slog.HandlerOptions
		attrs []slog.Attr
	}{
		{"source", &slog.HandlerOptions{AddSource: true}, nil},
		{"error value", nil, []slog.Attr{slog.Any("err", errors.New("boom"))}},
		{"group", nil, []slog.Attr{slog.Group("g", slog.Int("a", 1))}},
		{"NaN", nil, []slog.Attr{slog.Float64("x", math.NaN())}},
		{"year 10000", nil, []slog.Attr{slog.Time("t", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			h := NewJSONLog(&out, tc.opts)
			if h.(*jsonLog).writeLine(at, slog.LevelInfo, "m", tc.attrs) || out.Len() != 0 {
				t.Fatalf("written by the encoder: %q", out.String())
			}
			logRecord(context.Background(), h, at, slog.LevelInfo, "m", tc.attrs)
			if !strings.HasPrefix(out.String(), `{"time":"2024-01-02T03:04:05Z"`) || strings.Count(out.String(), "\n") != 1 {
				t.Errorf("through slog: got %q, want one line", out.String())
			}
		})
	}
}

// TestPlainPrefixStopsAtEscapes: the words plainPrefix passes over hold
// nothing appendJSONString would escape, wherever such a byte lies, and it
// passes over DEL, which needs no escaping.
func TestPlainPrefixStopsAtEscapes(t *testing.T) {
	for _, c := range []byte{0, 0x1f, '"', '\\', 0x7f, 0x80, 0xff} {
		for at := 0; at < 24; at++ {
			s := []byte(strings.Repeat("abcdefgh", 3))
			s[at] = c
			n, want := plainPrefix(string(s)), at/8*8
			if c == 0x7f {
				want = 24
			}
			if n != want {
				t.Errorf("byte %#x at %d: got plain prefix %d, want %d", c, at, n, want)
			}
		}
	}
}

// TestAppendTimeAsRFC3339Nano: a line's time, from the second kept or
// not, is what time.RFC3339Nano writes, across zones, a change of
// offset and fractions with and without trailing zeros.
func TestAppendTimeAsRFC3339Nano(t *testing.T) {
	rome, err := time.LoadLocation("Europe/Rome")
	if err != nil {
		t.Skip("no zone database:", err)
	}
	h := NewJSONLog(io.Discard, nil).(*jsonLog)
	base := time.Date(2024, 10, 27, 0, 59, 58, 0, time.UTC) // Rome leaves summer time at 01:00 UTC
	for i := range 5 {
		for _, ns := range []int{0, 1, 100, 120_000_000, 123_456_789, 999_999_999} {
			for _, loc := range []*time.Location{time.UTC, rome, time.FixedZone("odd", 5*3600+1800)} {
				at := base.Add(time.Duration(i)*time.Second + time.Duration(ns)).In(loc)
				got, ok := h.appendTime(nil, at)
				want := `"` + at.Format(time.RFC3339Nano) + `"`
				if !ok || string(got) != want {
					t.Errorf("got %s %v, want %s", got, ok, want)
				}
			}
		}
	}
	if _, ok := h.appendTime(nil, time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)); ok {
		t.Error("year 10000: got written, want refused")
	}
}

// TestRequestLineAsAttrs: the request line written with constant keys is
// the line of requestAttrs through the general encoder, byte for byte.
func TestRequestLineAsAttrs(t *testing.T) {
	at := time.Date(2024, 10, 27, 1, 30, 15, 120_000_000, time.UTC)
	for _, tc := range []struct {
		name, target, ua, client string
		bid                      []string
		extra                    []slog.Attr
		status, bytes            int
		d                        time.Duration
	}{
		{name: "plain", target: "/load/v2.0/total-load?x=1", ua: "Go-http-client/1.1", status: 200, bytes: 74_000, d: 1234 * time.Microsecond},
		{name: "bare", target: "/", status: 404, d: 0},
		{name: "everything", target: "/p%22ath%0A", ua: "agent \"q\" \u2028", client: "c1", bid: []string{"b-1"},
			extra: []slog.Attr{slog.String("reason", "invalid_client: x"), slog.String("client_id_hash", "ab")}, status: 401, bytes: 77, d: 7 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var fast, general bytes.Buffer
			r := httptest.NewRequest(http.MethodGet, tc.target, nil)
			if tc.ua != "" {
				r.Header.Set("User-Agent", tc.ua)
			}
			e := &entry{id: "abcd-1z", clientID: tc.client, extra: tc.extra}
			e.w.status, e.w.bytes = tc.status, tc.bytes
			h := NewJSONLog(&fast, nil).(*jsonLog)
			if !h.writeRequestLine(at, r, e, "GET /p", tc.d, "192.0.2.1", tc.bid) {
				t.Fatal("not written")
			}
			attrs := requestAttrs(nil, r, e, "GET /p", &e.w, tc.d, "192.0.2.1", tc.bid)
			logRecord(context.Background(), NewJSONLog(&general, nil), at, slog.LevelInfo, "request", attrs)
			if fast.String() != general.String() {
				t.Errorf("got  %s want %s", fast.String(), general.String())
			}
		})
	}
}
