package api

import (
	"log/slog"
	"net/http"
	"net/url"
	"strconv"

	"github.com/energyapi/energyapi/internal/energy"
)

type thermoResponse struct {
	Result         result         `json:"result"`
	Thermoelectric []thermoRecord `json:"thermoelectric"`
}

// thermoRecord is spec 2.3: every field a string.
type thermoRecord struct {
	Year          string `json:"year"`
	CapacityType  string `json:"capacity_type"`
	Region        string `json:"region"`
	Province      string `json:"province"`
	Category      string `json:"category"`
	Subcategory   string `json:"subcategory"`
	ProductionGWh string `json:"production_GWh"`
}

func parseThermoQuery(q url.Values) (energy.ThermoQuery, error) {
	var tq energy.ThermoQuery
	year, err := single(q, "year", true)
	if err != nil {
		return tq, err
	}
	if tq.Year, err = strconv.Atoi(year); err != nil {
		return tq, energy.Errorf(energy.Invalid, "parameter year value %q does not conform to an integer year", year)
	}
	if tq.Region, err = single(q, "region", false); err != nil {
		return tq, err
	}
	if tq.Category, err = single(q, "category", false); err != nil {
		return tq, err
	}
	if tq.Subcategory, err = single(q, "subcategory", false); err != nil {
		return tq, err
	}
	tq.Provinces = many(q, "province")
	return tq, nil
}

func handleThermoelectric(log *slog.Logger, data func() *energy.Snapshot) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q, err := parseThermoQuery(r.URL.Query())
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		recs, known := data().Thermo.Query(q)
		if !known {
			writeEmpty(w)
			return
		}
		out := thermoResponse{Result: result{Message: "OK", Status: statusCompleted}, Thermoelectric: make([]thermoRecord, len(recs))}
		for i, rec := range recs {
			out.Thermoelectric[i] = thermoRecord{
				Year:          strconv.Itoa(rec.Year),
				CapacityType:  rec.CapacityType,
				Region:        rec.Region,
				Province:      rec.Province,
				Category:      rec.Category,
				Subcategory:   rec.Subcategory,
				ProductionGWh: energy.FormatItalian(rec.ProductionGWh),
			}
		}
		encode(w, http.StatusOK, out)
	})
}
