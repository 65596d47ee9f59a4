package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/limit"
	"github.com/energyapi/energyapi/internal/store"
	"github.com/jackc/pgx/v5"
)

// PutPlan creates or replaces the plan of p.Name. It returns an error with
// code Invalid if p.Check refuses it.
func (s *Store) PutPlan(ctx context.Context, p limit.Plan) error {
	if err := p.Check(); err != nil {
		return fmt.Errorf("postgres: put plan: %w", err)
	}
	err := s.update(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO plans (name, per_second, burst, per_day, max_range_days) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (name) DO UPDATE SET per_second = excluded.per_second, burst = excluded.burst,
			per_day = excluded.per_day, max_range_days = excluded.max_range_days`,
			p.Name, p.PerSecond, p.Burst, p.PerDay, p.MaxRangeDays)
		if err != nil {
			return err
		}
		return plansChanged(ctx, tx, s.now())
	})
	if err != nil {
		return fmt.Errorf("postgres: put plan: %w", err)
	}
	return nil
}

// Plans returns every plan, by name.
func (s *Store) Plans(ctx context.Context) ([]limit.Plan, error) {
	rows, err := s.pool.Query(ctx, `SELECT name, per_second, burst, per_day, max_range_days FROM plans ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("postgres: plans: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (p limit.Plan, err error) {
		err = row.Scan(&p.Name, &p.PerSecond, &p.Burst, &p.PerDay, &p.MaxRangeDays)
		return p, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: plans: %w", err)
	}
	return out, nil
}

// DeletePlan deletes a plan and its clients' assignments. It returns an
// error with code NotFound if there is no such plan.
func (s *Store) DeletePlan(ctx context.Context, name string) error {
	err := s.update(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM client_plans WHERE plan = $1`, name); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM plans WHERE name = $1`, name)
		if err == nil && tag.RowsAffected() == 0 {
			return energy.Errorf(energy.NotFound, "plan %q not found", name)
		}
		if err != nil {
			return err
		}
		return plansChanged(ctx, tx, s.now())
	})
	if err != nil {
		return fmt.Errorf("postgres: delete plan: %w", err)
	}
	return nil
}

// SetClientPlan gives a client a plan, or the default plan for "". It
// returns an error with code NotFound if the client or the plan does not
// exist.
func (s *Store) SetClientPlan(ctx context.Context, clientID, plan string) error {
	if !store.ValidText(clientID) || !store.ValidText(plan) {
		return fmt.Errorf("postgres: set client plan: %w", store.ClientNotFound(clientID))
	}
	err := s.update(ctx, func(tx pgx.Tx) error {
		var ok bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM clients WHERE id = $1)`, clientID).Scan(&ok); err != nil || !ok {
			return cmpErr(err, store.ClientNotFound(clientID))
		}
		if plan == "" {
			if _, err := tx.Exec(ctx, `DELETE FROM client_plans WHERE client_id = $1`, clientID); err != nil {
				return err
			}
			return plansChanged(ctx, tx, s.now())
		}
		if err := assignPlan(ctx, tx, clientID, plan); err != nil {
			return err
		}
		return plansChanged(ctx, tx, s.now())
	})
	if err != nil {
		return fmt.Errorf("postgres: set client plan: %w", err)
	}
	return nil
}

// assignPlan gives an existing client a plan in tx, or returns an error
// with code NotFound if there is no such plan.
func assignPlan(ctx context.Context, tx pgx.Tx, clientID, plan string) error {
	var ok bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM plans WHERE name = $1)`, plan).Scan(&ok); err != nil || !ok {
		return cmpErr(err, energy.Errorf(energy.NotFound, "plan %q not found", plan))
	}
	_, err := tx.Exec(ctx, `INSERT INTO client_plans (client_id, plan) VALUES ($1, $2)
		ON CONFLICT (client_id) DO UPDATE SET plan = excluded.plan`, clientID, plan)
	return err
}

// plansChanged records a change to the plans or their clients in tx as a
// change to the clients, notified to every replica: serving processes load
// the plans with the clients (auth.LoadWith), so a plan change reaches them
// as a rotation does, moments after the commit.
func plansChanged(ctx context.Context, tx pgx.Tx, at time.Time) error {
	return clientsChanged(ctx, tx, at)
}

// cmpErr returns err, or else fallback.
func cmpErr(err, fallback error) error {
	if err != nil {
		return err
	}
	return fallback
}

// ClientPlans returns the plan of every client that has one.
func (s *Store) ClientPlans(ctx context.Context) (map[string]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT client_id, plan FROM client_plans`)
	if err != nil {
		return nil, fmt.Errorf("postgres: client plans: %w", err)
	}
	out := map[string]string{}
	var c, p string
	_, err = pgx.ForEachRow(rows, []any{&c, &p}, func() error { out[c] = p; return nil })
	if err != nil {
		return nil, fmt.Errorf("postgres: client plans: %w", err)
	}
	return out, nil
}

// AddUsage adds each row's calls to the stored aggregates, in one transaction.
func (s *Store) AddUsage(ctx context.Context, rows []limit.UsageRow) error {
	err := s.update(ctx, func(tx pgx.Tx) error {
		b := &pgx.Batch{}
		for _, r := range rows {
			b.Queue(`INSERT INTO usage (client_id, day, dataset, calls) VALUES ($1, $2, $3, $4)
				ON CONFLICT (client_id, day, dataset) DO UPDATE SET calls = usage.calls + excluded.calls`,
				r.ClientID, r.Day, r.Dataset, r.Calls)
		}
		return tx.SendBatch(ctx, b).Close()
	})
	if err != nil {
		return fmt.Errorf("postgres: add usage: %w", err)
	}
	return nil
}

// Usage returns the aggregates of days in [from, to] of one client, or of
// every client for "", by client, day and dataset.
func (s *Store) Usage(ctx context.Context, clientID, from, to string) ([]limit.UsageRow, error) {
	rows, err := s.pool.Query(ctx, `SELECT client_id, day, dataset, calls FROM usage
		WHERE ($1 = '' OR client_id = $1) AND day >= $2 AND day <= $3 ORDER BY client_id, day, dataset`,
		clientID, from, to)
	if err != nil {
		return nil, fmt.Errorf("postgres: usage: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (r limit.UsageRow, err error) {
		err = row.Scan(&r.ClientID, &r.Day, &r.Dataset, &r.Calls)
		return r, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: usage: %w", err)
	}
	return out, nil
}

// ClaimQuota atomically takes up to want calls of a client's quota of
// limit calls on day, and returns how many it took and how many are
// claimed in all. One statement: concurrent claims of every replica
// queue on the row's lock, and none can take a call another took.
func (s *Store) ClaimQuota(ctx context.Context, clientID, day string, want, limit int64) (granted, claimed int64, err error) {
	// The insert makes the day's row; SET reads the row as it was, so
	// last_grant is this claim's grant.
	err = s.pool.QueryRow(ctx, `INSERT INTO quota_claims AS q (client_id, day, claimed, last_grant)
		VALUES ($1, $2, LEAST($3::bigint, $4::bigint), LEAST($3::bigint, $4::bigint))
		ON CONFLICT (client_id, day) DO UPDATE
		SET last_grant = GREATEST(0, LEAST($3::bigint, $4::bigint - q.claimed)),
		    claimed = q.claimed + GREATEST(0, LEAST($3::bigint, $4::bigint - q.claimed))
		RETURNING last_grant, claimed`, clientID, day, want, limit).Scan(&granted, &claimed)
	if err != nil {
		return 0, 0, fmt.Errorf("postgres: claim quota: %w", err)
	}
	return granted, claimed, nil
}

// ReleaseQuota gives back n claimed and unused calls.
func (s *Store) ReleaseQuota(ctx context.Context, clientID, day string, n int64) error {
	_, err := s.pool.Exec(ctx, `UPDATE quota_claims SET claimed = GREATEST(0, claimed - $1) WHERE client_id = $2 AND day = $3`, n, clientID, day)
	if err != nil {
		return fmt.Errorf("postgres: release quota: %w", err)
	}
	return nil
}

// QuotaClaimed returns the calls claimed of a client's quota on day.
func (s *Store) QuotaClaimed(ctx context.Context, clientID, day string) (int64, error) {
	var n int64
	err := s.pool.QueryRow(ctx, `SELECT coalesce(sum(claimed), 0)::bigint FROM quota_claims WHERE client_id = $1 AND day = $2`, clientID, day).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("postgres: quota claimed: %w", err)
	}
	return n, nil
}
