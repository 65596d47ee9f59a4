package postgres

import (
	"testing"

	"github.com/energyapi/energyapi/internal/store/storetest"
)

func benchmarkImportParts(b *testing.B, again bool) {
	storetest.BenchImportParts(b, func(b *testing.B) storetest.Store {
		s, err := Open(b.Context(), cluster.Database(b))
		if err != nil {
			b.Fatal(err)
		}
		return s
	}, again, func(b *testing.B, s storetest.Store) int64 {
		var n int64
		err := s.(*Store).pool.QueryRow(b.Context(), `SELECT pg_total_relation_size('parts')`).Scan(&n)
		if err != nil {
			b.Fatal(err)
		}
		return n
	})
}

// BenchmarkImportPartsYear imports a year of every zone (280,320 points) as
// parts of total-load into a new database, and reports the size of the
// parts table (heap, TOAST and index) per point.
func BenchmarkImportPartsYear(b *testing.B) { benchmarkImportParts(b, false) }

// BenchmarkReimportPartsYear imports a year that is already stored.
func BenchmarkReimportPartsYear(b *testing.B) { benchmarkImportParts(b, true) }

func benchmarkChangedParts(b *testing.B, all bool) {
	storetest.BenchChangedParts(b, func(b *testing.B) storetest.Store {
		s, err := Open(b.Context(), cluster.Database(b))
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
