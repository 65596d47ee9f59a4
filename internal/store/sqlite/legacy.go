package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
)

// legacyTx reads the per-dataset tables of schemas 1 and 2 for
// store.MoveLegacy, within migration 3's transaction.
type legacyTx struct{ partTx }

var _ store.LegacyTx = legacyTx{}

func (l legacyTx) LegacyThermo(ctx context.Context) ([]energy.ThermoRecord, error) {
	rows, err := l.tx.QueryContext(ctx, `SELECT year, capacity_type, region, province, category, subcategory, production_gwh
		FROM thermoelectric`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var recs []energy.ThermoRecord
	for rows.Next() {
		var r energy.ThermoRecord
		if err := rows.Scan(&r.Year, &r.CapacityType, &r.Region, &r.Province, &r.Category, &r.Subcategory, &r.ProductionGWh); err != nil {
			return nil, err
		}
		recs = append(recs, r)
	}
	return recs, rows.Err()
}

func (l legacyTx) LegacyLoadSpan(ctx context.Context) (first, last int64, ok bool, err error) {
	var f, t sql.NullInt64
	if err := l.tx.QueryRowContext(ctx, `SELECT min(ts), max(ts) FROM total_load`).Scan(&f, &t); err != nil {
		return 0, 0, false, err
	}
	return f.Int64, t.Int64, f.Valid, nil
}

func (l legacyTx) LegacyLoad(ctx context.Context, from, to int64) ([]energy.LoadPoint, error) {
	rows, err := l.tx.QueryContext(ctx, `SELECT l.ts, l.zone, z.name, l.total_mw, l.forecast_mw
		FROM total_load l LEFT JOIN zones z ON z.id = l.zone WHERE l.ts >= ? AND l.ts < ?`, from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var pts []energy.LoadPoint
	for rows.Next() {
		var ts, code int64
		var zone sql.NullString
		var total float64
		var forecast sql.NullFloat64
		if err := rows.Scan(&ts, &code, &zone, &total, &forecast); err != nil {
			return nil, err
		}
		if !zone.Valid {
			return nil, fmt.Errorf("zone code %d has no name", code)
		}
		p := energy.LoadPoint{At: time.Unix(ts, 0), Zone: energy.Zone(zone.String), TotalMW: total, ForecastMW: math.NaN()}
		if forecast.Valid {
			p.ForecastMW = forecast.Float64
		}
		pts = append(pts, p)
	}
	return pts, rows.Err()
}

func (l legacyTx) LegacyPeakValley(ctx context.Context) ([]energy.DayExtremes, error) {
	rows, err := l.tx.QueryContext(ctx, `SELECT day, peak_ts, peak_gw, valley_ts, valley_gw
		FROM peak_valley WHERE source = 'imported'`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var days []energy.DayExtremes
	for rows.Next() {
		var day string
		var peakTS, valleyTS int64
		var d energy.DayExtremes
		if err := rows.Scan(&day, &peakTS, &d.Peak.GW, &valleyTS, &d.Valley.GW); err != nil {
			return nil, err
		}
		t, err := time.Parse(time.DateOnly, day)
		if err != nil {
			return nil, fmt.Errorf("day %q: %w", day, err)
		}
		d.Day = energy.Date{Year: t.Year(), Month: t.Month(), Day: t.Day()}
		d.Peak.At, d.Valley.At = time.Unix(peakTS, 0), time.Unix(valleyTS, 0)
		days = append(days, d)
	}
	return days, rows.Err()
}
