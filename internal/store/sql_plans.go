package store

import (
	"context"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/limit"
)

// PutPlan creates or replaces the plan of p.Name. It returns an error with
// code Invalid if p.Check refuses it.
func (db *DB) PutPlan(ctx context.Context, p limit.Plan) error {
	if err := p.Check(); err != nil {
		return db.wrap("put plan", err)
	}
	return db.wrap("put plan", db.update(ctx, func(tx Querier) error {
		_, err := tx.Exec(ctx, `INSERT INTO plans (name, per_second, burst, per_day, max_range_days) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (name) DO UPDATE SET per_second = excluded.per_second, burst = excluded.burst,
			per_day = excluded.per_day, max_range_days = excluded.max_range_days`,
			p.Name, p.PerSecond, p.Burst, p.PerDay, p.MaxRangeDays)
		if err != nil {
			return err
		}
		return db.clientsChanged(ctx, tx)
	}))
}

// Plans returns every plan, by name.
func (db *DB) Plans(ctx context.Context) ([]limit.Plan, error) {
	out, err := QueryAll(ctx, db.read, func(row Row) (p limit.Plan, err error) {
		err = row.Scan(&p.Name, &p.PerSecond, &p.Burst, &p.PerDay, &p.MaxRangeDays)
		return p, err
	}, `SELECT name, per_second, burst, per_day, max_range_days FROM plans ORDER BY name`)
	if err != nil {
		return nil, db.wrap("plans", err)
	}
	return out, nil
}

// DeletePlan deletes a plan and its clients' assignments. It returns an
// error with code NotFound if there is no such plan.
func (db *DB) DeletePlan(ctx context.Context, name string) error {
	return db.wrap("delete plan", db.update(ctx, func(tx Querier) error {
		if _, err := tx.Exec(ctx, `DELETE FROM client_plans WHERE plan = ?`, name); err != nil {
			return err
		}
		n, err := tx.Exec(ctx, `DELETE FROM plans WHERE name = ?`, name)
		if err != nil || n == 0 {
			return cmpErr(err, energy.Errorf(energy.NotFound, "plan %q not found", name))
		}
		return db.clientsChanged(ctx, tx)
	}))
}

// assignPlan gives an existing client a plan in tx, or returns an error
// with code NotFound if there is no such plan.
func assignPlan(ctx context.Context, tx Querier, clientID, plan string) error {
	var ok bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM plans WHERE name = ?)`, plan).Scan(&ok); err != nil || !ok {
		return cmpErr(err, energy.Errorf(energy.NotFound, "plan %q not found", plan))
	}
	_, err := tx.Exec(ctx, `INSERT INTO client_plans (client_id, plan) VALUES (?, ?)
		ON CONFLICT (client_id) DO UPDATE SET plan = excluded.plan`, clientID, plan)
	return err
}

// SetClientPlan gives a client a plan, or the default plan for "". It
// returns an error with code NotFound if the client or the plan does not
// exist.
func (db *DB) SetClientPlan(ctx context.Context, clientID, plan string) error {
	if db.d.TextOnly && (!ValidText(clientID) || !ValidText(plan)) {
		return db.wrap("set client plan", ClientNotFound(clientID))
	}
	return db.wrap("set client plan", db.update(ctx, func(tx Querier) error {
		var ok bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM clients WHERE id = ?)`, clientID).Scan(&ok); err != nil || !ok {
			return cmpErr(err, ClientNotFound(clientID))
		}
		if plan == "" {
			if _, err := tx.Exec(ctx, `DELETE FROM client_plans WHERE client_id = ?`, clientID); err != nil {
				return err
			}
		} else if err := assignPlan(ctx, tx, clientID, plan); err != nil {
			return err
		}
		return db.clientsChanged(ctx, tx)
	}))
}

// ClientPlans returns the plan of every client that has one.
func (db *DB) ClientPlans(ctx context.Context) (map[string]string, error) {
	pairs, err := QueryAll(ctx, db.read, func(row Row) (cp [2]string, err error) {
		err = row.Scan(&cp[0], &cp[1])
		return cp, err
	}, `SELECT client_id, plan FROM client_plans`)
	if err != nil {
		return nil, db.wrap("client plans", err)
	}
	out := make(map[string]string, len(pairs))
	for _, cp := range pairs {
		out[cp[0]] = cp[1]
	}
	return out, nil
}

// Usage returns the aggregates of days in [from, to] of one client, or of
// every client for "", by client, day and dataset.
func (db *DB) Usage(ctx context.Context, clientID, from, to string) ([]limit.UsageRow, error) {
	out, err := QueryAll(ctx, db.read, func(row Row) (r limit.UsageRow, err error) {
		err = row.Scan(&r.ClientID, &r.Day, &r.Dataset, &r.Calls)
		return r, err
	}, `SELECT client_id, day, dataset, calls FROM usage
		WHERE (? = '' OR client_id = ?) AND day >= ? AND day <= ? ORDER BY client_id, day, dataset`,
		clientID, clientID, from, to)
	if err != nil {
		return nil, db.wrap("usage", err)
	}
	return out, nil
}

// QuotaClaimed returns the calls claimed of a client's quota on day.
func (db *DB) QuotaClaimed(ctx context.Context, clientID, day string) (int64, error) {
	// sum(bigint) is numeric in PostgreSQL; the cast brings it back to int64.
	var n int64
	err := db.read.QueryRow(ctx, `SELECT CAST(coalesce(sum(claimed), 0) AS bigint) FROM quota_claims WHERE client_id = ? AND day = ?`,
		clientID, day).Scan(&n)
	return n, db.wrap("quota claimed", err)
}
