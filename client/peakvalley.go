package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"time"
)

// romeZone is the zone the API gives instants in.
const romeZone = "Europe/Rome"

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

type wirePeakValley struct {
	Result         wireResult `json:"result"`
	PeakValleyLoad []struct {
		Date         string `json:"date"`
		DateTZ       string `json:"date_tz"`
		DateOffset   string `json:"date_offset"`
		PeakLoadGW   string `json:"peak_load_GW"`
		ValleyLoadGW string `json:"valley_load_GW"`
	} `json:"peak_valley_load"`
}

// PeakValley returns the daily peaks and valleys of total demand from from
// to to, both included, in chronological order. A range longer than the
// client's maximum (WithMaxRangeDays) is fetched in consecutive windows,
// one request each, and merged. Errors the server answered are *APIError.
func (c *Client) PeakValley(ctx context.Context, from, to Date) ([]PeakValleyRecord, error) {
	if from.Compare(to) > 0 {
		return nil, fmt.Errorf("client: the range starts on %s, after its end on %s", from, to)
	}
	windows := splitRange(from, to, c.maxDays)
	var out []PeakValleyRecord
	for i, w := range windows {
		if c.progress != nil {
			c.progress(Progress{Request: i + 1, Requests: len(windows), From: w.from, To: w.to})
		}
		body, err := c.get(ctx, peakValleyPath, url.Values{"dateFrom": {w.from.String()}, "dateTo": {w.to.String()}})
		if err != nil {
			if len(windows) > 1 {
				return nil, fmt.Errorf("client: window %s to %s: %w", w.from, w.to, err)
			}
			return nil, err
		}
		recs, err := c.parsePeakValley(body)
		if err != nil {
			return nil, err
		}
		out = append(out, recs...)
	}
	return out, nil
}

func (c *Client) parsePeakValley(body []byte) ([]PeakValleyRecord, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, nil // an empty body means no records, as on the yearly endpoints
	}
	var w wirePeakValley
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, fmt.Errorf("client: peak-valley answer: %w", err)
	}
	out := make([]PeakValleyRecord, 0, len(w.PeakValleyLoad))
	for i, r := range w.PeakValleyLoad {
		at, err := c.instant(r.Date, r.DateOffset, r.DateTZ)
		if err != nil {
			return nil, recordError("peak-valley", i, "date", r.Date+" "+r.DateOffset, err)
		}
		n := 0
		for _, v := range []struct {
			kind  Extreme
			field string
			value string
		}{{Peak, "peak_load_GW", r.PeakLoadGW}, {Valley, "valley_load_GW", r.ValleyLoadGW}} {
			if v.value == "" {
				continue
			}
			gw, err := parsePoint(v.value)
			if err != nil {
				return nil, recordError("peak-valley", i, v.field, v.value, err)
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
func (c *Client) instant(date, offset, zone string) (time.Time, error) {
	if zone == "" {
		zone = romeZone
	}
	if offset == "" {
		loc := c.location(zone)
		if loc == nil {
			return time.Time{}, fmt.Errorf("no offset and zone %q unknown", zone)
		}
		return time.ParseInLocation(time.DateTime, date, loc)
	}
	t, err := time.Parse(time.DateTime+"-07:00", date+offset)
	if err != nil {
		return time.Time{}, err
	}
	if loc := c.location(zone); loc != nil {
		if in := t.In(loc); sameOffset(in, t) {
			return in, nil
		}
	}
	_, off := t.Zone()
	return t.In(time.FixedZone(zone, off)), nil
}

func (c *Client) location(zone string) *time.Location {
	if zone == romeZone {
		return c.rome
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
