package dataset

import "time"

// The encoders write a record's moment as its wall time and its offset,
// two or three values of every record of every time series. Formatting
// them with time.Time.AppendFormat parsed the layout again for each value
// and looked the zone up for each: on a server answering cold weeks of a
// twenty-year archive that was about a sixth of its encoding time
// (scripts/scale). These write the same bytes from the zone's offset,
// looked up once per record.

// wallLayout and offsetLayout are the layouts appendWallTime and
// appendOffset write, and the ones they fall back on.
const (
	wallLayout   = "2006-01-02 15:04:05"
	offsetLayout = "-07:00"
)

// appendWallTime appends t, whose zone is off seconds east of UTC, as
// t.AppendFormat(b, wallLayout) does.
func appendWallTime(b []byte, t time.Time, off int) []byte {
	u := time.Unix(t.Unix()+int64(off), 0).UTC()
	y, mo, d := u.Date()
	if y < 0 {
		return t.AppendFormat(b, wallLayout)
	}
	h, mi, s := u.Clock()
	b = appendPadded(b, y, 4)
	b = append(b, '-')
	b = appendPadded(b, int(mo), 2)
	b = append(b, '-')
	b = appendPadded(b, d, 2)
	b = append(b, ' ')
	b = appendPadded(b, h, 2)
	b = append(b, ':')
	b = appendPadded(b, mi, 2)
	b = append(b, ':')
	return appendPadded(b, s, 2)
}

// appendOffset appends a zone offset of off seconds east of UTC as
// AppendFormat's offsetLayout does: sign, hours and whole minutes.
func appendOffset(b []byte, off int) []byte {
	mins := off / 60
	if mins < 0 {
		b = append(b, '-')
		mins = -mins
	} else {
		b = append(b, '+')
	}
	b = appendPadded(b, mins/60, 2)
	b = append(b, ':')
	return appendPadded(b, mins%60, 2)
}

// appendPadded appends v (not negative) in decimal, with leading zeros to
// width digits.
func appendPadded(b []byte, v, width int) []byte {
	var d [20]byte
	i := len(d)
	for v >= 10 {
		i--
		d[i] = byte('0' + v%10)
		v /= 10
	}
	i--
	d[i] = byte('0' + v)
	for n := len(d) - i; n < width; n++ {
		b = append(b, '0')
	}
	return append(b, d[i:]...)
}

// appendInstant emits the values of Instant field f for the moment t, from
// column col on: its wall time, then its zone's name and its offset where f
// shows them. late writes a repeated hour's second pass a minute late, as
// a view with LateRepeatedHour shows it. It returns buf for reuse and the
// next column.
func appendInstant(buf []byte, emit func(col int, v []byte), col int, f Field, t time.Time, zoneName string, late bool) ([]byte, int) {
	if late && repeatedSecondPass(t) {
		// The wall time a minute late, the offset then being unwritten.
		t = t.Add(time.Minute)
	}
	_, off := t.Zone()
	buf = appendWallTime(buf[:0], t, off)
	emit(col, buf)
	col++
	if f.TZ != "" {
		buf = append(buf[:0], zoneName...)
		emit(col, buf)
		col++
	}
	if f.Offset != "" {
		buf = appendOffset(buf[:0], off)
		emit(col, buf)
		col++
	}
	return buf, col
}
