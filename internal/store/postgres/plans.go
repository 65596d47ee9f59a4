package postgres

import (
	"context"
	"fmt"

	"github.com/energyapi/energyapi/internal/limit"
	"github.com/jackc/pgx/v5"
)

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
