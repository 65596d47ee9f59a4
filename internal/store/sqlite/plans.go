package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/energyapi/energyapi/internal/limit"
)

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
