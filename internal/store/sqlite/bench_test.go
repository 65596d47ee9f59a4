package sqlite

import (
	"path/filepath"
	"testing"

	"github.com/energyapi/energyapi/internal/store/storetest"
)

func benchmarkImportTotalLoad(b *testing.B, years int, again bool) {
	storetest.BenchImportTotalLoad(b, func(b *testing.B) storetest.Store {
		s, err := Open(b.Context(), filepath.Join(b.TempDir(), "energy.db"))
		if err != nil {
			b.Fatal(err)
		}
		return s
	}, years, again)
}

// BenchmarkImportTotalLoadYear imports a year of every zone (about 280,000
// points) into a new file.
func BenchmarkImportTotalLoadYear(b *testing.B) { benchmarkImportTotalLoad(b, 1, false) }

// BenchmarkImportTotalLoad7Years imports seven years of every zone (about two
// million points) into a new file.
func BenchmarkImportTotalLoad7Years(b *testing.B) { benchmarkImportTotalLoad(b, 7, false) }

// BenchmarkReimportTotalLoadYear imports a year that is already stored: the
// cost of comparing without writing.
func BenchmarkReimportTotalLoadYear(b *testing.B) { benchmarkImportTotalLoad(b, 1, true) }
