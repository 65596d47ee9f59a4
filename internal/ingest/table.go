// Package ingest parses the files that operators import (CSV and XLSX exports
// of the transparency download section, and files in the API's own shape): any
// dataset's files into the machinery's rows (ReadRows), and total load and
// published peaks and valleys into domain records (ParseTotalLoad,
// ParsePeakValley). Parsers are pure: they read an io.Reader and touch no store.
package ingest

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/xuri/excelize/v2"
)

// readFile reads all of an import file, refusing one larger than
// maxFileBytes with an Invalid error.
func readFile(name string, r io.Reader) ([]byte, error) {
	data, err := readAll(io.LimitReader(r, maxFileBytes+1), r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > maxFileBytes {
		return nil, energy.Errorf(energy.Invalid, "%s: file larger than %d MiB", name, maxFileBytes>>20)
	}
	return data, nil
}

// readAll reads lr, the limited reader of r. When r knows its length (the
// bytes of an answer a mirror fetched), into one buffer of that length
// rather than grown to it piece by piece and copied.
func readAll(lr, r io.Reader) ([]byte, error) {
	l, ok := r.(interface{ Len() int })
	if !ok || l.Len() > maxFileBytes {
		return io.ReadAll(lr)
	}
	buf := bytes.NewBuffer(make([]byte, 0, l.Len()+bytes.MinRead))
	_, err := buf.ReadFrom(lr)
	return buf.Bytes(), err
}

// maxFileBytes bounds what one import file may hold, so that a wrong file
// (or a hostile one) cannot exhaust memory.
const maxFileBytes = 512 << 20

// Table is a file's rows of cells, as text, with the line number (1-based) of
// each row as a person opening the file would count it. XLSX cells are raw:
// numbers as stored (decimal point, no grouping) and dates as Excel serial
// numbers (excelize.ExcelDateToTime), never as a locale formats them for display.
type Table struct {
	File  string
	Rows  [][]string
	Lines []int
}

// Format is a file format an importer understands.
type Format string

// File formats.
const (
	CSV  Format = "csv"
	XLSX Format = "xlsx"
	JSON Format = "json"
)

// FormatOf returns the format named by the file's extension.
func FormatOf(name string) (Format, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv", ".txt":
		return CSV, nil
	case ".xlsx", ".xlsm":
		return XLSX, nil
	case ".json":
		return JSON, nil
	}
	return "", energy.Errorf(energy.Invalid, "%s: unknown file type %q (want .csv, .xlsx or .json)", name, filepath.Ext(name))
}

// ReadTable reads a CSV or XLSX file into a Table. CSV may be separated by
// commas or semicolons (Italian spreadsheets write semicolons); the separator
// is taken from the first non-empty line. XLSX is read from its first sheet.
func ReadTable(name string, r io.Reader) (*Table, error) {
	f, err := FormatOf(name)
	if err != nil {
		return nil, err
	}
	switch f {
	case CSV:
		return readCSV(name, r)
	case XLSX:
		return readXLSX(name, r)
	case JSON:
		return readAnswer(name, r)
	}
	return nil, energy.Errorf(energy.Invalid, "%s: not a table (want .csv, .xlsx or .json)", name)
}

func readCSV(name string, r io.Reader) (*Table, error) {
	data, err := readFile(name, r)
	if err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // UTF-8 byte order mark from spreadsheet exports
	if !utf8.Valid(data) {
		return nil, energy.Errorf(energy.Invalid, "%s: not UTF-8 text", name)
	}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.Comma = sniffSeparator(data)
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	t := &Table{File: name}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, energy.Errorf(energy.Invalid, "%s: %v", name, err)
		}
		line, _ := cr.FieldPos(0)
		t.Rows = append(t.Rows, rec)
		t.Lines = append(t.Lines, line)
	}
	return t, nil
}

// sniffSeparator picks ';' when the first lines hold more semicolons than
// commas, else ','. Several lines are counted because a title row above the
// header may hold neither.
func sniffSeparator(data []byte) rune {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	semis, commas := 0, 0
	for lines := 0; lines < 10 && sc.Scan(); lines++ {
		l := sc.Text()
		semis += strings.Count(l, ";")
		commas += strings.Count(l, ",")
	}
	if semis > commas {
		return ';'
	}
	return ','
}

func readXLSX(name string, r io.Reader) (*Table, error) {
	f, err := excelize.OpenReader(io.LimitReader(r, maxFileBytes), excelize.Options{RawCellValue: true, UnzipSizeLimit: 4 * maxFileBytes, UnzipXMLSizeLimit: maxFileBytes})
	if err != nil {
		return nil, energy.Errorf(energy.Invalid, "%s: not a readable XLSX file: %v", name, err)
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return nil, energy.Errorf(energy.Invalid, "%s: workbook has no sheet", name)
	}
	rows, err := f.Rows(sheets[0])
	if err != nil {
		return nil, energy.Errorf(energy.Invalid, "%s: %v", name, err)
	}
	defer rows.Close()
	t := &Table{File: name}
	line := 0
	for rows.Next() {
		line++
		cols, err := rows.Columns(excelize.Options{RawCellValue: true})
		if err != nil {
			return nil, energy.Errorf(energy.Invalid, "%s:%d: %v", name, line, err)
		}
		t.Rows = append(t.Rows, cols)
		t.Lines = append(t.Lines, line)
	}
	if err := rows.Error(); err != nil {
		return nil, energy.Errorf(energy.Invalid, "%s: %v", name, err)
	}
	return t, nil
}

// Header locates the header row: the first row, within the first few, whose
// cells include every required column name (compared case-insensitively, with
// surrounding space ignored). It returns the index of the header row in t.Rows
// and each column name's (as given in cols) cell index; optional columns absent
// from the header are missing from the map. A title row above the header, as
// some exports carry, is skipped.
func (t *Table) Header(required, optional []string) (int, map[string]int, error) {
	const maxTitleRows = 10
	for i := 0; i < len(t.Rows) && i < maxTitleRows; i++ {
		idx := map[string]int{}
		for j, c := range t.Rows[i] {
			c = normalizeHeader(c)
			for _, name := range append(required[:len(required):len(required)], optional...) {
				if c == normalizeHeader(name) {
					if _, dup := idx[name]; dup {
						return 0, nil, t.Errorf(i, "column %q appears twice", name)
					}
					idx[name] = j
				}
			}
		}
		complete := true
		for _, name := range required {
			if _, ok := idx[name]; !ok {
				complete = false
				break
			}
		}
		if complete {
			return i, idx, nil
		}
	}
	return 0, nil, energy.Errorf(energy.Invalid, "%s: no header row with the columns %s", t.File, strings.Join(quoteAll(required), ", "))
}

func normalizeHeader(s string) string {
	return strings.ToLower(strings.TrimSpace(strings.TrimPrefix(s, "\ufeff")))
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// Errorf returns an Invalid error located at row i of the table: "FILE:LINE: reason".
func (t *Table) Errorf(i int, format string, args ...any) error {
	line := i + 1
	if i >= 0 && i < len(t.Lines) {
		line = t.Lines[i]
	}
	return energy.Errorf(energy.Invalid, "%s:%d: %s", t.File, line, fmt.Sprintf(format, args...))
}

// Cell returns row i's cell at column index j, trimmed; "" when the row is short.
func (t *Table) Cell(i, j int) string {
	if j < 0 || j >= len(t.Rows[i]) {
		return ""
	}
	return strings.TrimSpace(t.Rows[i][j])
}

// Blank reports whether row i holds no text at all (trailing empty lines and
// spreadsheet padding rows are skipped, not errors).
func (t *Table) Blank(i int) bool {
	for _, c := range t.Rows[i] {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}
