package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/store"
	"github.com/jackc/pgx/v5"
)

var _ auth.RegistrationStore = (*Store)(nil)

// registrationLock is the first key of the advisory locks that serialise
// the registrations from one address (the second is the address's hash).
const registrationLock = 0x7265_6769 // "regi"

const registrationColumns = `client_id, contact, origin, addr, created`

// RevokeToken records t as revoked, unless it is already, as the next entry
// of the log of revocations, and drops the records of tokens expired at now.
// Its seq is the revocations version it advances: that UPDATE locks the
// version's row until the commit, so revocations through any replica take
// turns from there and their seqs follow their commit order, which a
// sequence's would not. The notification on the clients channel has every
// replica read it (RevokedSince). The statements go in one round trip.
func (s *Store) RevokeToken(ctx context.Context, t auth.RevokedToken, now time.Time) error {
	if err := store.CheckRevokedToken(t); err != nil {
		return fmt.Errorf("postgres: revoke token: %w", err)
	}
	err := s.update(ctx, func(tx pgx.Tx) error {
		var b pgx.Batch
		b.Queue(`DELETE FROM revoked_tokens WHERE expires <= $1`, now)
		b.Queue(bumpVersionSQL, s.now(), "revocations")
		b.Queue(`INSERT INTO revoked_tokens (jti, client_id, expires, seq)
			SELECT $1, $2, $3, version FROM versions WHERE name = 'revocations'
			ON CONFLICT (jti) DO NOTHING`, t.ID, t.ClientID, t.Expires)
		b.Queue(notifySQL, clientsChannel)
		return tx.SendBatch(ctx, &b).Close()
	})
	if err != nil {
		return fmt.Errorf("postgres: revoke token: %w", err)
	}
	return nil
}
