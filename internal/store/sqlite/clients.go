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

// CreateClient stores a new client. It returns an error with code Conflict if
// a client with the same ID exists, and Invalid if store.CheckClient refuses
// it.
func (s *Store) CreateClient(ctx context.Context, c auth.Client) error {
	if err := store.CheckClient(c); err != nil {
		return fmt.Errorf("sqlite: create client: %w", err)
	}
	err := s.update(ctx, func(tx *sql.Tx) error { return s.insertClient(ctx, tx, c) })
	if err != nil {
		return fmt.Errorf("sqlite: create client: %w", err)
	}
	return nil
}

// insertClient inserts c, on its plan if it names one, and advances the
// clients version.
func (s *Store) insertClient(ctx context.Context, tx *sql.Tx, c auth.Client) error {
	_, err := tx.ExecContext(ctx,
		`INSERT INTO clients (id, name, secret_hash, created, revoked) VALUES (?, ?, ?, ?, ?)`,
		c.ID, c.Name, store.StoredHash(c.SecretHash), c.Created.UnixMicro(), micro(c.Revoked))
	if isUniqueViolation(err) {
		return energy.Errorf(energy.Conflict, "client %q already exists", c.ID)
	}
	if err != nil {
		return err
	}
	if c.Plan != "" {
		if err := assignPlan(ctx, tx, c.ID, c.Plan); err != nil {
			return err
		}
	}
	return bumpVersion(ctx, tx, "clients", s.now())
}

// Client returns the client with the given ID, or an error with code NotFound.
func (s *Store) Client(ctx context.Context, id string) (auth.Client, error) {
	row := s.r.QueryRowContext(ctx,
		`SELECT id, name, secret_hash, created, revoked FROM clients WHERE id = ?`, id)
	c, err := scanClient(row)
	if errors.Is(err, sql.ErrNoRows) {
		return auth.Client{}, fmt.Errorf("sqlite: client: %w", store.ClientNotFound(id))
	}
	if err != nil {
		return auth.Client{}, fmt.Errorf("sqlite: client: %w", err)
	}
	return c, nil
}

// Clients returns every client, revoked ones included, oldest first and by ID
// among clients created at the same time.
func (s *Store) Clients(ctx context.Context) ([]auth.Client, error) {
	cs, err := queryRows(ctx, s.r, scanClient,
		`SELECT id, name, secret_hash, created, revoked FROM clients ORDER BY created, id`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: clients: %w", err)
	}
	return cs, nil
}

func scanClient(row scanner) (auth.Client, error) {
	var c auth.Client
	var created int64
	var revoked sql.NullInt64
	if err := row.Scan(&c.ID, &c.Name, &c.SecretHash, &created, &revoked); err != nil {
		return auth.Client{}, err
	}
	c.Created = time.UnixMicro(created).UTC()
	c.Revoked = fromMicro(revoked)
	return c, nil
}

// RevokeClient marks the client revoked at the given time. Revoking a revoked
// client keeps the first time and changes nothing. It returns an error with
// code NotFound if there is no such client, and Invalid if at is zero.
func (s *Store) RevokeClient(ctx context.Context, id string, at time.Time) error {
	if err := store.CheckRevocation(at); err != nil {
		return fmt.Errorf("sqlite: revoke client: %w", err)
	}
	err := s.update(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			`UPDATE clients SET revoked = ? WHERE id = ? AND revoked IS NULL`, at.UnixMicro(), id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 1 {
			return bumpVersion(ctx, tx, "clients", s.now())
		}
		var exists bool
		err = tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM clients WHERE id = ?)`, id).Scan(&exists)
		if err != nil {
			return err
		}
		if !exists {
			return store.ClientNotFound(id)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlite: revoke client: %w", err)
	}
	return nil
}

// SetClientSecret replaces the client's secret hash. It returns an error with
// code NotFound if there is no such client, and Conflict if it is revoked.
func (s *Store) SetClientSecret(ctx context.Context, id string, hash []byte) error {
	err := s.update(ctx, func(tx *sql.Tx) error {
		var revoked sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT revoked FROM clients WHERE id = ?`, id).Scan(&revoked)
		if errors.Is(err, sql.ErrNoRows) {
			return store.ClientNotFound(id)
		}
		if err != nil {
			return err
		}
		if revoked.Valid {
			return energy.Errorf(energy.Conflict, "client %q is revoked", id)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE clients SET secret_hash = ? WHERE id = ?`, store.StoredHash(hash), id); err != nil {
			return err
		}
		return bumpVersion(ctx, tx, "clients", s.now())
	})
	if err != nil {
		return fmt.Errorf("sqlite: set client secret: %w", err)
	}
	return nil
}

// RestoreClient makes the client active again with the given secret hash,
// clearing its revocation if it has one; on an active client it only
// replaces the hash. It returns an error with code NotFound if there is no
// such client.
func (s *Store) RestoreClient(ctx context.Context, id string, hash []byte) error {
	err := s.update(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			`UPDATE clients SET revoked = NULL, secret_hash = ? WHERE id = ?`, store.StoredHash(hash), id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return store.ClientNotFound(id)
		}
		return bumpVersion(ctx, tx, "clients", s.now())
	})
	if err != nil {
		return fmt.Errorf("sqlite: restore client: %w", err)
	}
	return nil
}

// ClientsVersion returns a number that changes whenever a client is created,
// revoked, restored or given a new secret.
func (s *Store) ClientsVersion(ctx context.Context) (int64, error) {
	v, err := readVersion(ctx, s.r, "clients")
	if err != nil {
		return 0, fmt.Errorf("sqlite: clients version: %w", err)
	}
	return v, nil
}
