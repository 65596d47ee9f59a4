// Package demo is the deterministic synthetic Italian power system and
// market that the demo data derive from (serve --demo, energyapi demo and
// the tests): quarter-hourly load per bidding zone, generation by source,
// cross-border flows and each hour's split over the bidding zones, the
// yearly and monthly statistics by region and province, and the v1.0
// areas' models (imbalance prices and volumes, the dispatching and
// balancing markets' quantities, prices and offers, reserve requirements,
// transit limits, outages and available capacity, the FCR auctions) with
// the live timing of their publications.
//
// The zones' identity (names, codes, macrozones) is internal/energy's
// BiddingZones; what the demo makes of each zone (its share of the load,
// of each source, of the installed capacity) is one table, zoneTable.
//
// The catalogue's descriptors call one generator per dataset here (a
// function from dataset.DemoInput to rows); the figures the models are
// calibrated to are in the tests (targets_test.go, stats_targets_test.go).
package demo
