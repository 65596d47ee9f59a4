package sqlite

import (
	"testing"

	"github.com/energyapi/energyapi/internal/store/storetest"
)

// fileSize returns the size of the database, WAL included: the pages in
// use times the page size.
func fileSize(b *testing.B, s storetest.Store) int64 {
	var pages, free, size int64
	db := s.(*Store).w
	for _, q := range []struct {
		pragma string
		v      *int64
	}{{"page_count", &pages}, {"freelist_count", &free}, {"page_size", &size}} {
		if err := db.QueryRowContext(b.Context(), "PRAGMA "+q.pragma).Scan(q.v); err != nil {
			b.Fatal(err)
		}
	}
	return (pages - free) * size
}

// BenchmarkStore runs the shared benchmarks (storetest.Bench) on new
// files; ImportPartsYear reports the file's size per point.
func BenchmarkStore(b *testing.B) { storetest.Bench(b, driver(b)) }
