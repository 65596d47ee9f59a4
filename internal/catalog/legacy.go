package catalog

import (
	"context"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// ImportData imports the records of d (thermoelectric records, and days of
// peaks and valleys as published values) and of loads (total load) into w.
func ImportData(ctx context.Context, w dataset.PartWriter, c *dataset.Catalog, d energy.Data, loads []energy.LoadPoint, at time.Time) error {
	var thermo, pv, tl []dataset.Row
	for _, r := range d.Thermo {
		thermo = append(thermo, ThermoRow(r))
	}
	for _, day := range d.PeakValley {
		pv = append(pv, PeakValleyRows(day)...)
	}
	for _, p := range loads {
		tl = append(tl, TotalLoadRow(p))
	}
	for name, rows := range map[string][]dataset.Row{"thermoelectric": thermo, "peak-valley": pv, "total-load": tl} {
		ds, ok := c.Lookup(name)
		if !ok || len(rows) == 0 {
			continue
		}
		if _, err := dataset.Import(ctx, w, c, ds, rows, at); err != nil {
			return err
		}
	}
	return nil
}

// LegacySource serves a store's energy.Data (thermoelectric production and
// the peaks and valleys it keeps per day) as parts, reading all of it
// whenever its data version changes.
type LegacySource struct {
	Source  energy.Source
	Catalog *dataset.Catalog
}

// DataVersion implements dataset.PartSource.
func (l LegacySource) DataVersion(ctx context.Context) (int64, error) {
	return l.Source.DataVersion(ctx)
}

// ChangedParts implements dataset.PartSource: every part, versioned with
// the store's data version.
func (l LegacySource) ChangedParts(ctx context.Context, _ map[dataset.PartRef]int64) (dataset.Changes, error) {
	d, err := l.Source.ReadData(ctx)
	if err != nil {
		return dataset.Changes{}, err
	}
	m := dataset.NewMemory()
	if err := ImportData(ctx, m, l.Catalog, d, nil, d.Updated); err != nil {
		return dataset.Changes{}, err
	}
	ch, err := m.ChangedParts(ctx, nil)
	if err != nil {
		return dataset.Changes{}, err
	}
	for i := range ch.Parts {
		ch.Parts[i].Version = d.Version
	}
	ch.Version, ch.Updated = d.Version, d.Updated
	return ch, nil
}
