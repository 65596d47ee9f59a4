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

// ImportTotal sums the imports of one dataset that committed. Stores record a
// run inside each import's own transaction, so the totals are exact across
// processes and survive restarts.
type ImportTotal struct {
	Dataset string // the dataset's name in the catalogue
	Runs    int64
	Rows    int64 // records read, over all runs
	Last    time.Time
}

// ImportHistory reports committed imports (for operators and metrics).
type ImportHistory interface {
	ImportTotals(ctx context.Context) ([]ImportTotal, error)
}
