package ingest

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/xuri/excelize/v2"
)

// Column names of the total-load download files.
const (
	colLoadDate     = "Date"
	colLoadTotal    = "Total Load [MW]"
	colLoadForecast = "Forecast Total load [MW]"
	colLoadZone     = "Bidding zone"
)

// ParseTotalLoad reads a total-load file of the transparency download section:
// CSV or XLSX with the columns Date, Total Load [MW], Forecast Total load [MW]
// (optional) and Bidding zone, one row per quarter hour and zone, below an
// optional title row. It returns the points ordered by instant, then in the
// order of energy.Zones(), with At in Europe/Rome.
//
// Dates are Europe/Rome wall clock, "dd/mm/yyyy hh:mm:ss" (day, month and hour
// may be unpadded, seconds may be left out, " AM"/" PM" selects the 12-hour
// clock) or, in XLSX, Excel date cells. Rows may run oldest first or newest
// first; the direction is read per zone from its first and last row, and it
// is what tells the two occurrences of the repeated autumn hour apart: the
// chronologically earlier one is +02:00, the later +01:00. Zone names match
// energy.Zones() ignoring case and treating hyphens, underscores and spaces
// alike, so "Centre North" and "CENTRE_NORTH" are Centre-North. An absent
// forecast column or empty forecast cell gives a NaN forecast.
//
// It returns an error with code Invalid, "FILE:LINE: reason", for the first
// row that is malformed, is off the quarter hour, names a wall time that does
// not exist in Europe/Rome, or repeats a zone and instant; a repeated-hour
// wall time that appears once only or three times is an error too, because
// its offset cannot be told, and so is a file without data rows.
func ParseTotalLoad(name string, r io.Reader) ([]energy.LoadPoint, error) {
	t, err := ReadTable(name, r)
	if err != nil {
		return nil, err
	}
	hdr, col, err := t.Header([]string{colLoadDate, colLoadTotal, colLoadZone}, []string{colLoadForecast})
	if err != nil {
		return nil, err
	}
	format, err := FormatOf(name)
	if err != nil {
		return nil, err
	}
	lr := &loadReader{t: t, col: col, xlsx: format == XLSX, zones: energy.Zones(), zoneOf: map[string]int{}}
	rows, err := lr.readRows(hdr)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, energy.Errorf(energy.Invalid, "%s: no data rows below the header", t.File)
	}
	if err := lr.chooseInstants(rows); err != nil {
		return nil, err
	}
	slices.SortFunc(rows, func(a, b loadRow) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.zone, b.zone))
	})
	pts := make([]energy.LoadPoint, len(rows))
	for k, rw := range rows {
		pts[k] = energy.LoadPoint{
			At:         time.Unix(rw.at, 0).In(energy.Rome()),
			Zone:       lr.zones[rw.zone],
			TotalMW:    rw.total,
			ForecastMW: rw.forecast,
		}
	}
	return pts, nil
}

// loadReader reads the data rows of a total-load table.
type loadReader struct {
	t      *Table
	col    map[string]int // column index by header name
	xlsx   bool           // date cells may be Excel serial numbers
	zones  []energy.Zone
	zoneOf map[string]int // index in zones of each zone cell read so far
}

// loadRow is a data row of a total-load file.
type loadRow struct {
	i        int // index in t.Rows
	wall     int64
	zone     int // index in zones
	total    float64
	forecast float64
	early    int64 // the instant, or the earlier one in the repeated hour
	late     int64 // the later instant in the repeated hour, else early
	pair     int   // index in rows of the other occurrence of a repeated wall time, or -1
	second   bool  // the later of the pair in file order
	at       int64 // the instant chosen
}

// repeated reports whether the row's wall time is in the repeated autumn
// hour, which two instants share.
func (rw loadRow) repeated() bool { return rw.late != rw.early }

// readRows reads the rows below the header hdr in file order, pairing the
// two occurrences of a zone's repeated-hour wall time. It returns an error
// for a bad row, and for a zone and wall time that repeat where they may
// not: outside the repeated hour, or a third time.
func (lr *loadReader) readRows(hdr int) ([]loadRow, error) {
	t := lr.t
	type zoneWall struct {
		zone int
		wall int64
	}
	rows := make([]loadRow, 0, len(t.Rows)-hdr)
	firstRow := make(map[zoneWall]int, len(t.Rows)) // index in rows of the first row with the key
	for i := hdr + 1; i < len(t.Rows); i++ {
		if t.Blank(i) {
			continue
		}
		rw, err := lr.readRow(i)
		if err != nil {
			return nil, err
		}
		key := zoneWall{rw.zone, rw.wall}
		if j, dup := firstRow[key]; !dup {
			firstRow[key] = len(rows)
		} else {
			first := rows[j]
			switch {
			case !rw.repeated():
				return nil, t.Errorf(i, "%s at %s repeats line %d", lr.zones[rw.zone], formatWall(rw.wall), t.Lines[first.i])
			case first.pair >= 0:
				return nil, t.Errorf(i, "%s at %s appears a third time; the repeated hour has two (lines %d and %d)",
					lr.zones[rw.zone], formatWall(rw.wall), t.Lines[first.i], t.Lines[rows[first.pair].i])
			}
			rows[j].pair, rw.pair, rw.second = len(rows), j, true
		}
		rows = append(rows, rw)
	}
	return rows, nil
}

// readRow reads the cells of row i: a wall time on the quarter hour that
// exists in Europe/Rome, a zone, a plausible load and forecast.
func (lr *loadReader) readRow(i int) (loadRow, error) {
	t, col, zones := lr.t, lr.col, lr.zones
	cell := t.Cell(i, col[colLoadDate])
	wall, err := parseLoadWall(cell, lr.xlsx)
	if err != nil {
		return loadRow{}, t.Errorf(i, "%s %q: %v", colLoadDate, cell, err)
	}
	if err := onQuarterHour(wall); err != nil {
		return loadRow{}, t.Errorf(i, "%s %s: %v", colLoadDate, formatWall(wall), err)
	}
	early, late, n := romeInstants(wall)
	if n == 0 {
		return loadRow{}, t.Errorf(i, "%s %s does not exist in Europe/Rome (the clocks skip that hour)", colLoadDate, formatWall(wall))
	}
	zcell := t.Cell(i, col[colLoadZone])
	zone, ok := lr.zone(zcell)
	if !ok {
		return loadRow{}, t.Errorf(i, "%s %q is not one of %s", colLoadZone, zcell, zoneList(zones))
	}
	total, err := parseLoadMW(t.Cell(i, col[colLoadTotal]), zones[zone])
	if err != nil {
		return loadRow{}, t.Errorf(i, "%s: %v", colLoadTotal, err)
	}
	forecast := math.NaN()
	forecastCol, hasForecast := col[colLoadForecast]
	if c := t.Cell(i, forecastCol); hasForecast && c != "" {
		if forecast, err = parseLoadMW(c, zones[zone]); err != nil {
			return loadRow{}, t.Errorf(i, "%s: %v", colLoadForecast, err)
		}
	}
	return loadRow{i: i, wall: wall, zone: zone, total: total, forecast: forecast, early: early, late: late, pair: -1}, nil
}

// chooseInstants sets each row's instant. Each zone's rows run one way,
// oldest or newest first; that decides which occurrence of a repeated wall
// time is the earlier instant. A repeated-hour wall time that appears once
// is an error: its offset cannot be told.
func (lr *loadReader) chooseInstants(rows []loadRow) error {
	firstWall, lastWall := make([]int64, len(lr.zones)), make([]int64, len(lr.zones))
	seen := make([]bool, len(lr.zones))
	for _, rw := range rows {
		if !seen[rw.zone] {
			seen[rw.zone], firstWall[rw.zone] = true, rw.wall
		}
		lastWall[rw.zone] = rw.wall
	}
	for k := range rows {
		rw := &rows[k]
		rw.at = rw.early
		if !rw.repeated() {
			continue
		}
		if rw.pair < 0 {
			return lr.t.Errorf(rw.i, "%s at %s appears once; the repeated autumn hour needs both rows to tell +02:00 from +01:00",
				lr.zones[rw.zone], formatWall(rw.wall))
		}
		if newestFirst := lastWall[rw.zone] < firstWall[rw.zone]; rw.second != newestFirst {
			rw.at = rw.late
		}
	}
	return nil
}

// parseLoadWall reads a total-load timestamp as the Unix seconds of its
// wall-clock reading taken as UTC. XLSX date cells hold Excel serial numbers;
// text is accepted from either format.
func parseLoadWall(s string, excel bool) (int64, error) {
	if excel && !strings.Contains(s, "/") {
		return excelWall(s)
	}
	datePart, rest, _ := strings.Cut(s, " ")
	d, err := energy.ParseDate(datePart)
	if err != nil {
		return 0, fmt.Errorf("want dd/mm/yyyy hh:mm:ss")
	}
	clock, ampm, _ := strings.Cut(strings.TrimLeft(rest, " "), " ")
	h, m, sec, ok := parseClock(clock)
	if !ok {
		return 0, fmt.Errorf("want dd/mm/yyyy hh:mm:ss")
	}
	switch strings.ToUpper(strings.TrimSpace(ampm)) {
	case "":
		if h > 23 {
			return 0, fmt.Errorf("hour %d is past 23", h)
		}
	case "AM", "PM":
		if h < 1 || h > 12 {
			return 0, fmt.Errorf("hour %d is not 1 to 12 on the 12-hour clock", h)
		}
		h %= 12 // 12 AM is midnight
		if strings.EqualFold(strings.TrimSpace(ampm), "PM") {
			h += 12
		}
	default:
		return 0, fmt.Errorf("%q after the time is neither AM nor PM", strings.TrimSpace(ampm))
	}
	if m > 59 || sec > 59 {
		return 0, fmt.Errorf("want minutes and seconds from 00 to 59")
	}
	return time.Date(d.Year, d.Month, d.Day, h, m, sec, 0, time.UTC).Unix(), nil
}

// parseClock reads h:mm or h:mm:ss (the hour in one or two digits).
func parseClock(s string) (h, m, sec int, ok bool) {
	parts := strings.Split(s, ":")
	if len(parts) != 2 && len(parts) != 3 {
		return 0, 0, 0, false
	}
	var n [3]int
	for k, p := range parts {
		if len(p) != 2 && !(k == 0 && len(p) == 1) {
			return 0, 0, 0, false
		}
		for _, c := range []byte(p) {
			if c < '0' || c > '9' {
				return 0, 0, 0, false
			}
			n[k] = n[k]*10 + int(c-'0')
		}
	}
	return n[0], n[1], n[2], true
}

// maxExcelSerial is 31/12/9999, the last day Excel represents.
const maxExcelSerial = 2958465

// excelWall converts an Excel serial date (1900 date system) to the Unix
// seconds of its wall-clock reading taken as UTC, rounded to the second
// because serials carry binary fractions of a day.
func excelWall(s string) (int64, error) {
	serial, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(serial) || serial < 1 || serial >= maxExcelSerial+1 {
		return 0, fmt.Errorf("not a date: want an Excel date cell or dd/mm/yyyy hh:mm:ss text")
	}
	t, err := excelize.ExcelDateToTime(serial, false)
	if err != nil {
		return 0, fmt.Errorf("not a date: %v", err)
	}
	return t.Round(time.Second).Unix(), nil
}

// onQuarterHour reports an error unless wall is hh:00, hh:15, hh:30 or hh:45
// with zero seconds, in a year of the domain's range (before 1893 Rome kept
// local mean time, whose quarter hours are not the UTC ones).
func onQuarterHour(wall int64) error {
	t := time.Unix(wall, 0).UTC()
	if y := t.Year(); y < energy.MinYear || y > energy.MaxYear {
		return fmt.Errorf("year %d is outside %d..%d", y, energy.MinYear, energy.MaxYear)
	}
	if t.Second() != 0 || t.Minute()%15 != 0 {
		return fmt.Errorf("not on a quarter hour (want minutes 00, 15, 30 or 45 and seconds 00)")
	}
	return nil
}

// romeInstants returns the instants (Unix seconds) at which Europe/Rome's
// clocks read wall: n is 0 inside the spring gap, 2 in the repeated autumn
// hour (early before late) and 1 otherwise (early == late).
func romeInstants(wall int64) (early, late int64, n int) {
	// Transitions are months apart, so the offsets a day either side are
	// the only ones that can apply.
	var found [2]int64
	for _, probe := range [2]int64{wall - 86400, wall + 86400} {
		_, off := time.Unix(probe, 0).In(energy.Rome()).Zone()
		u := wall - int64(off)
		if _, got := time.Unix(u, 0).In(energy.Rome()).Zone(); got != off {
			continue
		}
		if n == 1 && found[0] == u {
			continue
		}
		found[n] = u
		n++
	}
	switch n {
	case 0:
		return 0, 0, 0
	case 1:
		return found[0], found[0], 1
	}
	return min(found[0], found[1]), max(found[0], found[1]), 2
}

// formatWall renders a wall-clock reading as the download files write it.
func formatWall(wall int64) string {
	return time.Unix(wall, 0).UTC().Format("02/01/2006 15:04:05")
}

// zone finds a zone cell among the zones as zoneIndex does, once for each
// spelling: a file names its few zones again on every row.
func (lr *loadReader) zone(cell string) (int, bool) {
	if i, ok := lr.zoneOf[cell]; ok {
		return i, true
	}
	i, ok := zoneIndex(lr.zones, cell)
	if ok {
		lr.zoneOf[cell] = i
	}
	return i, ok
}

// zoneIndex finds s among zones, ignoring case and treating hyphens,
// underscores and runs of spaces alike.
func zoneIndex(zones []energy.Zone, s string) (int, bool) {
	key := zoneKey(s)
	for i, z := range zones {
		if zoneKey(string(z)) == key {
			return i, true
		}
	}
	return 0, false
}

func zoneKey(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return r == '-' || r == '_' || r == ' ' || r == '\t'
	}), " ")
}

func zoneList(zones []energy.Zone) string {
	names := make([]string, len(zones))
	for i, z := range zones {
		names[i] = string(z)
	}
	return strings.Join(names, ", ")
}

// Plausible loads, MW: Italy's demand has stayed between about 17 and 60 GW,
// and no bidding zone alone comes near 40 GW. A value outside these is a
// wrong column, a unit slip (GW read as MW: 28.385 for 28,385) or a corrupt
// file, and importing it would serve nonsense.
const (
	minItalyMW = 10_000
	maxItalyMW = 70_000
	maxZoneMW  = 40_000
)

// parseLoadMW reads a load of zone in MW and checks it is plausible.
func parseLoadMW(s string, zone energy.Zone) (float64, error) {
	if s == "" {
		return 0, fmt.Errorf("empty")
	}
	v, err := energy.ParseNumber(s)
	if err != nil {
		return 0, err
	}
	switch {
	case v < 0:
		return 0, fmt.Errorf("%q is negative", s)
	case zone == energy.Italy && (v < minItalyMW || v > maxItalyMW):
		return 0, fmt.Errorf("%q MW is not a plausible load for Italy (%d to %d MW)", s, minItalyMW, maxItalyMW)
	case zone != energy.Italy && v > maxZoneMW:
		return 0, fmt.Errorf("%q MW is not a plausible load for %s (at most %d MW)", s, zone, maxZoneMW)
	}
	return v, nil
}
