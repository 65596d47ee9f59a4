package demo

import (
	"math"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// transmissionHours returns every hour of the Europe/Rome days from to to,
// both included, as Unix seconds: the hours the demo transmission data
// cover.
func transmissionHours(from, to energy.Date) []int64 {
	var out []int64
	for u := from.Start().Unix(); u < to.End().Unix(); u += 3600 {
		out = append(out, u)
	}
	return out
}

// PhysicalForeignFlow writes each border's hourly physical flow
// (ForeignFlow) over the demo's range: import, export and net, MW.
func PhysicalForeignFlow(in dataset.DemoInput) []dataset.Row {
	return foreignRows(transmissionHours(in.First, in.Last), false)
}

// ScheduledForeignExchange writes each border's scheduled exchange: the
// physical flow plus a loop-flow difference of a few percent of the
// border's swing, rounded to the MW.
func ScheduledForeignExchange(in dataset.DemoInput) []dataset.Row {
	return foreignRows(transmissionHours(in.First, in.Last), true)
}

// foreignRows returns the physical flows across the borders, or the
// scheduled exchanges with each counterpart (energy.ExchangeCounterparts):
// a border's follow its flow; Corsica's, which no border carries, its
// own mean and swing (BorderMW).
func foreignRows(hours []int64, scheduled bool) []dataset.Row {
	borders := energy.Borders()
	width := 3
	if scheduled {
		borders, width = energy.ExchangeCounterparts(), 1
	}
	rows := make([]dataset.Row, 0, len(hours)*len(borders))
	nums := make([]float64, 0, len(hours)*len(borders)*width)
	for _, u := range hours {
		for k, c := range borders {
			n := len(nums)
			if scheduled {
				mean, swing := BorderMW(c)
				f := mean
				if c != energy.Corsica {
					f = ForeignFlow(k, u)
				}
				nums = append(nums, math.Round(f+0.08*swing*Noise(0x5c4e, u, int64(k))))
			} else {
				f := ForeignFlow(k, u)
				nums = append(nums, math.Max(f, 0), math.Max(-f, 0), f)
			}
			rows = append(rows, dataset.Row{Time: u, Text: []string{c}, Num: nums[n:len(nums):len(nums)]})
		}
	}
	return rows
}

// ZoneHours splits the demo's hourly generation over the bidding zones
// (SplitZones), with each zone's hourly load from the total-load demo.
func ZoneHours(in dataset.DemoInput) []ZoneHour {
	index := map[string]int{}
	for i, z := range biddingZones {
		index[string(z.Zone)] = i
	}
	demand := map[int64]*[7]float64{}
	for _, r := range in.From["total-load"] {
		i, ok := index[r.Text[0]]
		if !ok {
			continue
		}
		h := r.Time - r.Time%3600 // Europe/Rome offsets are whole hours
		d := demand[h]
		if d == nil {
			d = new([7]float64)
			demand[h] = d
		}
		d[i] += r.Num[0] / 4000 // a quarter hour's MW as GWh
	}
	gen := HourlyGeneration(in)
	out := make([]ZoneHour, 0, len(gen))
	for _, g := range gen {
		if d := demand[g.At]; d != nil {
			out = append(out, SplitZones(g, *d))
		}
	}
	return out
}

// PhysicalInternalFlow writes each zone link's physical flow from the
// zonal balance (ZoneHours), in its portal direction (energy.ZoneLinks),
// signed.
func PhysicalInternalFlow(in dataset.DemoInput) []dataset.Row { return internalRows(in, false) }

// ScheduledInternalExchange writes each zone link's scheduled exchange:
// the physical flow plus a market difference of a few percent, rounded to
// the MW.
func ScheduledInternalExchange(in dataset.DemoInput) []dataset.Row { return internalRows(in, true) }

func internalRows(in dataset.DemoInput, scheduled bool) []dataset.Row {
	links := energy.ZoneLinks()
	hours := ZoneHours(in)
	rows := make([]dataset.Row, 0, len(hours)*len(links))
	nums := make([]float64, 0, len(hours)*len(links))
	var names []string
	for _, l := range links {
		names = append(names, energy.FlowName(l[0], l[1]))
	}
	for _, z := range hours {
		for k := range links {
			v := z.Flows[k]
			if scheduled {
				v = math.Round(v * (1 + 0.04*Noise(0x5c1e, z.At, int64(k))))
			}
			n := len(nums)
			nums = append(nums, v)
			rows = append(rows, dataset.Row{Time: z.At, Text: names[k : k+1 : k+1], Num: nums[n : n+1 : n+1]})
		}
	}
	return rows
}
