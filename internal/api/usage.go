package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/limit"
)

// The public gateway's answers to a key over one of its limits (catalogue
// 4.3): HTML pages, not the result envelope, and its error code in a header.
const (
	gatewayErrorHeader = "X-Mashery-Error-Code"
	overQpsPage        = "<h1>Developer Over Qps</h1>"
	overRatePage       = "<h1>Developer Over Rate</h1>"
	overQpsCode        = "ERR_403_DEVELOPER_OVER_QPS"
	overRateCode       = "ERR_403_DEVELOPER_OVER_RATE"
)

// maxRangeDays is the longest date range the request's client may ask
// for: its plan's, when the plan sets one, else the server's.
func maxRangeDays(o Options, r *http.Request) int {
	if days := planRangeDays(o, r); days > 0 {
		return days
	}
	return o.Data.MaxRangeDays
}

// planRangeDays is the longest range the client's plan allows, 0 for no
// bound of its own: the bound of a paged request, which the server's and
// the datasets' bounds do not limit.
func planRangeDays(o Options, r *http.Request) int {
	if o.Limits.Plans != nil {
		if pl, ok := o.Limits.Plans.PlanOf(clientOf(r)); ok && pl.MaxRangeDays > 0 {
			return pl.MaxRangeDays
		}
	}
	return 0
}

// limitByPlan applies the client's plan to its calls to dataset, and
// counts those admitted; a client without a plan meets fallback (the
// server's plain rate limit) instead. In the standard style every answer
// to a client with a plan carries the plan's RateLimit headers.
func limitByPlan(o Options, dataset string, fallback func(http.Handler) http.Handler, next http.Handler) http.Handler {
	counted := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.Limits.Plans.Count(clientOf(r), dataset)
		next.ServeHTTP(w, r)
	})
	plain := fallback(counted)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d := o.Limits.Plans.Admit(r.Context(), clientOf(r), dataset)
		if !d.HasPlan {
			plain.ServeHTTP(w, r)
			return
		}
		answerPlan(o, w, r, d, next)
	})
}

// paceByPlan applies only the per-second limit of the client's plan to a
// call that is no data call (GET /usage): it uses no quota and is not
// counted. A client without a plan meets the server's plain rate limit.
func paceByPlan(o Options, next http.Handler) http.Handler {
	plain := limitRate(o, next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d := o.Limits.Plans.Pace(clientOf(r))
		if !d.HasPlan {
			plain.ServeHTTP(w, r)
			return
		}
		answerPlan(o, w, r, d, next)
	})
}

// paceClient is paceByPlan for a handler that authenticates its client
// itself (the developer's page): it applies the client's per-second limit
// and reports whether the call may go on, having answered a refusal.
func paceClient(o Options) func(http.ResponseWriter, *http.Request, string) bool {
	return func(w http.ResponseWriter, r *http.Request, clientID string) bool {
		recordClient(r, clientID)
		passed := false
		next := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { passed = true })
		if o.Limits.Plans == nil {
			limitRate(o, next).ServeHTTP(w, r)
		} else {
			paceByPlan(o, next).ServeHTTP(w, r)
		}
		return passed
	}
}

// answerPlan passes a call the plan admitted to next, or answers its
// refusal in the style configured.
func answerPlan(o Options, w http.ResponseWriter, r *http.Request, d limit.Decision, next http.Handler) {
	public := o.Limits.RateLimitStyle == PublicRateLimit
	if !public {
		setRateLimitHeaders(w.Header(), d, requestDate(o, r))
	}
	if d.Refused == limit.Admitted {
		next.ServeHTTP(w, r)
		return
	}
	if o.Observability.Metrics != nil {
		o.Observability.Metrics.RateLimited("data")
	}
	switch {
	case public && d.Refused == limit.OverQps:
		w.Header().Set("Retry-After", "1")
		writeGatewayPage(w, overQpsCode, overQpsPage)
	case public:
		writeGatewayPage(w, overRateCode, overRatePage)
	case d.Refused == limit.OverQps:
		secs := retryAfter(d.RetryAfter)
		w.Header().Set("Retry-After", secs)
		writeError(w, r, o.Log, energy.Errorf(tooMany, "Too many requests from this client: retry after %s s", secs))
	default:
		secs := retryAfter(d.RetryAfter)
		w.Header().Set("Retry-After", secs)
		writeError(w, r, o.Log, energy.Errorf(tooMany, "Daily quota of %d calls used: it starts again at %s, in %s s",
			d.Plan.PerDay, d.Reset.Format(time.RFC3339), secs))
	}
}

// writeGatewayPage answers 403 as the public gateway does.
func writeGatewayPage(w http.ResponseWriter, code, page string) {
	w.Header().Set(gatewayErrorHeader, code)
	writeBodyAs(w, "text/html", http.StatusForbidden, []byte(page))
}

// setRateLimitHeaders sets the RateLimit-Policy and RateLimit fields of
// draft-ietf-httpapi-ratelimit-headers: a policy per limit of the plan
// (q calls in w seconds), and for each what is left (r) and the seconds
// until it is back (t), each limit's own. The state of a limit not known
// here (the day's, on a per-second refusal before any claim of the day)
// is left out rather than guessed.
func setRateLimitHeaders(h http.Header, d limit.Decision, now time.Time) {
	var policy, state []byte
	add := func(name string, q, w int, r int64, t time.Duration) {
		if len(policy) > 0 {
			policy = append(policy, ", "...)
		}
		policy = append(policy, `"`+name+`";q=`+strconv.Itoa(q)+`;w=`+strconv.Itoa(w)...)
		if r < 0 {
			return
		}
		if len(state) > 0 {
			state = append(state, ", "...)
		}
		state = append(state, `"`+name+`";r=`+strconv.FormatInt(r, 10)+`;t=`+strconv.FormatInt(int64((t+time.Second-1)/time.Second), 10)...)
	}
	if d.Plan.PerSecond > 0 {
		add("second", d.Plan.PerSecond, 1, int64(max(d.SecondLeft, 0)), d.SecondReset)
	}
	if d.Plan.PerDay > 0 {
		add("day", d.Plan.PerDay, 86400, d.DayLeft, d.Reset.Sub(now))
	}
	if len(policy) > 0 {
		h.Set("RateLimit-Policy", string(policy))
	}
	if len(state) > 0 {
		h.Set("RateLimit", string(state))
	}
}

// usageResponse is the body of GET /usage.
type usageResponse struct {
	ClientID string         `json:"client_id"`
	Plan     string         `json:"plan"`
	Today    usageToday     `json:"today"`
	Datasets []usageDataset `json:"datasets"`
	Days     []usageDay     `json:"days"`
}

type usageToday struct {
	Date      string `json:"date"`
	Calls     int64  `json:"calls"`
	Limit     *int64 `json:"limit"`
	Remaining *int64 `json:"remaining"`
	ResetsAt  string `json:"resets_at"`
}

type usageDataset struct {
	Dataset string `json:"dataset"`
	Calls   int64  `json:"calls"`
}

type usageDay struct {
	Date  string `json:"date"`
	Calls int64  `json:"calls"`
}

// handleUsage answers a client, with its token, its own usage.
func handleUsage(o Options) http.Handler {
	fail := func(w http.ResponseWriter, r *http.Request, err error) { writeError(w, r, o.Log, err) }
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, err := o.Limits.Plans.Usage(r.Context(), clientOf(r), limit.UsageDays)
		if err != nil {
			writeError(w, r, o.Log, err)
			return
		}
		resp := usageResponse{ClientID: u.ClientID, Plan: u.Plan, Datasets: []usageDataset{}, Days: []usageDay{},
			Today: usageToday{Date: u.Today, Calls: u.Calls, ResetsAt: u.Reset.Format(time.RFC3339)}}
		if u.Limit >= 0 {
			resp.Today.Limit, resp.Today.Remaining = &u.Limit, &u.Remaining
		}
		for _, d := range u.Datasets {
			resp.Datasets = append(resp.Datasets, usageDataset{Dataset: d.Dataset, Calls: d.Calls})
		}
		for _, d := range u.Days {
			resp.Days = append(resp.Days, usageDay{Date: d.Day, Calls: d.Calls})
		}
		w.Header().Set("Cache-Control", "no-store")
		encode(w, http.StatusOK, resp)
	})
	// From memory (Plans.Usage), under the client's per-second limit: no
	// store call, however many ask.
	return auth.RequireBearerRecorded(o.Auth.Tokens, fail, recordClient)(paceByPlan(o, h))
}

// handleExhaustQuota is the sandbox's admin call that uses up a client's
// daily quota at once: POST /sandbox/quota {"client_id": "..."}.
func handleExhaustQuota(o Options) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ClientID string `json:"client_id"`
		}
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil || req.ClientID == "" {
			writeError(w, r, o.Log, energy.Errorf(energy.Invalid, `want {"client_id": "..."}`))
			return
		}
		if o.Limits.Plans == nil {
			writeError(w, r, o.Log, energy.Errorf(energy.Invalid, "no plans are defined: serve --plans FILE"))
			return
		}
		if err := o.Limits.Plans.Exhaust(r.Context(), req.ClientID); err != nil {
			writeError(w, r, o.Log, energy.Errorf(energy.Invalid, "client %q: %s", req.ClientID, err.Error()))
			return
		}
		u, err := o.Limits.Plans.Usage(r.Context(), req.ClientID, 1)
		if err != nil {
			writeError(w, r, o.Log, err)
			return
		}
		encode(w, http.StatusOK, map[string]any{"client_id": req.ClientID, "date": u.Today, "remaining": u.Remaining})
	}
}
