package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/sandbox"
)

// RateLimitStyle is how the data rate limit answers a client over it.
type RateLimitStyle string

// Rate limit styles.
const (
	// StandardRateLimit answers 429 with Retry-After in the result envelope.
	StandardRateLimit RateLimitStyle = "standard"
	// PublicRateLimit answers as the public deployment's gateway does:
	// 403 with the body "Developer Over Qps" and no Retry-After.
	PublicRateLimit RateLimitStyle = "public"
)

// writeOverQps answers as the public deployment's gateway answers a key
// over its request rate; body "" is its usual body.
func writeOverQps(w http.ResponseWriter, body string) {
	if body == "" {
		body = sandbox.OverQpsBody
	}
	writeBodyAs(w, "text/plain; charset=utf-8", http.StatusForbidden, []byte(body))
}

// journalWait bounds how long a read of the journal waits for requests whose
// answer has begun to be recorded.
const journalWait = 2 * time.Second

// journalWriter learns the status and size of an answer for the journal.
type journalWriter struct {
	http.ResponseWriter
	rec    *sandbox.Record
	status int
	bytes  int
}

func (w *journalWriter) WriteHeader(code int) {
	if w.status == 0 && code >= 200 {
		w.status = code
		w.rec.Answering()
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *journalWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
		w.rec.Answering()
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the connection.
func (w *journalWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// faultKey carries, from injectFaults out to journaled, the fault a request got.
type faultKey struct{}

// journaled records each request to next in the sandbox journal: dataset
// is its dataset's name, "" for the token endpoint. A request whose
// connection a fault dropped is recorded too, with status 0.
func journaled(o Options, dataset string, next http.Handler) http.Handler {
	if o.Sandbox.Box == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := o.Sandbox.Box.Journal.Start()
		jw := &journalWriter{ResponseWriter: w, rec: rec}
		var fault *sandbox.FaultNote
		r = r.WithContext(context.WithValue(r.Context(), faultKey{}, &fault))
		defer func() {
			client := ""
			if e := entryFrom(r.Context()); e != nil {
				client = e.clientID
			}
			if client == "" && dataset == "" && r.PostForm != nil {
				client = r.PostForm.Get("client_id") // a refused token request
			}
			// A fault that drops the connection panics with
			// http.ErrAbortHandler; the status is then what was sent, 0
			// for nothing.
			if v := recover(); v != nil {
				defer panic(v)
			}
			rec.Done(sandbox.Entry{
				ClientID: client, Method: r.Method, Path: r.URL.Path, Dataset: dataset,
				Query: orderedQuery(r.URL.RawQuery), Headers: journalHeaders(r.Header),
				Status: jw.status, Bytes: jw.bytes, Fault: fault,
			})
		}()
		next.ServeHTTP(jw, r)
	})
}

// secretParams are query parameters whose values the journal never keeps:
// a client of the older API versions sends its token in the query string.
var secretParams = map[string]bool{"access_token": true, "client_secret": true, "token": true}

// orderedQuery returns the query's parameters in the order sent.
func orderedQuery(raw string) [][2]string {
	out := [][2]string{}
	for part := range strings.SplitSeq(raw, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		if uk, err := url.QueryUnescape(k); err == nil {
			k = uk
		}
		if uv, err := url.QueryUnescape(v); err == nil {
			v = uv
		}
		if secretParams[strings.ToLower(k)] {
			v = "[redacted]"
		}
		out = append(out, [2]string{k, v})
	}
	return out
}

// journalHeaders returns the request headers a client's test may assert
// on. Authorization keeps only its scheme; x-api-key only its presence.
func journalHeaders(h http.Header) map[string]string {
	out := map[string]string{}
	for _, name := range []string{"Accept", "Content-Type", "User-Agent", "businessID"} {
		if v := h.Get(name); v != "" {
			out[name] = v
		}
	}
	if v := h.Get("Authorization"); v != "" {
		scheme, _, ok := strings.Cut(strings.TrimSpace(v), " ")
		if ok {
			out["Authorization"] = scheme + " [redacted]"
		} else {
			out["Authorization"] = "[redacted]"
		}
	}
	if h.Get("x-api-key") != "" {
		out["x-api-key"] = "[redacted]"
	}
	return out
}

// injectFaults applies the sandbox's fault rules to requests to next, whose
// client clientOf names.
func injectFaults(o Options, dataset string, clientOf func(*http.Request) string, next http.Handler) http.Handler {
	if o.Sandbox.Box == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, ok := o.Sandbox.Box.Decide(sandbox.Request{Dataset: dataset, Path: r.URL.Path, ClientID: clientOf(r), Query: r.URL.Query()})
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		if note, _ := r.Context().Value(faultKey{}).(**sandbox.FaultNote); note != nil {
			*note = &sandbox.FaultNote{Rule: f.Rule, Action: f.Action.Describe(), DelayMS: float64(f.Delay.Microseconds()) / 1000}
		}
		applyFault(o, f, w, r, next)
	})
}

// gatewayPage is the page a reverse proxy answers 502 and 504 with.
func gatewayPage(status int) []byte {
	s := strconv.Itoa(status) + " " + http.StatusText(status)
	return []byte("<html>\r\n<head><title>" + s + "</title></head>\r\n<body>\r\n<center><h1>" + s + "</h1></center>\r\n</body>\r\n</html>\r\n")
}

func applyFault(o Options, f sandbox.Fault, w http.ResponseWriter, r *http.Request, next http.Handler) {
	a := f.Action
	switch a.Kind {
	case sandbox.Latency:
		t := time.NewTimer(f.Delay)
		defer t.Stop()
		select {
		case <-t.C:
			next.ServeHTTP(w, r)
		case <-r.Context().Done(): // the client went away, or the deadline answered
		}
	case sandbox.EmptyBody:
		writeEmpty(w)
	case sandbox.Drop:
		panic(http.ErrAbortHandler) // net/http closes the connection without an answer
	case sandbox.Truncate:
		buf := &bufferWriter{h: http.Header{}}
		next.ServeHTTP(buf, r)
		for k, vs := range buf.h {
			w.Header()[k] = vs
		}
		body := buf.body.Bytes()
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(cmpStatus(buf.status))
		_, _ = w.Write(body[:len(body)/2])
		_ = http.NewResponseController(w).Flush()
		panic(http.ErrAbortHandler) // the client reads a body shorter than announced
	case sandbox.Status:
		if a.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(a.RetryAfter))
		}
		switch {
		case a.Status == http.StatusForbidden:
			writeOverQps(w, a.Body)
		case a.Body != "":
			writeBodyAs(w, "text/plain; charset=utf-8", a.Status, []byte(a.Body))
		case a.Status == http.StatusTooManyRequests:
			writeError(w, r, o.Log, energy.Errorf(tooMany, "Too many requests from this client: retry after %s s", cmpRetry(a.RetryAfter)))
		case a.Status == http.StatusServiceUnavailable:
			// Not writeError, which adds a Retry-After the rule may leave out.
			encode(w, a.Status, errorResponse{Result: result{Message: "The server is busy: retry after " + cmpRetry(a.RetryAfter) + " s", Status: statusError}})
		case a.Status == http.StatusInternalServerError:
			encode(w, a.Status, errorResponse{Result: result{Message: "Information retrieval error", Status: statusError}})
		default: // 502, 504: the proxy in front of the API answers
			writeBodyAs(w, "text/html", a.Status, gatewayPage(a.Status))
		}
	}
}

func cmpStatus(s int) int {
	if s == 0 {
		return http.StatusOK
	}
	return s
}

func cmpRetry(s int) string {
	if s == 0 {
		return "1"
	}
	return strconv.Itoa(s)
}

// bufferWriter keeps a whole answer, for a fault that sends part of it.
type bufferWriter struct {
	h      http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferWriter) Header() http.Header { return b.h }
func (b *bufferWriter) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}
func (b *bufferWriter) Write(p []byte) (int, error) { return b.body.Write(p) }

// tokenClient names the client of a token request for the fault rules: the
// client_id of its form. It reads at most the token endpoint's body limit,
// and puts back what it read, so that the endpoint meets the same body and
// refuses one over its limit with 413, the sandbox on or off.
func tokenClient(r *http.Request) string {
	if r.Method != http.MethodPost || r.Body == nil || !strings.HasPrefix(strings.ToLower(r.Header.Get("Content-Type")), "application/x-www-form-urlencoded") {
		return ""
	}
	head, err := io.ReadAll(io.LimitReader(r.Body, auth.MaxTokenRequest+1))
	r.Body = replayBody{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
	if err != nil || len(head) > auth.MaxTokenRequest {
		return ""
	}
	form, err := url.ParseQuery(string(head))
	if err != nil {
		return ""
	}
	return form.Get("client_id")
}

// replayBody is a request body whose first bytes were read already and
// are read again.
type replayBody struct {
	io.Reader
	io.Closer
}

// maxRulesBody bounds a rules document posted to the admin endpoint.
const maxRulesBody = 1 << 20

// sandboxAdmin lets through to the sandbox's admin endpoints only callers
// that send the admin token as a Bearer token.
func sandboxAdmin(o Options) func(http.HandlerFunc) http.Handler {
	// The token endpoint's guard: guesses of the admin token count with
	// every other failed authentication from the address.
	guard := auth.Attempts{Guard: o.Auth.FailureGuard, Remote: o.Limits.RemoteAddr, LogAttrs: addLogAttrs}
	return func(h http.HandlerFunc) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch guard.Bearer(w, r, "wrong_admin_token", o.Sandbox.AdminToken) {
			case auth.BearerLimited:
				writeError(w, r, o.Log, energy.Errorf(tooMany, "%s", auth.TooManyFailures))
				return
			case auth.BearerRefused:
				w.Header().Set("WWW-Authenticate", `Bearer realm="energyapi-sandbox"`)
				writeError(w, r, o.Log, energy.Errorf(energy.Unauthorized, "The sandbox admin endpoints need the admin token: Authorization: Bearer <token>"))
				return
			}
			w.Header().Set("Cache-Control", "no-store")
			h(w, r)
		})
	}
}

func writeRules(w http.ResponseWriter, rules []sandbox.Rule) {
	encode(w, http.StatusOK, map[string]any{"rules": rules})
}

func writeClock(w http.ResponseWriter, sb *sandbox.Sandbox) {
	encode(w, http.StatusOK, map[string]any{"now": sb.Clock.Now().Format(time.RFC3339Nano), "fixed": sb.Clock.Fixed()})
}

// handleSandboxRules lists the fault rules.
func handleSandboxRules(sb *sandbox.Sandbox) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { writeRules(w, sb.Rules()) }
}

// handleSandboxAddRules adds the rules of the posted document and lists them.
func handleSandboxAddRules(o Options, sb *sandbox.Sandbox) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRulesBody))
		if err != nil {
			writeError(w, r, o.Log, energy.Errorf(energy.Invalid, "the rules document is larger than %d bytes", maxRulesBody))
			return
		}
		doc, err := sandbox.Parse("request body", b, func(name string) bool { return slices.Contains(o.Data.Catalog.Names(), name) })
		if err == nil {
			var added []sandbox.Rule
			if added, err = sb.Add(doc); err == nil {
				writeRules(w, added)
				return
			}
		}
		writeError(w, r, o.Log, energy.Errorf(energy.Invalid, "%s", err.Error()))
	}
}

// handleSandboxClearRules removes every fault rule.
func handleSandboxClearRules(sb *sandbox.Sandbox) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sb.Clear()
		w.WriteHeader(http.StatusNoContent)
	}
}

// handleSandboxRemoveRule removes the rule {id}.
func handleSandboxRemoveRule(o Options, sb *sandbox.Sandbox) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !sb.Remove(r.PathValue("id")) {
			writeError(w, r, o.Log, energy.Errorf(energy.NotFound, "no rule %q", r.PathValue("id")))
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}
}

// handleSandboxJournal lists the journal's entries, of one client_id if
// the query names one.
func handleSandboxJournal(o Options, sb *sandbox.Sandbox) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q, err := queryOf(r.URL.RawQuery)
		if err != nil {
			writeError(w, r, o.Log, err)
			return
		}
		encode(w, http.StatusOK, map[string]any{"entries": sb.Journal.Entries(q.Get("client_id"), journalWait)})
	}
}

// handleSandboxResetJournal empties the journal.
func handleSandboxResetJournal(sb *sandbox.Sandbox) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sb.Journal.Reset()
		w.WriteHeader(http.StatusNoContent)
	}
}

// handleSandboxClock tells the sandbox clock's time and whether it is fixed.
func handleSandboxClock(sb *sandbox.Sandbox) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { writeClock(w, sb) }
}

// handleSandboxSetClock fixes the sandbox clock at a time, or moves it on.
func handleSandboxSetClock(o Options, sb *sandbox.Sandbox) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Now     string `json:"now"`
			Advance string `json:"advance"`
		}
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil || (req.Now == "") == (req.Advance == "") || setClock(sb.Clock, req.Now, req.Advance) != nil {
			writeError(w, r, o.Log, energy.Errorf(energy.Invalid, `want {"now": "2025-06-30T12:00:00+02:00"} or {"advance": "90s"}`))
			return
		}
		writeClock(w, sb)
	}
}

// setClock fixes clock at now (RFC 3339), or moves it on by advance (a
// Go duration): exactly one of them is set.
func setClock(clock *sandbox.Clock, now, advance string) error {
	if now != "" {
		t, err := time.Parse(time.RFC3339, now)
		if err == nil {
			clock.Set(t)
		}
		return err
	}
	d, err := time.ParseDuration(advance)
	if err == nil {
		clock.Advance(d)
	}
	return err
}

// handleSandboxReleaseClock lets the sandbox clock run with the real time again.
func handleSandboxReleaseClock(sb *sandbox.Sandbox) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sb.Clock.Release()
		writeClock(w, sb)
	}
}
