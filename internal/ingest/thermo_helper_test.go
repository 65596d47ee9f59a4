package ingest_test

import (
	"io"
	"testing"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/ingest"
)

// thermoDataset returns the catalogue and its thermoelectric dataset.
func thermoDataset(tb testing.TB) (*dataset.Catalog, *dataset.Dataset) {
	tb.Helper()
	c, err := catalog.New()
	if err != nil {
		tb.Fatal(err)
	}
	d, ok := c.Lookup("thermoelectric")
	if !ok {
		tb.Fatal("catalogue lacks thermoelectric")
	}
	return c, d
}

// parseThermo reads a thermoelectric file as import does, through the
// generic reader and the dataset's declaration, and returns its rows.
func parseThermo(tb testing.TB, name string, r io.Reader) ([]dataset.Row, error) {
	c, d := thermoDataset(tb)
	return ingest.ReadRows(c, d, name, r)
}

// workbook returns an XLSX file holding rows on its first sheet.
func workbook(tb testing.TB, rows [][]any) []byte { return ingest.Workbook(tb, rows) }
