package catalog

import (
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
)

// settling is how long after a day ends the live deployment may still
// change that day's records of a dataset, where catalogue section 4.4 says
// so ([LIVE]): the daily imbalance is final from D+1 at 17:00 (the
// preliminary endpoints are replaced as often), per-unit available
// capacity 7 days after the day, reserve requirements are restated by each
// MSD session for the hours still ahead, and FCR auction results never
// change once known.
var settling = map[string]time.Duration{
	"daily-macrozonal-imbalance":             2 * day,
	"preliminary-macrozonal-imbalance":       2 * day,
	"preliminary-prices":                     2 * day,
	"detail-available-capacity":              8 * day,
	"market-afrr-requirement":                2 * day,
	"market-replacement-reserve-requirement": 2 * day,
	"market-rotating-reserve-requirement":    2 * day,
	"market-total-reserve-requirement":       2 * day,
	"aste-fcr":                               0,
}

const day = 24 * time.Hour

// Settling returns how long after a day ends its records of d may still
// change upstream: what a mirror re-fetches. Where section 4.4 is silent it
// is a guess by grain, said to be one in docs/operators.md: 3 days for
// records of a day or finer (the live clients re-read the last 3 days on
// every run, section 4.4), 62 days for monthly records, and two years for
// yearly statistics, which are published provisional and made final the
// year after.
func Settling(d *dataset.Dataset) time.Duration {
	if s, ok := settling[d.Name]; ok {
		return s
	}
	switch d.Grain {
	case dataset.Month:
		return 62 * day
	case dataset.Year:
		return 730 * day
	}
	return 3 * day
}
