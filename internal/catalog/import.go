package catalog

import (
	"context"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// ImportData imports thermoelectric records, days of published peaks and
// valleys and quarter hours of total load into w, one transaction per
// dataset that has records, and returns each dataset's counts.
func ImportData(ctx context.Context, w dataset.PartWriter, c *dataset.Catalog, thermo []energy.ThermoRecord, days []energy.DayExtremes, loads []energy.LoadPoint, at time.Time) (map[string]energy.ImportStats, error) {
	var th, pv, tl []dataset.Row
	for _, r := range thermo {
		th = append(th, ThermoRow(r))
	}
	for _, day := range days {
		pv = append(pv, PeakValleyRows(day)...)
	}
	tl = TotalLoadRows(loads)
	out := map[string]energy.ImportStats{}
	for _, im := range []struct {
		name string
		rows []dataset.Row
	}{{"thermoelectric", th}, {"total-load", tl}, {"peak-valley", pv}} {
		ds, ok := c.Lookup(im.name)
		if !ok || len(im.rows) == 0 {
			continue
		}
		st, err := dataset.Import(ctx, w, c, ds, im.rows, at)
		if err != nil {
			return out, err
		}
		out[im.name] = st
	}
	return out, nil
}
