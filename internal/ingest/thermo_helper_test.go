package ingest_test

import (
	"io"
	"time"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/ingest"
)

// parseThermo reads a thermoelectric file as import does, through the
// generic reader and the dataset's declaration, and returns its records.
func parseThermo(name string, r io.Reader) ([]energy.ThermoRecord, error) {
	c, err := catalog.New()
	if err != nil {
		return nil, err
	}
	d, _ := c.Lookup("thermoelectric")
	rows, err := ingest.ReadRows(c, d, name, r)
	if err != nil {
		return nil, err
	}
	out := make([]energy.ThermoRecord, len(rows))
	for i, row := range rows {
		out[i] = energy.ThermoRecord{
			Year:         time.Unix(row.Time, 0).In(energy.Rome()).Year(),
			CapacityType: row.Text[0], Region: row.Text[1], Province: row.Text[2], Category: row.Text[3], Subcategory: row.Text[4],
			ProductionGWh: row.Num[0],
		}
	}
	return out, nil
}
