package catalog

import (
	"strings"

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

// transmission returns an hourly transmission series, imported from files
// whose columns are its fields (transmissionImport).
func transmission(resource, title, doc string, fields ...dataset.Field) *dataset.Dataset {
	cols := []string{"date", "date_offset"}
	for _, f := range fields {
		cols = append(cols, f.Name)
	}
	d := series("transmission", resource, title, doc, strings.ReplaceAll(resource, "-", "_"), dataset.Hour, nil, fields)
	d.Import = transmissionImport(strings.Join(cols, ", "))
	return d
}

// flowMW is a transmission series' flow or exchange, MW, within the
// bounds of Italy's interconnections.
func flowMW(name, doc string) dataset.Field {
	return dataset.Field{Name: name, Kind: dataset.Number, Format: dataset.PointFull, Doc: doc, Min: -20000, Max: 20000, Agg: dataset.Mean}
}

// zonePair is the directed pair of neighbouring bidding zones of the
// internal series.
func zonePair() dataset.Field {
	return text("flow", energy.FlowNames(), "Directed zone pair, \"FROM -> TO\".")
}

// PhysicalForeignFlow is the hourly physical flow across each of Italy's
// borders.
func PhysicalForeignFlow() *dataset.Dataset {
	d := transmission("physical-foreign-flow", "Physical foreign flow",
		"Hourly physical flow across each of Italy's borders, in MW: the import into Italy, the export out of it and the net flow (import less export).",
		text("country", energy.BorderNames(), "The country across the border: France, Switzerland, Austria, Slovenia, Greece, Montenegro or Malta."),
		dataset.Field{Name: "import", Kind: dataset.Number, Format: dataset.PointFull, Doc: "Average flow into Italy over the hour, MW, never negative.", Min: 0, Max: 20000, Agg: dataset.Mean},
		dataset.Field{Name: "export", Kind: dataset.Number, Format: dataset.PointFull, Doc: "Average flow out of Italy over the hour, MW, never negative.", Min: 0, Max: 20000, Agg: dataset.Mean},
		flowMW("physical_foreign_flow_MW", "Net flow into Italy, MW: import less export; negative when Italy exports."))
	d.Source = dataset.Source{Ref: portal("transmission", "Physical_Foreign_Flow"), Confidence: "M", Guess: "The fields come from client L's summary of the page; hourly grain."}
	d.Demo = demo.PhysicalForeignFlow
	return d
}

// ScheduledForeignExchange is the hourly scheduled (traded) exchange
// across each of Italy's borders.
func ScheduledForeignExchange() *dataset.Dataset {
	d := transmission("scheduled-foreign-exchange", "Scheduled foreign exchange",
		"Hourly exchange scheduled by the markets across each of Italy's borders, in MW, positive into Italy; data up to the day before.",
		text("country", energy.Plain(energy.ExchangeCounterparts()...),
			"The counterpart: a country across the border (as in physical-foreign-flow) or Corsica, which the page names beside the neighbouring TSOs and Malta."),
		flowMW("scheduled_foreign_exchange_MW", "Scheduled net exchange into Italy, MW; negative when Italy exports. (Field name chosen by this server: the portal's was not seen.)"))
	d.Source = dataset.Source{Ref: portal("transmission", "Scheduled_Foreign_Exchange"), Confidence: "M",
		Guess: "The value fields were not seen: country and scheduled_foreign_exchange_MW follow the internal exchange. Corsica's name and its place after the borders are this server's."}
	d.Demo = demo.ScheduledForeignExchange
	return d
}

// PhysicalInternalFlow is the hourly physical flow between bidding zones.
func PhysicalInternalFlow() *dataset.Dataset {
	d := transmission("physical-internal-flow", "Physical internal flow",
		"Hourly physical flow between neighbouring bidding zones, in MW, per directed zone pair (\"Centre-North -> North\"): "+
			"positive in the pair's direction, negative against it. Each link is given in one direction, the southern or island zone first, as the portal names it; "+
			"a file may name either direction.",
		zonePair(), flowMW("physical_internal_flow_MW", "Flow from FROM to TO, MW; negative when it runs the other way."))
	d.Source = dataset.Source{Ref: portal("transmission", "Physical_Internal_Flow"), Confidence: "H", Guess: "Hourly grain."}
	d.Demo = demo.PhysicalInternalFlow
	d.DemoFrom = []string{"total-load"}
	return d
}

// ScheduledInternalExchange is the hourly scheduled exchange between
// bidding zones.
func ScheduledInternalExchange() *dataset.Dataset {
	d := transmission("scheduled-internal-exchange", "Scheduled internal exchange",
		"Hourly exchange scheduled by the markets between neighbouring bidding zones, in MW, per directed zone pair "+
			"(as in physical-internal-flow), each link in one direction, positive in the pair's direction.",
		zonePair(), flowMW("scheduled_internal_exchange_MW", "Scheduled exchange from FROM to TO, MW; negative when it runs the other way. (Field name chosen by this server: the portal's was not seen.)"))
	d.Source = dataset.Source{Ref: portal("transmission", "Scheduled_Internal_Exchange"), Confidence: "H"}
	d.Demo = demo.ScheduledInternalExchange
	d.DemoFrom = []string{"total-load"}
	return d
}
