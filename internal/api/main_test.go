package api_test

import (
	"flag"
	"os"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// TestMain starts generating the demo data that the tests share, in the
// background, when the whole package runs: a test that needs them waits
// for them (each is generated once, whoever asks first), and under the
// race detector a generation took up to half a minute, during which the
// test and others waiting for the same data held their places among the
// parallel tests while a CPU stood idle. A run of chosen tests (-run)
// generates only what they ask for.
func TestMain(m *testing.M) {
	flag.Parse()
	if !testing.Short() && flag.Lookup("test.run").Value.String() == "" {
		go generateSharedDemo()
	}
	os.Exit(m.Run())
}

// generateSharedDemo generates the shared demo data, roughly in the order
// the tests first ask for them. Errors are left for the tests to report.
func generateSharedDemo() {
	day := func(y int, m time.Month, d int) energy.Date { return energy.Date{Year: y, Month: m, Day: d} }
	_, _ = demoStatistics()
	// demoDays' ranges, as the tests name them: the compression and CSV
	// tests, familyDemo, ...
	demoRangeOf(day(2024, time.October, 26), day(2024, time.October, 27))
	demoRangeOf(day(2025, time.December, 18), day(2025, time.December, 31))
	generateGrainDemo()
	generateDemoOnce()
	// ... the Python clients, and the v1.0 transparency tests.
	demoRangeOf(day(2024, time.January, 1), day(2024, time.January, 14))
	demoRangeOf(day(2023, time.January, 1), day(2023, time.January, 9))
	demoRangeOf(day(2023, time.July, 29), day(2023, time.August, 1))
	demoRangeOf(day(2022, time.October, 30), day(2022, time.October, 30))
}
