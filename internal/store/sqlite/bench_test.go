package sqlite

import (
	"path/filepath"
	"testing"

	"github.com/energyapi/energyapi/internal/store/storetest"
)

func benchmarkImportParts(b *testing.B, again bool) {
	storetest.BenchImportParts(b, func(b *testing.B) storetest.Store {
		s, err := Open(b.Context(), filepath.Join(b.TempDir(), "energy.db"))
		if err != nil {
			b.Fatal(err)
		}
		return s
	}, again, fileSize)
}

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

// BenchmarkImportPartsYear imports a year of every zone (280,320 points) as
// parts of total-load into a new file, and reports the file's size per point.
func BenchmarkImportPartsYear(b *testing.B) { benchmarkImportParts(b, false) }

// BenchmarkReimportPartsYear imports a year that is already stored.
func BenchmarkReimportPartsYear(b *testing.B) { benchmarkImportParts(b, true) }

func benchmarkChangedParts(b *testing.B, all bool) {
	storetest.BenchChangedParts(b, func(b *testing.B) storetest.Store {
		s, err := Open(b.Context(), filepath.Join(b.TempDir(), "energy.db"))
		if err != nil {
			b.Fatal(err)
		}
		return s
	}, all)
}

// BenchmarkChangedParts7Years reads every part of seven years of load.
func BenchmarkChangedParts7Years(b *testing.B) { benchmarkChangedParts(b, true) }

// BenchmarkChangedPartsNone7Years asks for the parts of seven years of load
// that changed, when none did.
func BenchmarkChangedPartsNone7Years(b *testing.B) { benchmarkChangedParts(b, false) }
