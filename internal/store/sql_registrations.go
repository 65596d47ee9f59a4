package store

import (
	"context"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
)

// CreateRegisteredClient stores c and reg in one transaction unless limit
// registrations from reg.Addr were created in the hour before reg.Created
// (limit > 0); then it returns false. The count and the insert of
// concurrent registrations from one address, through any process, happen
// one after the other (Dialect.LockAddr, or SQLite's one writer), so the
// limit holds exactly.
func (db *DB) CreateRegisteredClient(ctx context.Context, c auth.Client, reg auth.Registration, limit int) (bool, error) {
	if err := CheckRegistration(c, reg); err != nil {
		return false, db.wrap("register client", err)
	}
	admitted := false
	err := db.update(ctx, func(tx Querier) error {
		if limit > 0 {
			if db.d.LockAddr != nil {
				if err := db.d.LockAddr(ctx, tx, reg.Addr); err != nil {
					return err
				}
			}
			var n int
			err := tx.QueryRow(ctx, `SELECT count(*) FROM registrations WHERE addr = ? AND created > ?`,
				reg.Addr, reg.Created.Add(-time.Hour)).Scan(&n)
			if err != nil || n >= limit {
				return err
			}
		}
		if err := db.insertClient(ctx, tx, c); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO registrations (`+registrationColumns+`) VALUES (?, ?, ?, ?, ?)`,
			reg.ClientID, reg.Contact, reg.Origin, reg.Addr, reg.Created)
		admitted = err == nil
		return err
	})
	if err != nil {
		return false, db.wrap("register client", err)
	}
	return admitted, nil
}

const registrationColumns = `client_id, contact, origin, addr, created`

func scanRegistration(row Row) (auth.Registration, error) {
	var r auth.Registration
	if err := row.Scan(&r.ClientID, &r.Contact, &r.Origin, &r.Addr, &r.Created); err != nil {
		return auth.Registration{}, err
	}
	return r, nil
}

// Registrations returns every registration, oldest first.
func (db *DB) Registrations(ctx context.Context) ([]auth.Registration, error) {
	out, err := QueryAll(ctx, db.read, scanRegistration, `SELECT `+registrationColumns+` FROM registrations ORDER BY created, client_id`)
	return out, db.wrap("registrations", err) // QueryAll returns no rows with an error
}

// Registration returns a client's registration, or an error with code NotFound.
func (db *DB) Registration(ctx context.Context, id string) (auth.Registration, error) {
	notFound := energy.Errorf(energy.NotFound, "client %q has no registration", id)
	if !ValidText(id) { // as in Client
		return auth.Registration{}, notFound
	}
	r, err := queryOne(ctx, db.read, scanRegistration, notFound, `SELECT `+registrationColumns+` FROM registrations WHERE client_id = ?`, id)
	if err != nil && err != notFound {
		return auth.Registration{}, db.wrap("registration", err)
	}
	return r, err
}

// RevokedSince returns the revoked tokens with a Seq above after that have
// not expired at now, in Seq order.
func (db *DB) RevokedSince(ctx context.Context, after int64, now time.Time) ([]auth.RevokedToken, error) {
	out, err := QueryAll(ctx, db.read, func(row Row) (t auth.RevokedToken, err error) {
		err = row.Scan(&t.ID, &t.ClientID, &t.Expires, &t.Seq)
		return t, err
	}, `SELECT jti, client_id, expires, seq FROM revoked_tokens WHERE seq > ? AND expires > ? ORDER BY seq`, after, now)
	if err != nil {
		return nil, db.wrap("revoked tokens", err)
	}
	return out, nil
}
