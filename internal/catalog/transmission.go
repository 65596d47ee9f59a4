package catalog

import (
	"math"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// transmissionImport is the import of the transmission datasets: the API's
// field names as columns, numbers in the English format of the download
// section (decimal point, commas between thousands).
func transmissionImport(cols string) *dataset.ImportSpec {
	return &dataset.ImportSpec{EnglishNumbers: true,
		Formats: "CSV or XLSX with the columns " + cols + "; date as yyyy-mm-dd hh:mm:ss or dd/mm/yyyy hh:mm:ss (Europe/Rome), date_offset optional but needed in the repeated autumn hour; " +
			"numbers in the English format of the transmission downloads (1,234.5)"}
}

// TransmissionHours returns every hour of the Europe/Rome days from to to,
// both included, as Unix seconds: the hours the demo transmission data
// cover.
func TransmissionHours(from, to energy.Date) []int64 {
	var out []int64
	for u := from.Start().Unix(); u < to.End().Unix(); u += 3600 {
		out = append(out, u)
	}
	return out
}

// PhysicalForeignFlow is the hourly physical flow across each of Italy's
// borders.
func PhysicalForeignFlow() *dataset.Dataset {
	return &dataset.Dataset{
		Name: "physical-foreign-flow", Title: "Physical foreign flow",
		Source: dataset.Source{Ref: portal("transmission", "Physical_Foreign_Flow"), Confidence: "M", Guess: "The fields come from client L's summary of the page; hourly grain."},
		Doc:    "Hourly physical flow across each of Italy's borders, in MW: the import into Italy, the export out of it and the net flow (import less export).",
		Area:   "transmission", Version: "v2.0", Resource: "physical-foreign-flow",
		Array: "physical_foreign_flow", Message: dataset.MessageDates, Grain: dataset.Hour,
		Params: []dataset.Param{dates()},
		Fields: []dataset.Field{
			romeTime(),
			{Name: "country", Kind: dataset.Text, Ref: energy.BorderNames(), Doc: "The country across the border: France, Switzerland, Austria, Slovenia, Greece, Montenegro or Malta."},
			{Name: "import", Kind: dataset.Number, Format: dataset.PointFull, Doc: "Average flow into Italy over the hour, MW, never negative.", Min: 0, Max: 20000},
			{Name: "export", Kind: dataset.Number, Format: dataset.PointFull, Doc: "Average flow out of Italy over the hour, MW, never negative.", Min: 0, Max: 20000},
			{Name: "physical_foreign_flow_MW", Kind: dataset.Number, Format: dataset.PointFull, Doc: "Net flow into Italy, MW: import less export; negative when Italy exports.", Min: -20000, Max: 20000},
		},
		Demo: func(in dataset.DemoInput) []dataset.Row {
			return demoForeign(TransmissionHours(in.First, in.Last), false)
		},
		Import: transmissionImport("date, date_offset, country, import, export, physical_foreign_flow_MW"),
	}
}

// ScheduledForeignExchange is the hourly scheduled (traded) exchange
// across each of Italy's borders.
func ScheduledForeignExchange() *dataset.Dataset {
	return &dataset.Dataset{
		Name: "scheduled-foreign-exchange", Title: "Scheduled foreign exchange",
		Source: dataset.Source{Ref: portal("transmission", "Scheduled_Foreign_Exchange"), Confidence: "M", Guess: "The value fields were not seen: country and scheduled_foreign_exchange_MW follow the internal exchange."},
		Doc:    "Hourly exchange scheduled by the markets across each of Italy's borders, in MW, positive into Italy; data up to the day before.",
		Area:   "transmission", Version: "v2.0", Resource: "scheduled-foreign-exchange",
		Array: "scheduled_foreign_exchange", Message: dataset.MessageDates, Grain: dataset.Hour,
		Params: []dataset.Param{dates()},
		Fields: []dataset.Field{
			romeTime(),
			{Name: "country", Kind: dataset.Text, Ref: energy.BorderNames(), Doc: "The country across the border (as in physical-foreign-flow)."},
			{Name: "scheduled_foreign_exchange_MW", Kind: dataset.Number, Format: dataset.PointFull, Doc: "Scheduled net exchange into Italy, MW; negative when Italy exports. (Field name chosen by this server: the portal's was not seen.)", Min: -20000, Max: 20000},
		},
		Demo: func(in dataset.DemoInput) []dataset.Row {
			return demoForeign(TransmissionHours(in.First, in.Last), true)
		},
		Import: transmissionImport("date, date_offset, country, scheduled_foreign_exchange_MW"),
	}
}

// PhysicalInternalFlow is the hourly physical flow between bidding zones.
func PhysicalInternalFlow() *dataset.Dataset {
	return &dataset.Dataset{
		Name: "physical-internal-flow", Title: "Physical internal flow",
		Source: dataset.Source{Ref: portal("transmission", "Physical_Internal_Flow"), Confidence: "H", Guess: "Hourly grain."},
		Doc: "Hourly physical flow between neighbouring bidding zones, in MW, per directed zone pair (\"Centre-North -> North\"): " +
			"positive in the pair's direction, negative against it. Each link is given in one direction, the southern or island zone first, as the portal names it; " +
			"a file may name either direction.",
		Area: "transmission", Version: "v2.0", Resource: "physical-internal-flow",
		Array: "physical_internal_flow", Message: dataset.MessageDates, Grain: dataset.Hour,
		Params: []dataset.Param{dates()},
		Fields: []dataset.Field{
			romeTime(),
			{Name: "flow", Kind: dataset.Text, Ref: energy.FlowNames(), Doc: "Directed zone pair, \"FROM -> TO\"."},
			{Name: "physical_internal_flow_MW", Kind: dataset.Number, Format: dataset.PointFull, Doc: "Flow from FROM to TO, MW; negative when it runs the other way.", Min: -20000, Max: 20000},
		},
		Demo: func(in dataset.DemoInput) []dataset.Row {
			return demoInternal(in, false)
		},
		DemoFrom: []string{"total-load"},
		Import:   transmissionImport("date, date_offset, flow, physical_internal_flow_MW"),
	}
}

// ScheduledInternalExchange is the hourly scheduled exchange between
// bidding zones.
func ScheduledInternalExchange() *dataset.Dataset {
	return &dataset.Dataset{
		Name: "scheduled-internal-exchange", Title: "Scheduled internal exchange",
		Source: dataset.Source{Ref: portal("transmission", "Scheduled_Internal_Exchange"), Confidence: "H"},
		Doc: "Hourly exchange scheduled by the markets between neighbouring bidding zones, in MW, per directed zone pair " +
			"(as in physical-internal-flow), each link in one direction, positive in the pair's direction.",
		Area: "transmission", Version: "v2.0", Resource: "scheduled-internal-exchange",
		Array: "scheduled_internal_exchange", Message: dataset.MessageDates, Grain: dataset.Hour,
		Params: []dataset.Param{dates()},
		Fields: []dataset.Field{
			romeTime(),
			{Name: "flow", Kind: dataset.Text, Ref: energy.FlowNames(), Doc: "Directed zone pair, \"FROM -> TO\"."},
			{Name: "scheduled_internal_exchange_MW", Kind: dataset.Number, Format: dataset.PointFull, Doc: "Scheduled exchange from FROM to TO, MW; negative when it runs the other way. (Field name chosen by this server: the portal's was not seen.)", Min: -20000, Max: 20000},
		},
		Demo: func(in dataset.DemoInput) []dataset.Row {
			return demoInternal(in, true)
		},
		DemoFrom: []string{"total-load"},
		Import:   transmissionImport("date, date_offset, flow, scheduled_internal_exchange_MW"),
	}
}

// demoForeign writes the physical flows, or with scheduled the scheduled
// exchanges: the physical flow plus a loop-flow difference of a few
// percent of the border's swing, rounded to the MW.
func demoForeign(hours []int64, scheduled bool) []dataset.Row {
	borders := energy.Borders()
	width := 3
	if scheduled {
		width = 1
	}
	rows := make([]dataset.Row, 0, len(hours)*len(borders))
	nums := make([]float64, 0, len(hours)*len(borders)*width)
	for _, u := range hours {
		for k, c := range borders {
			f := demo.ForeignFlow(k, u)
			n := len(nums)
			if scheduled {
				_, swing := demo.BorderMW(c)
				nums = append(nums, math.Round(f+0.08*swing*demo.Noise(0x5c4e, u, int64(k))))
			} else {
				nums = append(nums, math.Max(f, 0), math.Max(-f, 0), f)
			}
			rows = append(rows, dataset.Row{Time: u, Text: []string{c}, Num: nums[n:len(nums):len(nums)]})
		}
	}
	return rows
}

// demoZones splits the demo's hourly generation over the bidding zones
// (demo.SplitZones), with each zone's hourly load from the total-load
// demo.
func demoZones(in dataset.DemoInput) []demo.ZoneHour {
	index := map[string]int{}
	for i, z := range energy.Zones()[:7] {
		index[string(z)] = i
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
	gen := hourlyGeneration(in)
	out := make([]demo.ZoneHour, 0, len(gen))
	for _, g := range gen {
		if d := demand[g.At]; d != nil {
			out = append(out, demo.SplitZones(g, *d))
		}
	}
	return out
}

// demoInternal writes each zone link's physical flow from the zonal
// balance (demo.SplitZones), or with scheduled the scheduled exchange:
// the flow plus a market difference of a few percent, rounded to the MW.
// Links are in their portal direction (energy.ZoneLinks), signed.
func demoInternal(in dataset.DemoInput, scheduled bool) []dataset.Row {
	links := energy.ZoneLinks()
	hours := demoZones(in)
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
				v = math.Round(v * (1 + 0.04*demo.Noise(0x5c1e, z.At, int64(k))))
			}
			n := len(nums)
			nums = append(nums, v)
			rows = append(rows, dataset.Row{Time: z.At, Text: names[k : k+1 : k+1], Num: nums[n : n+1 : n+1]})
		}
	}
	return rows
}
