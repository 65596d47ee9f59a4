package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
)

// entry is a request's own state: what the request log learns while the
// request is served, and what the layers below keep for it. It is the
// request's context too (the one context every request derives), so that
// the state costs one allocation and the context none more.
type entry struct {
	context.Context // the context the request came with

	start    time.Time // when the request reached the outermost handler
	id       string
	clientID string
	route    string      // the pattern the mux matched; "" when none did
	extra    []slog.Attr // what handlers add (see addLogAttrs)
	// slots is what the request holds of the admission classes (see
	// limitInFlight and StoreClass).
	slots ticket
	// deadline is the request's place among the deadlines (withDeadline).
	deadline deadline
	// w is the writer the layers below write to, which keeps the status
	// and size for the log.
	w statusWriter
	// idHeader is the X-Request-Id header value: the entry's id.
	idHeader [1]string
}

type entryKey struct{}

// Value makes the entry findable from its context and those derived from it.
func (e *entry) Value(key any) any {
	if key == (entryKey{}) {
		return e
	}
	return e.Context.Value(key)
}

func entryFrom(ctx context.Context) *entry {
	e, _ := ctx.Value(entryKey{}).(*entry)
	return e
}

// recordClient keeps the client that auth.RequireBearerRecorded
// authenticated in the request's entry, where the log, the rate limit and
// the sandbox find it (clientOf), so that no context is derived for it.
func recordClient(r *http.Request, clientID string) bool {
	e := entryFrom(r.Context())
	if e == nil {
		return false
	}
	e.clientID = clientID
	return true
}

// clientOf returns the client authenticated for r.
func clientOf(r *http.Request) string {
	if e := entryFrom(r.Context()); e != nil && e.clientID != "" {
		return e.clientID
	}
	return auth.ClientID(r.Context()) // a request served outside NewServer
}

// setLogClient records the authenticated client in the request's log line.
func setLogClient(r *http.Request, clientID string) {
	if e := entryFrom(r.Context()); e != nil {
		e.clientID = clientID
	}
}

// addLogAttrs adds attributes to the request's log line; the token endpoint
// adds why it refused a request and which client the request named.
func addLogAttrs(r *http.Request, attrs ...slog.Attr) {
	if e := entryFrom(r.Context()); e != nil {
		e.extra = append(e.extra, attrs...)
	}
}

// maxUserAgent bounds the User-Agent kept in a log line.
const maxUserAgent = 256

// userAgent returns the request's User-Agent, cut to maxUserAgent bytes
// (on a character boundary), for the log; the JSON log escapes the rest.
func userAgent(r *http.Request) string {
	ua := r.Header.Get("User-Agent")
	if len(ua) <= maxUserAgent {
		return ua
	}
	return strings.ToValidUTF8(ua[:maxUserAgent], "")
}

// routed records the pattern that the mux matched for the request, which the
// mux sets only on the request it passes down, so that the log line and the
// metrics outside it can label requests by route (never by the raw path,
// which callers choose freely) without matching the request a second time.
func routed(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if e := entryFrom(r.Context()); e != nil {
			e.route = r.Pattern
		}
		next.ServeHTTP(w, r)
	})
}

// statusWriter remembers the status a handler wrote, for the log and metrics.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// requestIDs makes request IDs unique across replicas (a random prefix per
// process) without a random read per request (a counter).
type requestIDs struct {
	prefix string
	n      atomic.Uint64
}

func newRequestIDs() *requestIDs {
	b := make([]byte, 4)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return &requestIDs{prefix: hex.EncodeToString(b)}
}

// next returns a new request ID, in one allocation.
func (g *requestIDs) next() string {
	var b [40]byte // prefix, "-", and at most 13 base-36 digits
	id := append(b[:0], g.prefix...)
	id = append(id, '-')
	return string(strconv.AppendUint(id, g.n.Add(1), 36))
}

// businessIDKey is businessID in the canonical form net/http keeps header
// names in, so that finding it is a map lookup.
var businessIDKey = textproto.CanonicalMIMEHeaderKey("businessID")

// businessID returns the caller's businessID header when it is safe to echo
// and log, short printable ASCII, as the UUIDs clients send are, as a
// header value.
func businessID(r *http.Request) []string {
	vs := r.Header[businessIDKey]
	if len(vs) == 0 {
		return nil
	}
	v := vs[0]
	if len(v) == 0 || len(v) > 128 {
		return nil
	}
	for i := 0; i < len(v); i++ {
		if v[i] < 0x21 || v[i] > 0x7e {
			return nil
		}
	}
	return vs[:1:1]
}

// nosniff is the X-Content-Type-Options header value of every answer.
var nosniff = []string{"nosniff"}

// logRequests writes one structured line per request and sets the headers that
// every response carries. The line names the caller by its address (as
// remoteAddr finds it) and its User-Agent.
//
// Requests that the mux served carry their route (see routed); for the others
// (refused before the mux by a limit, or answered 404 or 405 by the mux
// itself) routeOf finds the pattern that would have served them.
func logRequests(log *slog.Logger, now func() time.Time, ids *requestIDs, m Recorder, routeOf, remoteAddr func(*http.Request) string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := now()
			e := &entry{Context: r.Context(), start: start, id: ids.next()}
			e.idHeader[0] = e.id
			h := w.Header()
			h["X-Request-Id"] = e.idHeader[:]
			h["X-Content-Type-Options"] = nosniff
			bid := businessID(r)
			if bid != nil {
				h[businessIDKey] = bid
			}
			e.w.ResponseWriter = w
			sw := &e.w
			next.ServeHTTP(sw, r.WithContext(e))
			if sw.status == 0 {
				sw.status = http.StatusOK
			}
			d := now().Sub(start)
			route := e.route
			if route == "" {
				route = routeOf(r)
			}
			if route == "" {
				route = "unmatched"
			}
			if m != nil {
				m.ObserveRequest(route, sw.status, d)
			}
			lh := log.Handler()
			if !lh.Enabled(r.Context(), slog.LevelInfo) {
				return
			}
			if j, ok := lh.(*jsonLog); ok && j.writeRequestLine(start.Add(d), r, e, route, d, remoteAddr(r), bid) {
				return
			}
			var buf [16]slog.Attr // enough for the line's own and a handler's few
			attrs := requestAttrs(buf[:0], r, e, route, &e.w, d, remoteAddr(r), bid)
			logRecord(r.Context(), lh, start.Add(d), slog.LevelInfo, "request", attrs)
		})
	}
}

// requestAttrs appends the attributes of r's log line to attrs.
func requestAttrs(attrs []slog.Attr, r *http.Request, e *entry, route string, sw *statusWriter, d time.Duration, remoteAddr string, bid []string) []slog.Attr {
	attrs = append(attrs,
		slog.String("req_id", e.id),
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.String("route", route),
		slog.Int("status", sw.status),
		slog.Float64("duration_ms", float64(d.Microseconds())/1000),
		slog.Int("bytes", sw.bytes),
		slog.String("remote_addr", remoteAddr),
	)
	if ua := userAgent(r); ua != "" {
		attrs = append(attrs, slog.String("user_agent", ua))
	}
	if e.clientID != "" {
		attrs = append(attrs, slog.String("client_id", e.clientID))
	}
	if bid != nil {
		attrs = append(attrs, slog.String("business_id", bid[0]))
	}
	return append(attrs, e.extra...)
}

// recoverPanics turns a panic in a handler into a 500 with the result envelope
// instead of a dropped connection, and logs it.
func recoverPanics(log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				if v := recover(); v != nil {
					if v == http.ErrAbortHandler {
						panic(v)
					}
					writeError(w, r, log, fmt.Errorf("panic: %v", v))
				}
			}()
			next.ServeHTTP(w, r)
		})
	}
}
