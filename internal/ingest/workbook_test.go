package ingest

import (
	"bytes"
	"testing"

	"github.com/xuri/excelize/v2"
)

// workbook returns an XLSX file holding rows on its first sheet, one row a
// slice of cells.
func workbook(tb testing.TB, rows [][]any) []byte {
	tb.Helper()
	f := excelize.NewFile()
	defer f.Close()
	sheet := f.GetSheetName(0)
	for i, r := range rows {
		cell, err := excelize.CoordinatesToCellName(1, i+1)
		if err != nil {
			tb.Fatal(err)
		}
		if err := f.SetSheetRow(sheet, cell, &r); err != nil {
			tb.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// Workbook is workbook for the tests of package ingest_test.
var Workbook = workbook
