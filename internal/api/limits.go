package api

import (
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// maxRequestBody bounds what any handler can read from a request body. The
// API's only body is the token form, which auth bounds more tightly; this is
// the ceiling for everything else, present and future.
const maxRequestBody = 64 << 10

// Recorder receives request metrics; *metrics.Metrics implements it.
type Recorder interface {
	// ObserveRequest records an answered request by route pattern.
	ObserveRequest(route string, status int, d time.Duration)
	// InFlight adds delta to the number of requests being served.
	InFlight(delta int)
	// RateLimited counts a 429 from a rate limit ("data" for data endpoints).
	RateLimited(endpoint string)
}

// Limiter decides whether a key may make a request now; *limit.Limiter
// implements it.
type Limiter interface {
	Allow(key string) (retryAfter time.Duration, ok bool)
}

// retryAfter formats a wait for the Retry-After header: whole seconds,
// rounded up, at least 1, so that a client that honours it is not refused again.
func retryAfter(d time.Duration) string {
	return strconv.FormatInt(max(int64((d+time.Second-1)/time.Second), 1), 10)
}

// limitClient refuses the authenticated client's call to dataset when it
// is over its plan (Plans, limitByPlan) or, without one, RateLimit. It
// runs after bearer authentication, so the key is a registered client ID,
// whose number the registry bounds.
func limitClient(o Options, dataset string, next http.Handler) http.Handler {
	if o.Limits.Plans != nil {
		return limitByPlan(o, dataset, func(h http.Handler) http.Handler { return limitRate(o, h) }, next)
	}
	return limitRate(o, next)
}

// limitRate applies RateLimit, the same for every client.
func limitRate(o Options, next http.Handler) http.Handler {
	if o.Limits.RateLimit == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		wait, ok := o.Limits.RateLimit.Allow(clientOf(r))
		if !ok {
			if o.Observability.Metrics != nil {
				o.Observability.Metrics.RateLimited("data")
			}
			if o.Limits.RateLimitStyle == PublicRateLimit {
				writeOverQps(w, "")
				return
			}
			secs := retryAfter(wait)
			w.Header().Set("Retry-After", secs)
			writeError(w, r, o.Log, energy.Errorf(tooMany, "Too many requests from this client: retry after %s s", secs))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// guardRequests bounds what one request and all requests together can take:
// the number served at once and waiting, the time each may run and the body
// each may send.
func guardRequests(o Options) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		next = limitBody(next)
		next = withDeadline(o.Log, o.Limits.RequestTimeout)(next)
		return limitInFlight(o)(next)
	}
}

// limitBody caps every request body at maxRequestBody.
func limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = http.MaxBytesReader(w, r.Body, maxRequestBody)
		}
		next.ServeHTTP(w, r)
	})
}

// limitInFlight serves at most o.Limits.MaxInFlight requests at once (0: no bound).
// Others wait, parked, in a queue of at most o.Limits.MaxQueue for at most
// o.Limits.QueueTimeout counted from when the request reached the outermost
// handler; the queue turns LIFO and sheds its oldest waiters while CoDel's
// rule (o.Limits.QueueTarget) says it is standing. A request that cannot get a slot
// is answered 503 with Retry-After at once: under overload a refusal costs a
// few hundred bytes, and the requests served keep a bounded latency because
// the CPU is not shared among every connection's goroutine. A request that
// turns to the store gives its slot up (see StoreClass).
func limitInFlight(o Options) func(http.Handler) http.Handler {
	a := o.admission
	if a == nil {
		a = newAdmission(admissionConfig{Slots: o.Limits.MaxInFlight, MaxQueue: o.Limits.MaxQueue, Timeout: o.Limits.QueueTimeout, Target: o.Limits.QueueTarget}, o.Now)
		a.schedDelay = newSchedLatency(0.9, codelInterval/4).estimate
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			arrived := o.Now()
			if e := entryFrom(r.Context()); e != nil {
				arrived = e.start
			}
			if got := a.acquire(r.Context(), arrived); got != admitted {
				secs := a.retryAfter(got)
				writeUnavailable(w, r, o.Log, secs, "The server is busy: retry after "+secs+" s")
				return
			}
			if o.Observability.Metrics != nil {
				o.Observability.Metrics.InFlight(1)
			}
			// The slot may pass to the store class meanwhile (StoreClass);
			// the ticket knows which to give back.
			t := ticketFrom(r.Context())
			if t == nil {
				t = &ticket{} // outside NewServer: no store class to pass to
			}
			t.hold(a)
			defer func() {
				t.release()
				if o.Observability.Metrics != nil {
					o.Observability.Metrics.InFlight(-1)
				}
			}()
			next.ServeHTTP(w, r)
		})
	}
}

// RemoteAddr returns how the server identifies a caller's address: for the
// request log, the failed-authentication limit, registrations per address
// and update streams per address. By default that is the connection's peer.
// Behind a reverse proxy every peer is the proxy, so with trustProxy the
// address is the last entry of X-Forwarded-For that parses: the one the
// proxy itself appended, which a client cannot forge (entries before it
// can be). Only set trustProxy when a proxy that appends X-Forwarded-For is
// the sole way in. A request with no entry that parses (a health check
// from the proxy itself, or one that went around it) gets its peer: the
// caller the server can see.
func RemoteAddr(trustProxy bool) func(*http.Request) string {
	return func(r *http.Request) string {
		if trustProxy {
			if a, ok := forwardedFor(r.Header.Values("X-Forwarded-For")); ok {
				return a.String()
			}
		}
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			return r.RemoteAddr
		}
		return host
	}
}

// forwardedFor returns the last address of the X-Forwarded-For header
// lines values that parses (forwardedAddr), reading from the last entry
// backwards, or false if none does. An entry that does not parse is
// skipped: falling back to the peer, the proxy, would put every user
// behind it in one bucket of every per-address limit.
func forwardedFor(values []string) (netip.Addr, bool) {
	for i := len(values) - 1; i >= 0; i-- {
		v := values[i]
		for {
			j := strings.LastIndexByte(v, ',')
			if a, ok := forwardedAddr(v[j+1:]); ok {
				return a, true
			}
			if j < 0 {
				break
			}
			v = v[:j]
		}
	}
	return netip.Addr{}, false
}

// forwardedAddr parses one X-Forwarded-For entry: an IP address, with or
// without a port (10.6.0.1:1, [2001:db8::1]:443) or brackets. An
// IPv4-mapped IPv6 address is its IPv4 address; a zone is dropped.
func forwardedAddr(entry string) (netip.Addr, bool) {
	entry = strings.TrimSpace(entry)
	if ap, err := netip.ParseAddrPort(entry); err == nil {
		return ap.Addr().Unmap().WithZone(""), true
	}
	if len(entry) > 2 && entry[0] == '[' && entry[len(entry)-1] == ']' {
		entry = entry[1 : len(entry)-1]
	}
	a, err := netip.ParseAddr(entry)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap().WithZone(""), true
}
