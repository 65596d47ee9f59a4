package catalog

import (
	"strings"

	"github.com/energyapi/energyapi/internal/dataset"
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
		// The Fees pages' former prefix, which older clients still call:
		// deprecated, its successor the fees path.
		d.Views = []dataset.View{marketAndFeesView(resource)}
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

// storedDate is a date published with the record, written in layout; at
// a coarser resolution, the latest of the bucket's (layouts write years
// first, so the latest is the greatest).
func storedDate(name, layout, doc string) dataset.Field {
	return dataset.Field{Name: name, Kind: dataset.Text, Layout: layout, Doc: doc, Agg: dataset.Max}
}

func text(name string, ref dataset.Ref, doc string) dataset.Field {
	return dataset.Field{Name: name, Kind: dataset.Text, Ref: ref, Doc: doc}
}

// number is a Number field, aggregated over time as agg.
func number(agg dataset.Aggregation, name, doc string, lo, hi float64) dataset.Field {
	return dataset.Field{Name: name, Kind: dataset.Number, Format: dataset.PointFull, Min: lo, Max: hi, Doc: doc + ", decimal point.", Agg: agg}
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
	sessionTypes = energy.Plain(energy.MarketSessions()...)
	directions   = energy.Plain(energy.Directions()...)
	macrozones   = energy.Plain(energy.Macrozones()...)
	// zoneCodes are the bidding zones as the Fees pages code them.
	zoneCodes = zoneRef(energy.ZoneCode)
)

// zoneRef is the reference list of the bidding zones in vocabulary v:
// each page has its own vocabulary (catalogue.md 4.2), and each
// descriptor declares the one its page shows.
func zoneRef(v energy.ZoneVocab) *energy.Names { return energy.Plain(v.Names()...) }

// zoneDoc lists vocabulary v for a field's description.
func zoneDoc(v energy.ZoneVocab) string {
	return "Bidding zone: " + strings.Join(v.Names(), ", ") + "."
}

// namesRef is a reference list of the given values.
func namesRef(values []string) *energy.Names { return energy.Plain(values...) }

// joinNames lists values for a description: "a, b or c".
func joinNames(values []string) string {
	if len(values) < 2 {
		return strings.Join(values, "")
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}
