// Package catalog declares the datasets of the API family, one file per
// endpoint: its path, parameters, fields and their reference lists, import
// format and source, what makes each of them itself and nothing the
// machinery in internal/dataset does for all of them. It only declares:
// each descriptor's demo generator is a one-line call into internal/demo,
// which holds every model and formula of the demo data, and the bidding
// zones' names come from internal/energy's one table (BiddingZones), each
// endpoint picking the vocabulary its page shows. TestCatalogOnlyDeclares
// keeps simulation out.
package catalog

import "github.com/energyapi/energyapi/internal/dataset"

// All returns every served dataset, in the order the catalogue lists them.
func All() []*dataset.Dataset {
	return []*dataset.Dataset{
		TotalLoad(),
		PeakValleyLoad(),
		MarketLoad(),
		PeakValleyLoadDetails(),
		MonthlyIndexIndustrialConsumption(),
		DemandCoverageBySource(),
		// The yearly load statistics (docs/datasets-load-transmission.md).
		ElectricalEnergyInItaly(),
		ElectricalEnergyByType(),
		ElectricalEnergyBySector(),
		IndustrySector(),
		ServicesSector(),
		LoadTotal(),
		LoadMarket(),
		ThermoelectricProduction(),
		// Generation (docs/datasets-generation.md).
		ActualGeneration(),
		RenewableGeneration(),
		EnergyBalance(),
		InstalledCapacity(),
		GenerationPlants(),
		RenewableSourceCapacity(),
		ThermoelectricCapacity(),
		ElectricalEnergyBySource(),
		RenewableSourcesProduction(),
		Hydric(),
		ThermoelectricHeat(),
		PhysicalForeignFlow(),
		PhysicalInternalFlow(),
		ScheduledForeignExchange(),
		ScheduledInternalExchange(),
		// Fees (docs/datasets-v1.md).
		DailyPrices(),
		PreliminaryPrices(),
		ZonalExchanges(),
		MacrozonalNoArbitragePrices(),
		DailyMacrozonalImbalance(),
		PreliminaryMacrozonalImbalance(),
		SecondaryAdjustmentLevels(),
		CommercialBalancePrices(),
		MonthlySummary(),
		// Market.
		MarketForecastTransitLimit(),
		MarketTransitLimit(),
		MarketAFRRRequirement(),
		MarketQuantity(),
		MarketForecastLoad(),
		MarketCosts(),
		MarketPrices(),
		MarketAcceptedOffers(),
		MarketSubmittedOffers(),
		MarketWindProductionForecast(),
		MarketTransitMargins(),
		MarketReplacementReserveRequirement(),
		MarketRotatingReserveRequirement(),
		MarketTotalReserveRequirement(),
		AsteFCR(),
		// Outages before Adequacy, whose available capacity they reduce.
		GenerationUnitUnavailability(),
		AggregateEffectiveAvailableCapacity(),
		ExpectedAvailableCapacity(),
		DetailAvailableCapacity(),
	}
}

// New returns the checked catalogue of All.
func New() (*dataset.Catalog, error) { return dataset.NewCatalog(All()...) }

// dates is the date-range pair every time-series endpoint takes.
func dates() dataset.Param {
	return dataset.Param{Name: "dateFrom", To: "dateTo", Kind: dataset.DateRange, Required: true,
		Doc: "First and last Europe/Rome day, dd/mm/yyyy (zero padding optional); both ends included."}
}

// series returns a v2.0 time series of area: the date range before
// params, the date triple (romeTime) before fields, and the family's
// date-range message.
func series(area, resource, title, doc, array string, grain dataset.Grain, params []dataset.Param, fields []dataset.Field) *dataset.Dataset {
	d := v2(area, resource, title, doc, array, dataset.MessageDates, grain)
	d.Params = append([]dataset.Param{dates()}, params...)
	d.Fields = append([]dataset.Field{romeTime()}, fields...)
	return d
}

// v2 returns a v2.0 dataset of area at resource, named after it, with its
// title, description, array, result message and grain: what every v2.0
// declaration states before its parameters and fields.
func v2(area, resource, title, doc, array string, msg dataset.Message, grain dataset.Grain) *dataset.Dataset {
	return &dataset.Dataset{
		Name: resource, Title: title, Doc: doc,
		Area: area, Version: "v2.0", Resource: resource,
		Array: array, Message: msg, Grain: grain,
	}
}

// romeTime is the date, date_tz, date_offset triple of v2.0 time series.
func romeTime() dataset.Field {
	return dataset.Field{Name: "date", Kind: dataset.Instant, TZ: "date_tz", Offset: "date_offset",
		Doc: "Europe/Rome wall time yyyy-mm-dd hh:mm:ss, followed by the zone name and the UTC offset (+01:00 or +02:00)."}
}

// portal returns the URL of an endpoint's page on the deployment's
// developer portal, where a descriptor's shape is read from.
func portal(area, page string) string {
	return "https://developer.terna.it/docs/read/apis_catalog/" + area + "/" + page
}

// liveClient names code that calls the public deployment every day, whose
// behaviour wins where it and a page disagree (catalogue.md section 4).
const liveClient = "live client: "
