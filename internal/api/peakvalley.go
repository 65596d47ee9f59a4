package api

import (
	"log/slog"
	"net/http"
	"net/url"
	"strconv"

	"github.com/energyapi/energyapi/internal/energy"
)

type peakValleyResponse struct {
	Result         result             `json:"result"`
	PeakValleyLoad []peakValleyRecord `json:"peak_valley_load"`
}

// peakValleyRecord is spec 2.4: a record carries either the peak or the valley.
type peakValleyRecord struct {
	Date         string `json:"date"`
	DateTZ       string `json:"date_tz"`
	DateOffset   string `json:"date_offset"`
	PeakLoadGW   string `json:"peak_load_GW"`
	ValleyLoadGW string `json:"valley_load_GW"`
}

type dateRange struct{ from, to energy.Date }

func parseDateRange(q url.Values, maxDays int) (dateRange, error) {
	var dr dateRange
	for _, p := range []struct {
		name string
		dst  *energy.Date
	}{{"dateFrom", &dr.from}, {"dateTo", &dr.to}} {
		s, err := single(q, p.name, true)
		if err != nil {
			return dr, err
		}
		d, err := energy.ParseDate(s)
		if err != nil {
			return dr, energy.Errorf(energy.Invalid, "parameter %s value %q does not conform to a date in the format dd/mm/yyyy", p.name, s)
		}
		*p.dst = d
	}
	if dr.from.Compare(dr.to) > 0 {
		return dr, energy.Errorf(energy.Invalid, "parameter dateFrom value %q is after dateTo value %q", dr.from.DMY(), dr.to.DMY())
	}
	if days := dr.from.DaysUntil(dr.to) + 1; maxDays > 0 && days > maxDays {
		return dr, energy.Errorf(energy.Invalid, "the range from dateFrom %q to dateTo %q spans %d days; at most %d are allowed per request", dr.from.DMY(), dr.to.DMY(), days, maxDays)
	}
	return dr, nil
}

func handlePeakValley(log *slog.Logger, data func() *energy.Snapshot, maxDays int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dr, err := parseDateRange(r.URL.Query(), maxDays)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		days := data().PeakValley.Range(dr.from, dr.to)
		out := peakValleyResponse{
			Result: result{
				Message: "Operation completed for the following input. Date from: " + dr.from.DMY() + ", date to: " + dr.to.DMY(),
				Status:  statusCompleted,
			},
			PeakValleyLoad: make([]peakValleyRecord, 0, 2*len(days)),
		}
		for _, d := range days {
			peak, valley := extremeRecord(d.Peak, true), extremeRecord(d.Valley, false)
			// Chronological order: within a day the earlier of the two comes first.
			if d.Valley.At.Before(d.Peak.At) {
				peak, valley = valley, peak
			}
			out.PeakValleyLoad = append(out.PeakValleyLoad, peak, valley)
		}
		encode(w, http.StatusOK, out)
	})
}

func extremeRecord(e energy.Extreme, peak bool) peakValleyRecord {
	t := e.At.In(energy.Rome())
	rec := peakValleyRecord{Date: t.Format("2006-01-02 15:04:05"), DateTZ: energy.TimeZone, DateOffset: t.Format("-07:00")}
	gw := strconv.FormatFloat(e.GW, 'f', 3, 64)
	if peak {
		rec.PeakLoadGW = gw
	} else {
		rec.ValleyLoadGW = gw
	}
	return rec
}
