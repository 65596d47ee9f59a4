package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// entry is what the request log learns while a request is served.
type entry struct {
	start    time.Time // when the request reached the outermost handler
	id       string
	clientID string
	route    string      // the pattern the mux matched; "" when none did
	extra    []slog.Attr // what handlers add (see addLogAttrs)
	// slots is what the request holds of the admission classes (see
	// limitInFlight and StoreClass); kept here, where every request has
	// its state already, so that holding it costs no allocation.
	slots ticket
}

type entryKey struct{}

func entryFrom(ctx context.Context) *entry {
	e, _ := ctx.Value(entryKey{}).(*entry)
	return e
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

func (g *requestIDs) next() string {
	return g.prefix + "-" + strconv.FormatUint(g.n.Add(1), 36)
}

// businessID returns the caller's businessID header when it is safe to echo
// and log: short printable ASCII, as the UUIDs clients send are.
func businessID(r *http.Request) string {
	v := r.Header.Get("businessID")
	if len(v) == 0 || len(v) > 128 {
		return ""
	}
	for i := 0; i < len(v); i++ {
		if v[i] < 0x21 || v[i] > 0x7e {
			return ""
		}
	}
	return v
}

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
			e := &entry{start: start, id: ids.next()}
			h := w.Header()
			h.Set("X-Request-Id", e.id)
			h.Set("X-Content-Type-Options", "nosniff")
			bid := businessID(r)
			if bid != "" {
				h.Set("businessID", bid)
			}
			sw := &statusWriter{ResponseWriter: w}
			next.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), entryKey{}, e)))
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
			// A record without a caller's PC: the log has no source field,
			// and finding the PC is a stack walk on every request.
			rec := slog.NewRecord(start.Add(d), slog.LevelInfo, "request", 0)
			rec.AddAttrs(
				slog.String("req_id", e.id),
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.String("route", route),
				slog.Int("status", sw.status),
				slog.Float64("duration_ms", float64(d.Microseconds())/1000),
				slog.Int("bytes", sw.bytes),
				slog.String("remote_addr", remoteAddr(r)),
			)
			if ua := userAgent(r); ua != "" {
				rec.AddAttrs(slog.String("user_agent", ua))
			}
			if e.clientID != "" {
				rec.AddAttrs(slog.String("client_id", e.clientID))
			}
			if bid != "" {
				rec.AddAttrs(slog.String("business_id", bid))
			}
			rec.AddAttrs(e.extra...)
			_ = lh.Handle(r.Context(), rec)
		})
	}
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
