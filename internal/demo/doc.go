// Package demo is the deterministic synthetic Italian power system and
// market that the demo data derive from (serve --demo, energyapi demo and
// the tests): quarter-hourly load per bidding zone, generation by source,
// cross-border flows and each hour's split over the bidding zones, the
// yearly and monthly statistics by region and province, the counts of
// market offers, the FCR auctions, and the live timing of the v1.0
// publications. The catalogue's descriptors name the generator of each
// dataset; the figures it is calibrated to are in its tests
// (targets_test.go, stats_targets_test.go).
package demo
