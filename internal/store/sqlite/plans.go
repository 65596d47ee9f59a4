package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/limit"
	"github.com/energyapi/energyapi/internal/store"
)

// PutPlan creates or replaces the plan of p.Name. It returns an error with
// code Invalid if p.Check refuses it.
func (s *Store) PutPlan(ctx context.Context, p limit.Plan) error {
	if err := p.Check(); err != nil {
		return fmt.Errorf("sqlite: put plan: %w", err)
	}
	err := s.update(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO plans (name, per_second, burst, per_day, max_range_days) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (name) DO UPDATE SET per_second = excluded.per_second, burst = excluded.burst,
			per_day = excluded.per_day, max_range_days = excluded.max_range_days`,
			p.Name, p.PerSecond, p.Burst, p.PerDay, p.MaxRangeDays)
		if err != nil {
			return err
		}
		return plansChanged(ctx, tx, s.now())
	})
	if err != nil {
		return fmt.Errorf("sqlite: put plan: %w", err)
	}
	return nil
}

// Plans returns every plan, by name.
func (s *Store) Plans(ctx context.Context) ([]limit.Plan, error) {
	out, err := queryRows(ctx, s.r, func(row scanner) (p limit.Plan, err error) {
		err = row.Scan(&p.Name, &p.PerSecond, &p.Burst, &p.PerDay, &p.MaxRangeDays)
		return p, err
	}, `SELECT name, per_second, burst, per_day, max_range_days FROM plans ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: plans: %w", err)
	}
	return out, nil
}

// DeletePlan deletes a plan and its clients' assignments. It returns an
// error with code NotFound if there is no such plan.
func (s *Store) DeletePlan(ctx context.Context, name string) error {
	err := s.update(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM client_plans WHERE plan = ?`, name); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM plans WHERE name = ?`, name)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return cmpErr(err, energy.Errorf(energy.NotFound, "plan %q not found", name))
		}
		return plansChanged(ctx, tx, s.now())
	})
	if err != nil {
		return fmt.Errorf("sqlite: delete plan: %w", err)
	}
	return nil
}

// assignPlan gives an existing client a plan in tx, or returns an error
// with code NotFound if there is no such plan.
func assignPlan(ctx context.Context, tx *sql.Tx, clientID, plan string) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM plans WHERE name = ?`, plan).Scan(&n); err != nil || n == 0 {
		return cmpErr(err, energy.Errorf(energy.NotFound, "plan %q not found", plan))
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO client_plans (client_id, plan) VALUES (?, ?)
		ON CONFLICT (client_id) DO UPDATE SET plan = excluded.plan`, clientID, plan)
	return err
}

// plansChanged records a change to the plans or their clients in tx as a
// change to the clients: serving processes load the plans with the clients
// (auth.LoadWith), so a plan change reaches them as a rotation does, within
// the clients watch's interval (WatchClients).
func plansChanged(ctx context.Context, tx *sql.Tx, at time.Time) error {
	return bumpVersion(ctx, tx, "clients", at)
}

// cmpErr returns err, or else fallback.
func cmpErr(err, fallback error) error {
	if err != nil {
		return err
	}
	return fallback
}

// SetClientPlan gives a client a plan, or the default plan for "". It
// returns an error with code NotFound if the client or the plan does not
// exist.
func (s *Store) SetClientPlan(ctx context.Context, clientID, plan string) error {
	err := s.update(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM clients WHERE id = ?`, clientID).Scan(&n); err != nil || n == 0 {
			return cmpErr(err, store.ClientNotFound(clientID))
		}
		if plan == "" {
			if _, err := tx.ExecContext(ctx, `DELETE FROM client_plans WHERE client_id = ?`, clientID); err != nil {
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
		return fmt.Errorf("sqlite: set client plan: %w", err)
	}
	return nil
}

// ClientPlans returns the plan of every client that has one.
func (s *Store) ClientPlans(ctx context.Context) (map[string]string, error) {
	pairs, err := queryRows(ctx, s.r, func(row scanner) (cp [2]string, err error) {
		err = row.Scan(&cp[0], &cp[1])
		return cp, err
	}, `SELECT client_id, plan FROM client_plans`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: client plans: %w", err)
	}
	out := make(map[string]string, len(pairs))
	for _, cp := range pairs {
		out[cp[0]] = cp[1]
	}
	return out, nil
}

// AddUsage adds each row's calls to the stored aggregates, in one transaction.
func (s *Store) AddUsage(ctx context.Context, rows []limit.UsageRow) error {
	err := s.update(ctx, func(tx *sql.Tx) error {
		for _, r := range rows {
			_, err := tx.ExecContext(ctx, `INSERT INTO usage (client_id, day, dataset, calls) VALUES (?, ?, ?, ?)
				ON CONFLICT (client_id, day, dataset) DO UPDATE SET calls = calls + excluded.calls`,
				r.ClientID, r.Day, r.Dataset, r.Calls)
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlite: add usage: %w", err)
	}
	return nil
}

// Usage returns the aggregates of days in [from, to] of one client, or of
// every client for "", by client, day and dataset.
func (s *Store) Usage(ctx context.Context, clientID, from, to string) ([]limit.UsageRow, error) {
	out, err := queryRows(ctx, s.r, func(row scanner) (r limit.UsageRow, err error) {
		err = row.Scan(&r.ClientID, &r.Day, &r.Dataset, &r.Calls)
		return r, err
	}, `SELECT client_id, day, dataset, calls FROM usage
		WHERE (? = '' OR client_id = ?) AND day >= ? AND day <= ? ORDER BY client_id, day, dataset`,
		clientID, clientID, from, to)
	if err != nil {
		return nil, fmt.Errorf("sqlite: usage: %w", err)
	}
	return out, nil
}

// ClaimQuota atomically takes up to want calls of a client's quota of
// limit calls on day, and returns how many it took and how many are
// claimed in all.
func (s *Store) ClaimQuota(ctx context.Context, clientID, day string, want, limit int64) (granted, claimed int64, err error) {
	err = s.update(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO quota_claims (client_id, day, claimed, last_grant) VALUES (?, ?, 0, 0)
			ON CONFLICT (client_id, day) DO NOTHING`, clientID, day); err != nil {
			return err
		}
		// SET reads the row as it was, so last_grant is this claim's grant.
		return tx.QueryRowContext(ctx, `UPDATE quota_claims
			SET last_grant = max(0, min(?1, ?2 - claimed)), claimed = claimed + max(0, min(?1, ?2 - claimed))
			WHERE client_id = ?3 AND day = ?4 RETURNING last_grant, claimed`,
			want, limit, clientID, day).Scan(&granted, &claimed)
	})
	if err != nil {
		return 0, 0, fmt.Errorf("sqlite: claim quota: %w", err)
	}
	return granted, claimed, nil
}

// ReleaseQuota gives back n claimed and unused calls.
func (s *Store) ReleaseQuota(ctx context.Context, clientID, day string, n int64) error {
	err := s.update(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE quota_claims SET claimed = max(0, claimed - ?) WHERE client_id = ? AND day = ?`, n, clientID, day)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: release quota: %w", err)
	}
	return nil
}

// QuotaClaimed returns the calls claimed of a client's quota on day.
func (s *Store) QuotaClaimed(ctx context.Context, clientID, day string) (int64, error) {
	var n int64
	err := s.r.QueryRowContext(ctx, `SELECT coalesce(sum(claimed), 0) FROM quota_claims WHERE client_id = ? AND day = ?`, clientID, day).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("sqlite: quota claimed: %w", err)
	}
	return n, nil
}
