package catalog

import (
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// The transparency v1.0 paths: the endpoints before the v2.0 series of
// Load and Generation, which the v2.0 pages' "Differenze rispetto alla
// versione 1.0" sections describe and which R, C# and early Python clients
// still call. Each is a view of its v2.0 successor (dataset.View): the same
// records, parameters and token, with v1.0's array and capitalised field
// names, no date_tz or date_offset (v2.0 "added" them), the message quoting
// the query, and the data stopping at 31 July 2023 as the page example's
// message says (DATA_ORA < 2023-07-31). What is read and what is guessed:
// docs/datasets-v1.md, "The transparency v1.0 paths".

// Dates announced by the deprecated paths' headers. v1DataEnd is the end
// of the v1.0 data (the example's $lt); the deprecation is dated there.
// The fees paths moved on "20 giugno" (the page gives no year: 2023 is
// this server's reading). The sunset is this server's promise to its
// clients, not Terna's: nothing removes the paths then.
var (
	v1DataEnd            = energy.Date{Year: 2023, Month: time.July, Day: 31}
	transparencyV1Dep    = time.Date(2023, time.July, 31, 0, 0, 0, 0, time.UTC)
	marketAndFeesMoved   = time.Date(2023, time.June, 20, 0, 0, 0, 0, time.UTC)
	deprecatedPathSunset = time.Date(2028, time.January, 1, 0, 0, 0, 0, time.UTC)
)

// The sources every v1.0 view reads.
const (
	// v1PageDiff is the v2.0 pages' section on version 1.0 (endpoint
	// changed, offset and time zone added, the bidding-zone list changed).
	v1PageDiff = "the v2.0 page's \"Differenze rispetto alla versione 1.0\" section"
	// v1Example is the page example quoting a v1.0 answer's message
	// (as api-evangelist/terna openapi/terna-transparency-api-openapi.yml,
	// generated from the portal, copies it).
	v1Example = "the v1.0 example response on " + "https://developer.terna.it/docs/read/apis_catalog/generation/Actual_Generation"
)

// transparencyV1 returns the v1.0 view at /transparency/v1.0/<resource>,
// its array, the names it shows the v2.0 columns by (date_tz and
// date_offset left out), and the fields its message quotes the filters by.
func transparencyV1(resource, array string, names, quote map[string]string, source dataset.Source) dataset.View {
	return dataset.View{
		Path: "/transparency/v1.0/" + resource, Array: array, Names: names,
		Message: dataset.MessageRequest, Quote: quote, Until: v1DataEnd, LateRepeatedHour: true,
		Deprecated: transparencyV1Dep, Sunset: deprecatedPathSunset, Source: source,
	}
}

// v1Quote is how the v1.0 message quotes a date range ("DATA_ORA", read)
// and a filter, by its Italian field name: TIPO (read), ZONA (guessed).
func v1Quote(filter, field string) map[string]string {
	q := map[string]string{"dateFrom": "DATA_ORA"}
	if filter != "" {
		q[filter] = field
	}
	return q
}

// marketAndFeesView is a Fees dataset's former prefix: the same answers,
// deprecated since the move to /fees/v1.0/, successor the fees path.
func marketAndFeesView(resource string) dataset.View {
	return dataset.View{Path: "/market-and-fees/v1.0/" + resource, Successor: "/fees/v1.0/" + resource,
		Deprecated: marketAndFeesMoved, Sunset: deprecatedPathSunset,
		Source: dataset.Source{Ref: portal("market_and_fees", "Zonal_Exchanges") + " (\"This endpoint will be substituted 20 giugno\")", Confidence: "H",
			Guess: "The year of the move (2023)."}}
}

// The v1.0 views of each v2.0 series, named after its successor.

func totalLoadV1() dataset.View {
	return transparencyV1("gettotalload", "totalLoad",
		map[string]string{"date": "Date", "total_load_MW": "Total_Load_MW", "forecast_total_load_MW": "Forecast_Total_Load_MW", "bidding_zone": "Bidding_Zone"},
		v1Quote("biddingZone", "ZONA"),
		dataset.Source{Ref: v1PageDiff + " on " + portal("load", "Total_Load") + "; live clients: an R package (terna_load: totalLoad, the first column the date), Python scripts (gettotalload, totalLoad, Date, Total_Load_MW, Forecast_Total_Load_MW, Bidding_Zone)", Confidence: "H",
			Guess: "The field order after Date; the ZONA name the message quotes biddingZone by; the v1.0 bidding-zone names (the page says the list changed; the English ones are taken, others get the empty body)."})
}

func marketLoadV1() dataset.View {
	return transparencyV1("getmarketload", "marketLoad",
		map[string]string{"date": "Date", "market_load_MW": "Market_Load_MW", "forecast_market_load_MW": "Forecast_Market_Load_MW", "bidding_zone": "Bidding_Zone"},
		v1Quote("biddingZone", "ZONA"),
		dataset.Source{Ref: v1PageDiff + " on " + portal("load", "Market_Load"), Confidence: "L",
			Guess: "The path, array and field names, after gettotalload's; no client of it was seen."})
}

func peakValleyLoadV1() dataset.View {
	return transparencyV1("getpeakvalleyload", "peakValleyLoad",
		map[string]string{"date": "Date", "peak_load_GW": "Peak_Load_GW", "valley_load_GW": "Valley_Load_GW"},
		v1Quote("", ""),
		dataset.Source{Ref: portal("load", "PeakValley_Load_Details") + " (\"complete getPeakValleyLoad\")", Confidence: "L",
			Guess: "The array and field names, after gettotalload's; only the name getPeakValleyLoad was seen."})
}

func peakValleyLoadDetailsV1() dataset.View {
	return transparencyV1("getpeakvalleyloaddetails", "peakValleyLoadDetails",
		map[string]string{"date": "Date", "peak_load_GW": "Peak_Load_GW", "valley_load_GW": "Valley_Load_GW", "primary_source_GW": "Primary_Source", "type": "Type"},
		v1Quote("type", "TIPO"),
		dataset.Source{Ref: portal("load", "PeakValley_Load_Details") + " (\"complete getPeakValleyLoad, with two output fields: Primary_Source and Type\")", Confidence: "M",
			Guess: "The path and array; Peak_Load_GW and Valley_Load_GW after gettotalload's pattern."})
}

func actualGenerationV1() dataset.View {
	return transparencyV1("getactualgeneration", "actualGeneration",
		map[string]string{"date": "Date", "actual_generation_GWh": "Actual_Generation_GWh", "primary_source": "Primary_Source"},
		v1Quote("type", "TIPO"),
		dataset.Source{Ref: v1Example + " (message, DATA_ORA, TIPO, the $lt 2023-07-31); live clients: a C# DTO (Date, Actual_Generation_GWh, Primary_Source), an R package (getactualgeneration with dateFrom, dateTo, type repeated)", Confidence: "H",
			Guess: "The array name actualGeneration (catalogue.md 5.1, no client read it); the field order."})
}

func renewableGenerationV1() dataset.View {
	return transparencyV1("getrenewablegeneration", "renewableGeneration",
		map[string]string{"date": "Date", "renewable_generation_GWh": "Renewable_Generation_GWh", "energy_source": "Energy_Source"},
		v1Quote("type", "TIPO"),
		dataset.Source{Ref: v1PageDiff + " on " + portal("generation", "Renewable_Generation") + "; live clients: Python scripts (getrenewablegeneration?type=Hydro&type=Wind, data['renewableGeneration'], Date, Renewable_Generation_GWh, Energy_Source)", Confidence: "H",
			Guess: "The field order."})
}

func energyBalanceV1() dataset.View {
	return transparencyV1("getenergybalance", "energyBalance",
		map[string]string{"date": "Date", "energy_balance_GWh": "Energy_Balance_GWh", "type": "Energy_Source"},
		v1Quote("type", "TIPO"),
		dataset.Source{Ref: v1PageDiff + " on " + portal("generation", "Energy_Balance") + "; live client: a Python script (getenergybalance, data['energyBalance'], Date, Energy_Balance_GWh, Energy_Source)", Confidence: "H",
			Guess: "The field order; the grain (v2.0's, daily here)."})
}

func installedCapacityV1() dataset.View {
	v := transparencyV1("getinstalledcapacity", "installedCapacity",
		map[string]string{"year": "Year", "type": "Type", "installed_capacity_GWh": "Installed_Capacity_GWh"},
		map[string]string{"year": "ANNO", "type": "TIPO"},
		dataset.Source{Ref: "catalogue.md section 0 (the v1.0 path getinstalledcapacity, from the pages and client P's first version)", Confidence: "L",
			Guess: "The array and field names, after gettotalload's; the parameters (v2.0's year and type); the message's ANNO."})
	v.LateRepeatedHour = false // yearly: no hours
	return v
}
