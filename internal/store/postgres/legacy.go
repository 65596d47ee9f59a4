package postgres

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
	"github.com/jackc/pgx/v5"
)

// legacyTx reads the per-dataset tables of schemas 1 and 2 for
// store.MoveLegacy, within migration 3's transaction.
type legacyTx struct{ partTx }

var _ store.LegacyTx = legacyTx{}

func (l legacyTx) LegacyThermo(ctx context.Context) ([]energy.ThermoRecord, error) {
	rows, err := l.tx.Query(ctx, `SELECT year, capacity_type, region, province, category, subcategory, production_gwh
		FROM thermoelectric`)
	if err != nil {
		return nil, err
	}
	var recs []energy.ThermoRecord
	var r energy.ThermoRecord
	_, err = pgx.ForEachRow(rows, []any{&r.Year, &r.CapacityType, &r.Region, &r.Province, &r.Category, &r.Subcategory, &r.ProductionGWh}, func() error {
		recs = append(recs, r)
		return nil
	})
	return recs, err
}

func (l legacyTx) LegacyLoadSpan(ctx context.Context) (first, last int64, ok bool, err error) {
	var f, t *time.Time
	if err := l.tx.QueryRow(ctx, `SELECT min(ts), max(ts) FROM total_load`).Scan(&f, &t); err != nil {
		return 0, 0, false, err
	}
	if f == nil {
		return 0, 0, false, nil
	}
	return f.Unix(), t.Unix(), true, nil
}

func (l legacyTx) LegacyLoad(ctx context.Context, from, to int64) ([]energy.LoadPoint, error) {
	rows, err := l.tx.Query(ctx, `SELECT l.ts, l.zone, z.name, l.total_mw, l.forecast_mw
		FROM total_load l LEFT JOIN zones z ON z.id = l.zone WHERE l.ts >= $1 AND l.ts < $2`,
		time.Unix(from, 0).UTC(), time.Unix(to, 0).UTC())
	if err != nil {
		return nil, err
	}
	var pts []energy.LoadPoint
	var ts time.Time
	var code int16
	var zone *string
	var total float64
	var forecast *float64
	_, err = pgx.ForEachRow(rows, []any{&ts, &code, &zone, &total, &forecast}, func() error {
		if zone == nil {
			return fmt.Errorf("zone code %d has no name", code)
		}
		p := energy.LoadPoint{At: ts, Zone: energy.Zone(*zone), TotalMW: total, ForecastMW: math.NaN()}
		if forecast != nil {
			p.ForecastMW = *forecast
		}
		pts = append(pts, p)
		return nil
	})
	return pts, err
}

func (l legacyTx) LegacyPeakValley(ctx context.Context) ([]energy.DayExtremes, error) {
	rows, err := l.tx.Query(ctx, `SELECT day, peak_ts, peak_gw, valley_ts, valley_gw
		FROM peak_valley WHERE source = 'imported'`)
	if err != nil {
		return nil, err
	}
	var days []energy.DayExtremes
	var day time.Time
	var d energy.DayExtremes
	_, err = pgx.ForEachRow(rows, []any{&day, &d.Peak.At, &d.Peak.GW, &d.Valley.At, &d.Valley.GW}, func() error {
		d.Day = energy.Date{Year: day.Year(), Month: day.Month(), Day: day.Day()}
		days = append(days, d)
		return nil
	})
	return days, err
}
