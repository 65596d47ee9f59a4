package apitest

import (
	"context"
	"time"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Snapshot returns the catalogue and a snapshot serving d: its
// thermoelectric records and its days of peaks and valleys, imported as
// such, and the total load of loads.
func Snapshot(d energy.Data, loads ...energy.LoadPoint) (*dataset.Catalog, *dataset.Snapshot, error) {
	ctx := context.Background()
	c, err := catalog.New()
	if err != nil {
		return nil, nil, err
	}
	m := dataset.NewMemory()
	if _, err := catalog.ImportData(ctx, m, c, d.Thermo, d.PeakValley, loads, time.Unix(0, 0)); err != nil {
		return nil, nil, err
	}
	live, err := dataset.NewLive(ctx, c, m)
	if err != nil {
		return nil, nil, err
	}
	return c, live.Snapshot(), nil
}
