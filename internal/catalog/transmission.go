package catalog

import (
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
		Demo:   demo.PhysicalForeignFlow,
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
		Demo:   demo.ScheduledForeignExchange,
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
		Demo:     demo.PhysicalInternalFlow,
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
		Demo:     demo.ScheduledInternalExchange,
		DemoFrom: []string{"total-load"},
		Import:   transmissionImport("date, date_offset, flow, scheduled_internal_exchange_MW"),
	}
}
