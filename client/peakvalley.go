package client

import (
	"context"
	"fmt"
	"net/url"
	"sync"
	"time"
)

// romeZone is the zone the API gives instants in.
const romeZone = "Europe/Rome"

// loadRome reads Europe/Rome from the zone database once: time.LoadLocation
// reads the database on every call, which Record.Time would otherwise do
// for every record. Nil without a zone database (the offset still
// decides). An immutable value computed on first use, not state.
var loadRome = sync.OnceValue(func() *time.Location {
	loc, err := time.LoadLocation(romeZone)
	if err != nil {
		return nil
	}
	return loc
})

// Extreme says whether a record is a day's peak or its valley.
type Extreme string

// The two kinds of peak-valley record.
const (
	Peak   Extreme = "peak"
	Valley Extreme = "valley"
)

// PeakValleyRecord is a day's maximum or minimum of total demand.
type PeakValleyRecord struct {
	// At is the instant of the peak or valley, in Europe/Rome, with the
	// offset the server gave: in the repeated autumn hour, 02:30 +02:00 and
	// 02:30 +01:00 are different instants.
	At     time.Time
	Kind   Extreme
	LoadGW float64
}

// PeakValley returns the daily peaks and valleys of total demand from from
// to to, both included, in chronological order. A range longer than the
// client's maximum (WithMaxRangeDays) is fetched in consecutive windows,
// one request each, and merged. Errors the server answered are *APIError.
func (c *Client) PeakValley(ctx context.Context, from, to Date) ([]PeakValleyRecord, error) {
	if from.Compare(to) > 0 {
		return nil, fmt.Errorf("client: the range starts on %s, after its end on %s", from, to)
	}
	recs, err := c.Get(ctx, peakValleyPath, url.Values{"dateFrom": {from.String()}, "dateTo": {to.String()}})
	if err != nil {
		return nil, err
	}
	out := make([]PeakValleyRecord, 0, len(recs))
	for i, r := range recs {
		at, err := instant(c.rome, r["date"], r["date_offset"], r["date_tz"])
		if err != nil {
			return nil, recordError("peak-valley", i, "date", r["date"]+" "+r["date_offset"], err)
		}
		n := 0
		for _, v := range []struct {
			kind  Extreme
			field string
		}{{Peak, "peak_load_GW"}, {Valley, "valley_load_GW"}} {
			if r[v.field] == "" {
				continue
			}
			gw, err := parsePoint(r[v.field])
			if err != nil {
				return nil, recordError("peak-valley", i, v.field, r[v.field], err)
			}
			out = append(out, PeakValleyRecord{At: at, Kind: v.kind, LoadGW: gw})
			n++
		}
		if n == 0 {
			return nil, fmt.Errorf("client: peak-valley record %d has neither a peak nor a valley", i)
		}
	}
	return out, nil
}

// instant reads a local wall-clock time and its UTC offset as an instant in
// the named zone. The offset decides the instant; the zone only presents it.
// Without the zone database the instant keeps the offset under the zone's
// name.
func instant(rome *time.Location, date, offset, zone string) (time.Time, error) {
	if zone == "" {
		zone = romeZone
	}
	if offset == "" {
		loc := location(rome, zone)
		if loc == nil {
			return time.Time{}, fmt.Errorf("no offset and zone %q unknown", zone)
		}
		return time.ParseInLocation(time.DateTime, date, loc)
	}
	t, err := time.Parse(time.DateTime+"-07:00", date+offset)
	if err != nil {
		return time.Time{}, err
	}
	if loc := location(rome, zone); loc != nil {
		if in := t.In(loc); sameOffset(in, t) {
			return in, nil
		}
	}
	_, off := t.Zone()
	return t.In(time.FixedZone(zone, off)), nil
}

// location returns the named zone; rome is Europe/Rome, loaded once.
func location(rome *time.Location, zone string) *time.Location {
	if zone == romeZone {
		return rome
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return nil
	}
	return loc
}

func sameOffset(a, b time.Time) bool {
	_, x := a.Zone()
	_, y := b.Zone()
	return x == y
}
