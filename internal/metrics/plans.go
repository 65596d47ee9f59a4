package metrics

import (
	"github.com/energyapi/energyapi/internal/limit"
	"github.com/prometheus/client_golang/prometheus"
)

// PlanMetrics counts data calls by plan: those admitted and those refused,
// by the limit that refused them.
type PlanMetrics struct {
	calls    *prometheus.CounterVec
	refusals *prometheus.CounterVec
}

// Plans registers the per-plan counters in m's registry. A nil m gives a
// nil *PlanMetrics, which records nothing.
func (m *Metrics) Plans() (*PlanMetrics, error) {
	if m == nil {
		return nil, nil
	}
	p := &PlanMetrics{
		calls: counterVec("plan_calls_total",
			"Data calls admitted, by the client's plan.", "plan"),
		refusals: counterVec("plan_refusals_total",
			"Data calls refused by a plan's limit (over_qps: per second; over_rate: the daily quota), by plan.", "plan", "limit"),
	}
	for _, c := range []prometheus.Collector{p.calls, p.refusals} {
		if err := m.reg.Register(c); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Record counts one decision of a plan; it is limit.PlansConfig.Record.
func (p *PlanMetrics) Record(plan string, r limit.Refusal) {
	if p == nil {
		return
	}
	if r == limit.Admitted {
		p.calls.WithLabelValues(plan).Inc()
		return
	}
	p.refusals.WithLabelValues(plan, r.String()).Inc()
}
