package bulk

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Writer settings, pinned: the same records must give the same bytes on
// every replica and after every restart, for the file's SHA-256 is in the
// manifest and mirrors compare it.
const (
	// rowGroupRows is where a row group is cut, at the next change of
	// Europe/Rome day: groups of whole days, each with its own min and max
	// instant, let a reader skip by time (a month of total-load is three).
	rowGroupRows = 8192
	// writeBatch is how many rows are handed to the writer at once.
	writeBatch = 1024
	// createdBy names the writer in the footer, with no build or date in it.
	createdByApp, createdByVersion = "energyapi", "bulk-1"
)

// parquetColumn is one column of a dataset's Parquet files and how a
// record's value is read for it.
type parquetColumn struct {
	name     string
	node     parquet.Node
	optional bool
	// value returns record i's value; ok is false for none (null).
	value func(p *dataset.Part, i int) (v parquet.Value, ok bool)
}

// dictString is a string column written with a dictionary: codes,
// offsets and month names repeat on every row.
func dictString() parquet.Node { return parquet.Encoded(parquet.String(), &parquet.RLEDictionary) }

// parquetColumns returns the columns of d's files, one per field the API
// shows but with typed values: an instant as a UTC timestamp with its
// Europe/Rome offset beside it, a number as a DECIMAL at the precision it
// is published at (a DOUBLE when published with every digit), a text as
// a dictionary-encoded string, a day as a DATE, a year as an INT32. The
// zone fields (Europe/Rome on every row) are left out.
func parquetColumns(d *dataset.Dataset) []parquetColumn {
	var cols []parquetColumn
	text, num := 0, 0
	for _, f := range d.Fields {
		t, n := text, num
		switch f.Kind {
		case dataset.Text:
			text++
		case dataset.Number:
			num++
		}
		if f.Hidden {
			continue
		}
		switch f.Kind {
		case dataset.Instant:
			cols = append(cols, instantColumns(f)...)
		case dataset.YearOf:
			cols = append(cols, parquetColumn{name: f.Name, node: parquet.Int(32), value: func(p *dataset.Part, i int) (parquet.Value, bool) {
				return parquet.Int32Value(int32(rome(p, i).Year())), true
			}})
		case dataset.MonthOf:
			cols = append(cols, parquetColumn{name: f.Name, node: dictString(), value: func(p *dataset.Part, i int) (parquet.Value, bool) {
				return parquet.ByteArrayValue([]byte(energy.MonthName(rome(p, i).Month()))), true
			}})
		case dataset.DateOf:
			cols = append(cols, parquetColumn{name: f.Name, node: parquet.Date(), value: func(p *dataset.Part, i int) (parquet.Value, bool) {
				y, m, day := rome(p, i).Date()
				return parquet.Int32Value(int32(time.Date(y, m, day, 0, 0, 0, 0, time.UTC).Unix() / 86400)), true
			}})
		case dataset.Text:
			cols = append(cols, parquetColumn{name: f.Name, node: dictString(), value: func(p *dataset.Part, i int) (parquet.Value, bool) {
				return parquet.ByteArrayValue([]byte(p.Text(t, i))), true
			}})
		case dataset.Number:
			cols = append(cols, numberColumn(f, n))
		}
	}
	return cols
}

// rome returns record i's moment in Europe/Rome.
func rome(p *dataset.Part, i int) time.Time { return time.Unix(p.Time(i), 0).In(energy.Rome()) }

// instantColumns returns an Instant field's columns: the UTC timestamp
// (milliseconds, Parquet's coarsest unit) and its Europe/Rome offset as
// the API writes it ("+01:00"), named as the API names it, or the field's
// name and "_offset".
func instantColumns(f dataset.Field) []parquetColumn {
	offset := f.Offset
	if offset == "" {
		offset = f.Name + "_offset"
	}
	return []parquetColumn{
		{name: f.Name, node: parquet.Timestamp(parquet.Millisecond), value: func(p *dataset.Part, i int) (parquet.Value, bool) {
			return parquet.Int64Value(p.Time(i) * 1000), true
		}},
		{name: offset, node: dictString(), value: func(p *dataset.Part, i int) (parquet.Value, bool) {
			return parquet.ByteArrayValue(rome(p, i).AppendFormat(nil, "-07:00")), true
		}},
	}
}

// numberColumn returns Number field f's column, the part's number n: a
// DECIMAL(18, d) holding exactly the digits the API publishes, or a DOUBLE
// for a field published with every digit. A record without a value is null.
func numberColumn(f dataset.Field, n int) parquetColumn {
	if f.Format.Decimals < 0 {
		return parquetColumn{name: f.Name, node: parquet.Optional(parquet.Leaf(parquet.DoubleType)), optional: true,
			value: func(p *dataset.Part, i int) (parquet.Value, bool) {
				v := p.Num(n, i)
				return parquet.DoubleValue(v), !math.IsNaN(v)
			}}
	}
	decimals := f.Format.Decimals
	return parquetColumn{name: f.Name, node: parquet.Optional(parquet.Decimal(decimals, 18, parquet.Int64Type)), optional: true,
		value: func(p *dataset.Part, i int) (parquet.Value, bool) {
			v := p.Num(n, i)
			if math.IsNaN(v) {
				return parquet.Value{}, false
			}
			return parquet.Int64Value(unscaled(v, decimals)), true
		}}
}

// unscaled returns v's published digits as an integer: 34.2185 with 3
// decimals is 34219, as strconv rounds it for the API's "34.219".
func unscaled(v float64, decimals int) int64 {
	var buf [40]byte
	s := strings.Replace(string(strconv.AppendFloat(buf[:0], v, 'f', decimals, 64)), ".", "", 1)
	u, _ := strconv.ParseInt(s, 10, 64) // digits of a finite number below 1e15
	return u
}

// encodeParquet writes the records of part, a part of d, as a Parquet
// file with pinned settings: zstd pages, the columns' statistics and page
// index (parquet-go writes both), row groups of whole Europe/Rome days.
func encodeParquet(d *dataset.Dataset, part *dataset.Part) ([]byte, error) {
	cols := parquetColumns(d)
	group := parquet.Group{}
	for _, c := range cols {
		group[c.name] = c.node
	}
	schema := parquet.NewSchema(d.Name, group)
	index := make([]int, len(cols)) // cols[k] is leaf column index[k]
	for k, c := range cols {
		leaf, ok := schema.Lookup(c.name)
		if !ok {
			return nil, fmt.Errorf("bulk: %s: column %s not in its schema", d.Name, c.name)
		}
		index[k] = leaf.ColumnIndex
	}
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, schema,
		parquet.Compression(&parquet.Zstd),
		parquet.CreatedBy(createdByApp, createdByVersion, ""),
		parquet.KeyValueMetadata("energyapi.dataset", d.Name),
		parquet.KeyValueMetadata("energyapi.period", part.ID),
	)
	rows := make([]parquet.Row, 0, writeBatch)
	inGroup, day := 0, ""
	for i := range part.Len() {
		today := rome(part, i).Format(time.DateOnly)
		if inGroup >= rowGroupRows && today != day {
			if err := flushRows(w, &rows, true); err != nil {
				return nil, err
			}
			inGroup = 0
		}
		day = today
		rows = append(rows, parquetRow(cols, index, part, i))
		inGroup++
		if len(rows) == writeBatch {
			if err := flushRows(w, &rows, false); err != nil {
				return nil, err
			}
		}
	}
	if err := flushRows(w, &rows, false); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("bulk: %s %s: %w", d.Name, part.ID, err)
	}
	return buf.Bytes(), nil
}

// parquetRow returns record i of part as a row of cols.
func parquetRow(cols []parquetColumn, index []int, part *dataset.Part, i int) parquet.Row {
	row := make(parquet.Row, len(cols))
	for k, c := range cols {
		v, ok := c.value(part, i)
		switch {
		case !ok:
			v = parquet.NullValue().Level(0, 0, index[k])
		case c.optional:
			v = v.Level(0, 1, index[k])
		default:
			v = v.Level(0, 0, index[k])
		}
		row[index[k]] = v
	}
	return row
}

// flushRows writes rows to w and empties them, then with endGroup ends
// the row group.
func flushRows(w *parquet.Writer, rows *[]parquet.Row, endGroup bool) error {
	if len(*rows) > 0 {
		if _, err := w.WriteRows(*rows); err != nil {
			return fmt.Errorf("bulk: write rows: %w", err)
		}
		*rows = (*rows)[:0]
	}
	if endGroup {
		return w.Flush()
	}
	return nil
}
