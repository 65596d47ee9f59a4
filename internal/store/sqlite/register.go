package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/store"
)

var _ auth.RegistrationStore = (*Store)(nil)

// RevokeToken records t as revoked, unless it is already, as the next entry
// of the log of revocations, and drops the records of tokens expired at now.
// Its Seq is the revocations version it advances, which WatchClients reads:
// writes take turns on the one write lock, so Seqs follow commit order.
func (s *Store) RevokeToken(ctx context.Context, t auth.RevokedToken, now time.Time) error {
	if err := store.CheckRevokedToken(t); err != nil {
		return fmt.Errorf("sqlite: revoke token: %w", err)
	}
	err := s.update(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM revoked_tokens WHERE expires <= ?`, now.UnixMicro()); err != nil {
			return err
		}
		seq, err := nextVersion(ctx, tx, "revocations", s.now())
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO revoked_tokens (jti, client_id, expires, seq) VALUES (?, ?, ?, ?) ON CONFLICT (jti) DO NOTHING`,
			t.ID, t.ClientID, t.Expires.UnixMicro(), seq)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: revoke token: %w", err)
	}
	return nil
}
