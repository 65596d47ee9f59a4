package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
	"github.com/jackc/pgx/v5"
)

var _ auth.RegistrationStore = (*Store)(nil)

// registrationLock is the first key of the advisory locks that serialise
// the registrations from one address (the second is the address's hash).
const registrationLock = 0x7265_6769 // "regi"

// CreateRegisteredClient stores c and reg in one transaction unless limit
// registrations from reg.Addr were created in the hour before reg.Created
// (limit > 0); then it returns false. A transaction-scoped advisory lock on
// the address makes the count and the insert of concurrent registrations
// from one address, through any replica, happen one after the other, so
// the limit holds exactly.
func (s *Store) CreateRegisteredClient(ctx context.Context, c auth.Client, reg auth.Registration, limit int) (bool, error) {
	if err := store.CheckRegistration(c, reg); err != nil {
		return false, fmt.Errorf("postgres: register client: %w", err)
	}
	admitted := false
	err := s.update(ctx, func(tx pgx.Tx) error {
		if limit > 0 {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, registrationLock, reg.Addr); err != nil {
				return err
			}
			var n int
			err := tx.QueryRow(ctx, `SELECT count(*) FROM registrations WHERE addr = $1 AND created > $2`,
				reg.Addr, reg.Created.Add(-time.Hour)).Scan(&n)
			if err != nil || n >= limit {
				return err
			}
		}
		if err := s.insertClient(ctx, tx, c); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO registrations (client_id, contact, origin, addr, created) VALUES ($1, $2, $3, $4, $5)`,
			reg.ClientID, reg.Contact, reg.Origin, reg.Addr, reg.Created)
		admitted = err == nil
		return err
	})
	if err != nil {
		return false, fmt.Errorf("postgres: register client: %w", err)
	}
	return admitted, nil
}

const registrationColumns = `client_id, contact, origin, addr, created`

func scanRegistration(row pgx.Row) (auth.Registration, error) {
	var r auth.Registration
	if err := row.Scan(&r.ClientID, &r.Contact, &r.Origin, &r.Addr, &r.Created); err != nil {
		return auth.Registration{}, err
	}
	r.Created = r.Created.UTC()
	return r, nil
}

// Registrations returns every registration, oldest first.
func (s *Store) Registrations(ctx context.Context) ([]auth.Registration, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+registrationColumns+` FROM registrations ORDER BY created, client_id`)
	if err != nil {
		return nil, fmt.Errorf("postgres: registrations: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (auth.Registration, error) { return scanRegistration(row) })
	if err != nil {
		return nil, fmt.Errorf("postgres: registrations: %w", err)
	}
	return out, nil
}

// Registration returns a client's registration, or an error with code NotFound.
func (s *Store) Registration(ctx context.Context, id string) (auth.Registration, error) {
	notFound := energy.Errorf(energy.NotFound, "client %q has no registration", id)
	if !store.ValidText(id) {
		return auth.Registration{}, notFound
	}
	r, err := scanRegistration(s.pool.QueryRow(ctx, `SELECT `+registrationColumns+` FROM registrations WHERE client_id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return auth.Registration{}, notFound
	}
	if err != nil {
		return auth.Registration{}, fmt.Errorf("postgres: registration: %w", err)
	}
	return r, nil
}

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

// RevokedSince returns the revoked tokens with a Seq above after that have
// not expired at now, in Seq order.
func (s *Store) RevokedSince(ctx context.Context, after int64, now time.Time) ([]auth.RevokedToken, error) {
	rows, err := s.pool.Query(ctx, `SELECT jti, client_id, expires, seq FROM revoked_tokens WHERE seq > $1 AND expires > $2 ORDER BY seq`, after, now)
	if err != nil {
		return nil, fmt.Errorf("postgres: revoked tokens: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (auth.RevokedToken, error) {
		var t auth.RevokedToken
		err := row.Scan(&t.ID, &t.ClientID, &t.Expires, &t.Seq)
		t.Expires = t.Expires.UTC()
		return t, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: revoked tokens: %w", err)
	}
	return out, nil
}
