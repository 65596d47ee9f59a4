package postgres

import (
	"testing"

	"github.com/energyapi/energyapi/internal/store/storetest"
)

// BenchmarkStore runs the shared benchmarks (storetest.Bench) on new
// databases of the test's cluster; ImportPartsYear reports the size of the
// parts table (heap, TOAST and index) per point.
func BenchmarkStore(b *testing.B) { storetest.Bench(b, driver(b)) }
