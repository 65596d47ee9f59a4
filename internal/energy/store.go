package energy

import (
	"context"
	"time"
)

// ImportStats summarises what an import did to the store.
type ImportStats struct {
	Read      int // records handed to the store
	Inserted  int // new natural keys
	Updated   int // existing keys whose values changed
	Unchanged int // existing keys with identical values
}

// Writer stores imported data. Each method runs in one transaction: either every
// record is stored and the data version advances, or nothing changes. Each is
// idempotent: importing the same records again reports them Unchanged and,
// when nothing changed, leaves the data version as it was.
type Writer interface {
	// ImportThermoelectric upserts records on their natural key.
	ImportThermoelectric(ctx context.Context, recs []ThermoRecord) (ImportStats, error)
	// ImportTotalLoad upserts points on their natural key and recomputes the
	// derived peak and valley (DeriveDay) of every Europe/Rome day it touched.
	ImportTotalLoad(ctx context.Context, pts []LoadPoint) (ImportStats, error)
	// ImportPeakValley upserts published daily peaks and valleys; for a day that
	// has both, these win over the ones derived from total load.
	ImportPeakValley(ctx context.Context, days []DayExtremes) (ImportStats, error)
}

// Data is everything the read path serves, read in one consistent transaction.
type Data struct {
	Version    int64
	Updated    time.Time // when the data version last changed
	Thermo     []ThermoRecord
	PeakValley []DayExtremes // one per day, imported over derived, by day ascending
}

// Source is what a server loads its in-memory snapshot from.
type Source interface {
	// DataVersion returns a number that changes whenever an import commits a change.
	DataVersion(ctx context.Context) (int64, error)
	// ReadData returns all served data and its version from one snapshot of the store.
	ReadData(ctx context.Context) (Data, error)
}

// ImportTotal sums the imports of one dataset that committed. Stores record a
// run inside each import's own transaction, so the totals are exact across
// processes and survive restarts.
type ImportTotal struct {
	Dataset string // "thermoelectric", "total-load" or "peak-valley"
	Runs    int64
	Rows    int64 // records read, over all runs
	Last    time.Time
}

// ImportHistory reports committed imports (for operators and metrics).
type ImportHistory interface {
	ImportTotals(ctx context.Context) ([]ImportTotal, error)
}
