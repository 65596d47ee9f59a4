package catalog

import (
	"math"
	"sort"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// Parts shared by the v1.0 areas (Fees, Market, Adequacy, Outages), whose
// pages follow conventions of their own: the offset field is "offset", the
// moments are reference_date or market_date, two-digit years are accepted
// in dateFrom/dateTo, invalid input is answered 406 (dataset.ValidationV1),
// and Market, Adequacy and Outages spell result's message "messagge".
// See docs/datasets-v1.md.

// v1 returns a v1.0 dataset of area with its conventions declared: Fees
// keep "message" with their own wording, the other areas spell it
// "messagge" with the family's date-range wording.
func v1(area, resource, name, title, doc, array string, grain dataset.Grain, params []dataset.Param, fields []dataset.Field) *dataset.Dataset {
	d := &dataset.Dataset{
		Name: name, Title: title, Doc: doc,
		Area: area, Version: "v1.0", Resource: resource,
		Array: array, Grain: grain, Params: params, Fields: fields,
		Message: dataset.MessageDates, MessageKey: "messagge", Validation: dataset.ValidationV1,
		Import: &dataset.ImportSpec{Formats: "CSV or XLSX with the API's field names as columns; moments as yyyy-mm-dd hh:mm:ss (Europe/Rome) with offset (needed in the repeated autumn hour); dates as yyyy-mm-dd, yyyy/mm/dd or dd/mm/yyyy; numbers with a decimal point"},
	}
	if area == "fees" {
		d.Message, d.MessageKey = dataset.MessageDatesColon, ""
		// The Fees pages' former prefix, which older clients still call.
		d.Aliases = []string{"/market-and-fees/v1.0/" + resource}
	}
	return d
}

// unseen ends the description of a dataset whose fields the portal's pages
// do not show, so that the OpenAPI document says they are this server's.
const unseen = " The portal's page does not show the fields: these are chosen after the family's pattern (docs/datasets-v1.md)."

// v1Dates is the v1.0 date range: dd/mm/yyyy or dd/mm/yy, both days
// included, at most maxDays days (0 for the server's limit).
func v1Dates(maxDays int) dataset.Param {
	return dataset.Param{Name: "dateFrom", To: "dateTo", Kind: dataset.DateRange, Required: true, ShortYear: true, MaxDays: maxDays,
		Doc: "First and last Europe/Rome day, dd/mm/yyyy or dd/mm/yy (22/11/23 is 22 November 2023); both ends included."}
}

// referenceDate is the moment of a v1.0 record followed by its offset, and
// by date_tz when tz (the Market pages' order); otherwise a zoneField
// placed where the page shows it carries date_tz.
func referenceDate(name string, tz bool) dataset.Field {
	f := dataset.Field{Name: name, Kind: dataset.Instant, Offset: "offset",
		Doc: "Europe/Rome wall time yyyy-mm-dd hh:mm:ss of the period's start; offset is its UTC offset (+01:00 or +02:00)."}
	if tz {
		f.TZ = "date_tz"
	}
	return f
}

// zoneField is date_tz where a v1.0 page places it away from the moment.
func zoneField() dataset.Field {
	return dataset.Field{Name: "date_tz", Kind: dataset.Zone, Doc: "Time zone of the moments: Europe/Rome, or UTC with timeZone=UTC."}
}

// storedDate is a date published with the record, written in layout.
func storedDate(name, layout, doc string) dataset.Field {
	return dataset.Field{Name: name, Kind: dataset.Text, Layout: layout, Doc: doc}
}

func text(name string, ref dataset.Ref, doc string) dataset.Field {
	return dataset.Field{Name: name, Kind: dataset.Text, Ref: ref, Doc: doc}
}

func number(name, doc string, lo, hi float64) dataset.Field {
	return dataset.Field{Name: name, Kind: dataset.Number, Format: dataset.PointFull, Min: lo, Max: hi, Doc: doc + ", decimal point."}
}

func enumParam(name, field string, required, many bool, doc string) dataset.Param {
	return dataset.Param{Name: name, Kind: dataset.Enum, Field: field, Required: required, Many: many, Doc: doc}
}

// Reference lists of the v1.0 areas.
var (
	// dataTypes are the Fees pages' dataType values: hourly or quarter-hourly rows.
	dataTypes = energy.Plain("Orario", "Quarto Orario")
	// sessionTypes are the dispatching-services market sessions (MSD1 to
	// MSD6) and the balancing market (MB), which the output pages report.
	sessionTypes = energy.Plain("MSD1", "MSD2", "MSD3", "MSD4", "MSD5", "MSD6", "MB")
	directions   = energy.Plain("UP", "DOWN")
	macrozones   = energy.Plain("NORD", "SUD")
	// zoneCodes are the bidding zones as the Fees pages code them.
	zoneCodes = codeZones.ref()
	// marketZones are the bidding zones as most Market pages name them.
	marketZones = italianZones.ref()
)

// zoneVocab is how one v1.0 endpoint names the seven bidding zones, in
// v1Zones order: each page has its own vocabulary (catalogue.md 4.2), and
// each descriptor declares the one its page shows.
type zoneVocab [7]string

var (
	// italianZones: the wind forecast's Centro-Nord, the secondary
	// adjustment levels' Sicilia, and the Market pages that show no other.
	italianZones = zoneVocab{"Nord", "Centro-Nord", "Centro-Sud", "Sud", "Calabria", "Sicilia", "Sardegna"}
	// codeZones: the Fees codes, and the quantity and prices examples' SICI.
	codeZones = zoneVocab{"NORD", "CNOR", "CSUD", "SUD", "CALA", "SICI", "SARD"}
	// englishZones: the v2.0 bidding-zone names, which the live client reads
	// from rr-requirement.
	englishZones = zoneVocab{"North", "Centre-North", "Centre-South", "South", "Calabria", "Sicily", "Sardinia"}
	// centerZones: the accepted offers' Center-South and the transit
	// limits' Center-North.
	centerZones = zoneVocab{"North", "Center-North", "Center-South", "South", "Calabria", "Sicily", "Sardinia"}
)

func (v zoneVocab) ref() *energy.Names { return energy.Plain(v[:]...) }

// doc lists the vocabulary for a field's description.
func (v zoneVocab) doc() string { return "Bidding zone: " + strings.Join(v[:], ", ") + "." }

// v1Zone is one bidding zone in the v1.0 areas' names.
type v1Zone struct {
	zone          energy.Zone
	code, name    string
	macro, adeq   string // Fees macrozone, Adequacy macroarea
	loadShare     float64
	windShare     float64
	capacityShare float64
}

// v1Zones are the seven bidding zones, in energy.Zones order.
var v1Zones = []v1Zone{
	{energy.North, "NORD", "Nord", "NORD", "NORD", 0.46, 0.02, 0.45},
	{energy.CentreNorth, "CNOR", "Centro-Nord", "SUD", "CENTRO_NORD", 0.10, 0.03, 0.08},
	{energy.CentreSouth, "CSUD", "Centro-Sud", "SUD", "CENTRO_SUD", 0.16, 0.12, 0.13},
	{energy.South, "SUD", "Sud", "SUD", "SUD_ISOLE", 0.09, 0.45, 0.16},
	{energy.Calabria, "CALA", "Calabria", "SUD", "SUD_ISOLE", 0.03, 0.10, 0.06},
	{energy.Sicily, "SICI", "Sicilia", "SUD", "SUD_ISOLE", 0.09, 0.18, 0.08},
	{energy.Sardinia, "SARD", "Sardegna", "SUD", "SUD_ISOLE", 0.07, 0.10, 0.04},
}

// v1Window is the span of the v1.0 demo data: the demo's whole range, as
// for every time series. Each hour and day is generated from that moment's
// own system state, so a month generated alone equals that month of the
// whole range, and the demo can be written a month at a time.
func v1Window(in dataset.DemoInput) (lo, hi int64) {
	return in.First.Start().Unix(), in.Last.End().Unix()
}

// within returns the rows of another dataset's demo data whose moment lies
// in [lo, hi), found by binary search: demo generators write their rows in
// time order, and the sources hold years of them.
func within(rows []dataset.Row, lo, hi int64) []dataset.Row {
	i := sort.Search(len(rows), func(i int) bool { return rows[i].Time >= lo })
	j := sort.Search(len(rows), func(i int) bool { return rows[i].Time >= hi })
	return rows[i:j]
}

// v1Quarter is one quarter hour of the demo system within v1Window: each
// zone's actual and forecast load (MW) in v1Zones order.
type v1Quarter struct {
	at             int64
	load, forecast [7]float64
}

// imbalance returns zone z's forecast error in the quarter hour, MW:
// actual load less its day-ahead forecast.
func (q *v1Quarter) imbalance(z int) float64 { return q.load[z] - q.forecast[z] }

// v1Quarters reads the demo total load's quarter hours within v1Window.
func v1Quarters(in dataset.DemoInput) []v1Quarter {
	lo, hi := v1Window(in)
	index := map[string]int{}
	for i, z := range v1Zones {
		index[string(z.zone)] = i
	}
	var out []v1Quarter
	for _, r := range within(in.From["total-load"], lo, hi) {
		if r.Time < lo || r.Time >= hi {
			continue
		}
		z, ok := index[r.Text[0]]
		if !ok {
			continue // Italy
		}
		if len(out) == 0 || out[len(out)-1].at != r.Time {
			out = append(out, v1Quarter{at: r.Time})
		}
		q := &out[len(out)-1]
		q.load[z], q.forecast[z] = r.Num[0], r.Num[1]
		if math.IsNaN(q.forecast[z]) {
			q.forecast[z] = r.Num[0]
		}
	}
	return out
}

// v1Hour is one hour of the demo system within v1Window.
type v1Hour struct {
	at             int64
	load, forecast [7]float64 // hourly mean per zone, MW
	wind, solar    float64    // Italy's generation, GW
	residual       float64    // Italy's load less wind and solar, GW
}

// v1Hours averages v1Quarters by hour and adds the demo actual generation's
// wind and photovoltaic, giving the residual load that prices follow.
func v1Hours(in dataset.DemoInput) []v1Hour {
	var out []v1Hour
	for _, q := range v1Quarters(in) {
		h := q.at - q.at%3600 // Europe/Rome offsets are whole hours
		if len(out) == 0 || out[len(out)-1].at != h {
			out = append(out, v1Hour{at: h})
		}
		for z := range v1Zones {
			out[len(out)-1].load[z] += q.load[z] / 4
			out[len(out)-1].forecast[z] += q.forecast[z] / 4
		}
	}
	at := map[int64]int{}
	for i := range out {
		at[out[i].at] = i
	}
	lo, hi := v1Window(in)
	for _, r := range within(in.From["actual-generation"], lo, hi) {
		i, ok := at[r.Time]
		if !ok {
			continue
		}
		switch r.Text[0] {
		case "Wind":
			out[i].wind = r.Num[0]
		case "Photovoltaic":
			out[i].solar = r.Num[0]
		}
	}
	for i := range out {
		var italy float64
		for _, v := range out[i].load {
			italy += v
		}
		out[i].residual = italy/1000 - out[i].wind - out[i].solar
	}
	return out
}

// basePrice is the demo day-ahead price of a macrozone in an hour,
// EUR/MWh: it rises with the residual load (gas plants set the price
// when wind and sun leave more to them), the south a little cheaper.
func basePrice(h *v1Hour, macro string) float64 {
	p := 20 + 3.4*h.residual + 4*demo.Noise(0xfee5, h.at)
	if macro == "SUD" {
		p -= 3 + 2*demo.Noise(0x50d, h.at)
	}
	return energy.Round(math.Max(p, 0), 2)
}

// macroImbalance returns the sum of the forecast errors of a macrozone's
// zones in quarter hour q, MW.
func macroImbalance(q *v1Quarter, macro string) float64 {
	var s float64
	for z, vz := range v1Zones {
		if vz.macro == macro {
			s += q.imbalance(z)
		}
	}
	return s
}

// publishedAt returns, as the Fees pages write it, the moment a day's
// data are published: noon the next day.
func publishedAt(u int64) string {
	t := time.Unix(u, 0).In(energy.Rome())
	return time.Date(t.Year(), t.Month(), t.Day()+1, 12, 0, 0, 0, energy.Rome()).Format("2006-01-02 15:04:05")
}

// dataNoise is the seeded noise of a v1.0 revision, in -1..1.
func dataNoise(u int64, k int) float64 { return demo.Noise(0x9e1, u, int64(k)) }

// namesRef is a reference list of the given values.
func namesRef(values []string) *energy.Names { return energy.Plain(values...) }

// joinNames lists values for a description: "a, b or c".
func joinNames(values []string) string {
	if len(values) < 2 {
		return strings.Join(values, "")
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}
