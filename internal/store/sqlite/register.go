package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
)

var _ auth.RegistrationStore = (*Store)(nil)

// CreateRegisteredClient stores c and reg in one transaction unless limit
// registrations from reg.Addr were created in the hour before reg.Created
// (limit > 0); then it returns false. The count and the insert share the
// write lock, so the limit holds exactly across processes.
func (s *Store) CreateRegisteredClient(ctx context.Context, c auth.Client, reg auth.Registration, limit int) (bool, error) {
	if err := store.CheckRegistration(c, reg); err != nil {
		return false, fmt.Errorf("sqlite: register client: %w", err)
	}
	admitted := false
	err := s.update(ctx, func(tx *sql.Tx) error {
		if limit > 0 {
			var n int
			err := tx.QueryRowContext(ctx, `SELECT count(*) FROM registrations WHERE addr = ? AND created > ?`,
				reg.Addr, reg.Created.Add(-time.Hour).UnixMicro()).Scan(&n)
			if err != nil || n >= limit {
				return err
			}
		}
		if err := s.insertClient(ctx, tx, c); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO registrations (client_id, contact, origin, addr, created) VALUES (?, ?, ?, ?, ?)`,
			reg.ClientID, reg.Contact, reg.Origin, reg.Addr, reg.Created.UnixMicro())
		admitted = err == nil
		return err
	})
	if err != nil {
		return false, fmt.Errorf("sqlite: register client: %w", err)
	}
	return admitted, nil
}

const registrationColumns = `client_id, contact, origin, addr, created`

func scanRegistration(row scanner) (auth.Registration, error) {
	var r auth.Registration
	var created int64
	if err := row.Scan(&r.ClientID, &r.Contact, &r.Origin, &r.Addr, &created); err != nil {
		return auth.Registration{}, err
	}
	r.Created = time.UnixMicro(created).UTC()
	return r, nil
}

// Registrations returns every registration, oldest first.
func (s *Store) Registrations(ctx context.Context) ([]auth.Registration, error) {
	out, err := queryRows(ctx, s.r, scanRegistration, `SELECT `+registrationColumns+` FROM registrations ORDER BY created, client_id`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: registrations: %w", err)
	}
	return out, nil
}

// Registration returns a client's registration, or an error with code NotFound.
func (s *Store) Registration(ctx context.Context, id string) (auth.Registration, error) {
	r, err := scanRegistration(s.r.QueryRowContext(ctx, `SELECT `+registrationColumns+` FROM registrations WHERE client_id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return auth.Registration{}, energy.Errorf(energy.NotFound, "client %q has no registration", id)
	}
	if err != nil {
		return auth.Registration{}, fmt.Errorf("sqlite: registration: %w", err)
	}
	return r, nil
}

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

// RevokedSince returns the revoked tokens with a Seq above after that have
// not expired at now, in Seq order.
func (s *Store) RevokedSince(ctx context.Context, after int64, now time.Time) ([]auth.RevokedToken, error) {
	out, err := queryRows(ctx, s.r, func(row scanner) (t auth.RevokedToken, err error) {
		var exp int64
		err = row.Scan(&t.ID, &t.ClientID, &exp, &t.Seq)
		t.Expires = time.UnixMicro(exp).UTC()
		return t, err
	}, `SELECT jti, client_id, expires, seq FROM revoked_tokens WHERE seq > ? AND expires > ? ORDER BY seq`, after, now.UnixMicro())
	if err != nil {
		return nil, fmt.Errorf("sqlite: revoked tokens: %w", err)
	}
	return out, nil
}
