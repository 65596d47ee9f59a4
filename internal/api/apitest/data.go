package apitest

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Rows are records to serve, by dataset name, as the dataset's rows.
type Rows map[string][]dataset.Row

// Snapshot returns the catalogue and a snapshot serving d, each dataset's
// rows imported as they are, and the total load of loads besides.
func Snapshot(d Rows, loads ...energy.LoadPoint) (*dataset.Catalog, *dataset.Snapshot, error) {
	ctx := context.Background()
	c, err := catalog.New()
	if err != nil {
		return nil, nil, err
	}
	m := dataset.NewMemory()
	rows := map[string][]dataset.Row{"total-load": catalog.TotalLoadRows(loads)}
	for name, rs := range d {
		if _, ok := c.Lookup(name); !ok {
			return nil, nil, fmt.Errorf("apitest: the catalogue has no dataset %q", name)
		}
		rows[name] = append(slices.Clone(rs), rows[name]...)
	}
	// One import per dataset, in the catalogue's order, so that data
	// versions do not depend on map order.
	for _, ds := range c.All() {
		if len(rows[ds.Name]) == 0 {
			continue
		}
		if _, err := dataset.Import(ctx, m, c, ds, rows[ds.Name], time.Unix(0, 0)); err != nil {
			return nil, nil, err
		}
	}
	live, err := dataset.NewLive(ctx, c, m)
	if err != nil {
		return nil, nil, err
	}
	return c, live.Snapshot(), nil
}

// Thermo is a record of the thermoelectric dataset as its row: the year's
// first instant in Rome; capacity type, region, province, category and
// subcategory, as the descriptor orders them; production in GWh.
func Thermo(year int, capacityType, region, province, category, subcategory string, gwh float64) dataset.Row {
	return dataset.Row{
		Time: time.Date(year, time.January, 1, 0, 0, 0, 0, energy.Rome()).Unix(),
		Text: []string{capacityType, region, province, category, subcategory},
		Num:  []float64{gwh},
	}
}

// SmallThermo is five thermoelectric records of 2023 and 2022, from which
// the client and CLI tests write their expected answers by hand.
func SmallThermo() []dataset.Row {
	return []dataset.Row{
		Thermo(2023, "Lorda", "Puglia", "Brindisi", "Non cogenerativa", "Condensazione", 5234.5678),
		Thermo(2023, "Netta", "Puglia", "Brindisi", "Non cogenerativa", "Condensazione", 5012.1),
		Thermo(2023, "Lorda", "Puglia", "Taranto", "Cogenerativa", "Contropressione", 0.408),
		Thermo(2023, "Lorda", "Lombardia", "Milano", "Non cogenerativa", "Ciclo combinato", 27389.4),
		Thermo(2022, "Lorda", "Puglia", "Brindisi", "Non cogenerativa", "Condensazione", -16368.385),
	}
}

// PeakValley returns days of published peaks and valleys as rows of the
// peak-valley dataset.
func PeakValley(days ...energy.DayExtremes) []dataset.Row {
	var rows []dataset.Row
	for _, d := range days {
		rows = append(rows, catalog.PeakValleyRows(d)...)
	}
	return rows
}
