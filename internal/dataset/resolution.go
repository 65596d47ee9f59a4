package dataset

import (
	"encoding/binary"
	"math"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// Aggregation is how a field's values within a time bucket become one.
// Values that are missing (NaN, or an empty text) are left out; a bucket
// with none has none.
type Aggregation int

// Aggregations.
const (
	// Mean is the arithmetic mean: power, prices, levels.
	Mean Aggregation = iota + 1
	// Sum adds the values up: energy, quantities, costs, counts.
	Sum
	// Max is the greatest value: requirements, the latest of dates.
	Max
	// Min is the least value: limits and margins that hold throughout.
	Min
)

// Aggregations lists every aggregation, for documentation and tests.
var Aggregations = []Aggregation{Mean, Sum, Max, Min}

func (a Aggregation) String() string {
	switch a {
	case Mean:
		return "mean"
	case Sum:
		return "sum"
	case Max:
		return "max"
	case Min:
		return "min"
	}
	return ""
}

// ISO returns the grain as an ISO 8601 duration, the resolution
// parameter's value: "PT15M", "PT1H", "P1D", "P1M" or "P1Y".
func (g Grain) ISO() string {
	switch g {
	case QuarterHour:
		return "PT15M"
	case Hour:
		return "PT1H"
	case Day:
		return "P1D"
	case Month:
		return "P1M"
	case Year:
		return "P1Y"
	}
	return ""
}

// resolutionParam is the parameter the machinery adds to every time series.
var resolutionParam = Param{Name: "resolution", Kind: ResolutionParam,
	Doc: "An ISO 8601 duration, PT15M, PT1H, P1D or P1M, no finer than the records: each field aggregated over the time buckets (days and months of the Europe/Rome calendar), records dated at their bucket's start. The answer's X-Resolution header repeats it."}

// TimeSeries reports whether d is a time series, finer than a month: the
// datasets that take resolution.
func (d *Dataset) TimeSeries() bool { return d.Grain < Month }

// Resolutions returns the resolutions d can be answered at, finest first:
// its finest grain (FinestGrain) and each coarser one up to a month; none
// for a dataset that is no time series or cannot be aggregated
// (ResolutionRefusal).
func (d *Dataset) Resolutions() []Grain {
	if d.ResolutionRefusal() != "" {
		return nil
	}
	var out []Grain
	for g := d.FinestGrain(); g <= Month; g++ {
		out = append(out, g)
	}
	return out
}

// ResolutionRefusal says why d cannot be answered at another resolution;
// empty when it can.
func (d *Dataset) ResolutionRefusal() string {
	switch {
	case !d.TimeSeries():
		return d.Name + " is not a time series"
	case d.NoResolution != "":
		return d.NoResolution
	}
	for _, f := range d.Fields {
		if f.Kind == Number && f.Agg == 0 {
			return "its field " + f.Name + " declares no aggregation"
		}
	}
	return ""
}

// resolution reads the ResolutionParam.
func (qp *queryParser) resolution(p Param) error {
	s, err := single(qp.params, p.Name, false)
	if err != nil || s == "" {
		return err
	}
	d := qp.q.Dataset
	if why := d.ResolutionRefusal(); why != "" {
		return energy.Errorf(energy.Invalid, "parameter %s: %s cannot be aggregated over time: %s", p.Name, d.Name, why)
	}
	var g Grain
	for c := QuarterHour; c <= Month; c++ {
		if strings.EqualFold(s, c.ISO()) {
			g = c
		}
	}
	// A record cannot be split: on a day of hourly records (before a
	// grain change) PT15M is refused, not answered with hours.
	lo, hi := qp.q.period()
	_, coarsest := d.grainsIn(lo, hi)
	switch {
	case g == 0:
		return energy.Errorf(energy.Invalid, "parameter %s value %q is not one of PT15M, PT1H, P1D, P1M", p.Name, s)
	case g < coarsest:
		return energy.Errorf(energy.Invalid, "parameter %s value %q is finer than the records of %s (%s)%s", p.Name, s, d.Name, coarsest.ISO(), grainChangeNote(d, g))
	case !qp.q.ChangedSince.IsZero():
		return energy.Errorf(energy.Invalid, "parameter %s cannot be combined with changedSince: a bucket would aggregate only the records changed", p.Name)
	}
	qp.q.Resolution = g
	qp.key.WriteString("|res=" + g.ISO())
	return nil
}

// aggregates reports whether q's answer aggregates records: whether some
// of the records its period holds are finer than its resolution.
func (q *Query) aggregates() bool {
	if q.Resolution == 0 {
		return false
	}
	finest, _ := q.Dataset.grainsIn(q.period())
	return q.Resolution > finest
}

// grainChangeNote names the day from which d's records come at g or finer,
// for the refusal of a resolution g on days before it; empty when none.
func grainChangeNote(d *Dataset, g Grain) string {
	for _, c := range d.GrainChanges {
		if c.Grain <= g {
			return " before " + c.From.DMY() + "; ask for the days from " + c.From.DMY() + " on"
		}
	}
	return ""
}

// bucket returns the start of the time bucket of grain g that holds t,
// Unix seconds: quarter hours and hours in absolute time (Europe/Rome's
// offsets are whole hours), days and months on its calendar, a day of 23
// or 25 hours when the clocks change.
func bucket(t int64, g Grain) int64 {
	switch g {
	case QuarterHour:
		return t - ((t%900)+900)%900
	case Hour:
		return t - ((t%3600)+3600)%3600
	}
	day := energy.DateOf(time.Unix(t, 0))
	if g == Month {
		day.Day = 1
	}
	return day.Start().Unix()
}

// aggregate returns the records of p that q selects, one per time bucket
// of q.Resolution and group: the values of the Text fields that declare
// no aggregation. Each other field is aggregated as it declares; a
// record's publication is its bucket's earliest, its revision the latest.
func (c *Catalog) aggregate(q *Query, p *Part) *Part {
	d := q.Dataset
	l := c.layoutOf(d)
	textAgg, numAgg := make([]Aggregation, l.NText), make([]Aggregation, l.NNum)
	for fi, f := range d.Fields {
		if t := l.text[fi]; t >= 0 {
			textAgg[t] = f.Agg
		}
		if n := l.num[fi]; n >= 0 {
			numAgg[n] = f.Agg
		}
	}
	groups := map[string]*bucketAcc{}
	var accs []*bucketAcc
	var key []byte
	eachIn([]*Part{p}, q, func(p *Part, i int) {
		b := bucket(p.Time(i), q.Resolution)
		key = binary.AppendVarint(key[:0], b)
		for t, a := range textAgg {
			if a == 0 {
				key = binary.AppendUvarint(key, uint64(p.code(t, i)))
			}
		}
		acc := groups[string(key)]
		if acc == nil {
			acc = newBucketAcc(b, p, i, l)
			groups[string(key)] = acc
			accs = append(accs, acc)
		}
		acc.add(p, i, textAgg, numAgg)
	})
	rows := make([]Row, len(accs))
	for k, acc := range accs {
		rows[k] = acc.row(numAgg)
	}
	out := BuildPart(l, p.ID, rows)
	out.Version, out.Written = p.Version, p.Written
	return out
}

// bucketAcc accumulates one bucket's records of one group.
type bucketAcc struct {
	r Row
	n []int // the values counted, by Number field
}

func newBucketAcc(b int64, p *Part, i int, l *Layout) *bucketAcc {
	acc := &bucketAcc{r: Row{Time: b, Text: make([]string, l.NText), Num: make([]float64, l.NNum), Pub: p.Published(i), Rev: p.Revised(i)}, n: make([]int, l.NNum)}
	for t := range acc.r.Text {
		acc.r.Text[t] = p.Text(t, i)
	}
	for n := range acc.r.Num {
		acc.r.Num[n] = math.NaN()
	}
	return acc
}

// add adds record i of p.
func (acc *bucketAcc) add(p *Part, i int, textAgg, numAgg []Aggregation) {
	acc.r.Pub, acc.r.Rev = min(acc.r.Pub, p.Published(i)), max(acc.r.Rev, p.Revised(i))
	for t, a := range textAgg {
		v, cur := p.Text(t, i), acc.r.Text[t]
		if v != "" && (cur == "" || a == Max && v > cur || a == Min && v < cur) {
			acc.r.Text[t] = v
		}
	}
	for n, a := range numAgg {
		v := p.Num(n, i)
		if math.IsNaN(v) {
			continue
		}
		cur := acc.r.Num[n]
		acc.n[n]++
		switch {
		case acc.n[n] == 1:
			acc.r.Num[n] = v
		case a == Mean || a == Sum:
			acc.r.Num[n] = cur + v
		case a == Max:
			acc.r.Num[n] = max(cur, v)
		case a == Min:
			acc.r.Num[n] = min(cur, v)
		}
	}
}

// row returns the bucket's record: means divided by their count.
func (acc *bucketAcc) row(numAgg []Aggregation) Row {
	for n, a := range numAgg {
		if a == Mean && acc.n[n] > 0 {
			acc.r.Num[n] /= float64(acc.n[n])
		}
	}
	return acc.r
}
