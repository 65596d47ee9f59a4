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

// CreateClient stores a new client. It returns an error with code Conflict if
// a client with the same ID exists, and Invalid if store.CheckClient refuses
// it.
func (s *Store) CreateClient(ctx context.Context, c auth.Client) error {
	if err := store.CheckClient(c); err != nil {
		return fmt.Errorf("postgres: create client: %w", err)
	}
	err := s.update(ctx, func(tx pgx.Tx) error { return s.insertClient(ctx, tx, c) })
	if err != nil {
		return fmt.Errorf("postgres: create client: %w", err)
	}
	return nil
}

// insertClient inserts c, on its plan if it names one, and records the
// change to the clients.
func (s *Store) insertClient(ctx context.Context, tx pgx.Tx, c auth.Client) error {
	_, err := tx.Exec(ctx,
		`INSERT INTO clients (id, name, secret_hash, created, revoked) VALUES ($1, $2, $3, $4, $5)`,
		c.ID, c.Name, store.StoredHash(c.SecretHash), c.Created, orNull(c.Revoked))
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
	return clientsChanged(ctx, tx, s.now())
}

// Client returns the client with the given ID, or an error with code NotFound.
func (s *Store) Client(ctx context.Context, id string) (auth.Client, error) {
	// The token endpoint passes client_id from the request as it came: bytes
	// PostgreSQL cannot compare as text name no stored client (CreateClient
	// refuses them), and sending them would fail the query.
	if !store.ValidText(id) {
		return auth.Client{}, fmt.Errorf("postgres: client: %w", store.ClientNotFound(id))
	}
	row := s.pool.QueryRow(ctx, `SELECT id, name, secret_hash, created, revoked FROM clients WHERE id = $1`, id)
	c, err := scanClient(row)
	if errors.Is(err, pgx.ErrNoRows) {
		return auth.Client{}, fmt.Errorf("postgres: client: %w", store.ClientNotFound(id))
	}
	if err != nil {
		return auth.Client{}, fmt.Errorf("postgres: client: %w", err)
	}
	return c, nil
}

// Clients returns every client, revoked ones included, oldest first and by ID
// (byte-wise) among clients created at the same time.
func (s *Store) Clients(ctx context.Context) ([]auth.Client, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, name, secret_hash, created, revoked FROM clients ORDER BY created, id`)
	if err != nil {
		return nil, fmt.Errorf("postgres: clients: %w", err)
	}
	cs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (auth.Client, error) { return scanClient(row) })
	if err != nil {
		return nil, fmt.Errorf("postgres: clients: %w", err)
	}
	return cs, nil
}

func scanClient(row pgx.Row) (auth.Client, error) {
	var c auth.Client
	var revoked *time.Time
	if err := row.Scan(&c.ID, &c.Name, &c.SecretHash, &c.Created, &revoked); err != nil {
		return auth.Client{}, err
	}
	c.Created = c.Created.UTC()
	c.Revoked = utc(revoked)
	return c, nil
}

// RevokeClient marks the client revoked at the given time. Revoking a revoked
// client keeps the first time and changes nothing. It returns an error with
// code NotFound if there is no such client, and Invalid if at is zero.
func (s *Store) RevokeClient(ctx context.Context, id string, at time.Time) error {
	if err := store.CheckRevocation(at); err != nil {
		return fmt.Errorf("postgres: revoke client: %w", err)
	}
	if !store.ValidText(id) { // as in Client
		return fmt.Errorf("postgres: revoke client: %w", store.ClientNotFound(id))
	}
	err := s.update(ctx, func(tx pgx.Tx) error {
		// Under READ COMMITTED a concurrent revocation makes this UPDATE wait
		// and then re-check revoked IS NULL, so only the first one counts.
		tag, err := tx.Exec(ctx, `UPDATE clients SET revoked = $1 WHERE id = $2 AND revoked IS NULL`, at, id)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 1 {
			return clientsChanged(ctx, tx, s.now())
		}
		var exists bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM clients WHERE id = $1)`, id).Scan(&exists); err != nil {
			return err
		}
		if !exists {
			return store.ClientNotFound(id)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("postgres: revoke client: %w", err)
	}
	return nil
}

// SetClientSecret replaces the client's secret hash. It returns an error with
// code NotFound if there is no such client, and Conflict if it is revoked.
func (s *Store) SetClientSecret(ctx context.Context, id string, hash []byte) error {
	if !store.ValidText(id) { // as in Client
		return fmt.Errorf("postgres: set client secret: %w", store.ClientNotFound(id))
	}
	err := s.update(ctx, func(tx pgx.Tx) error {
		// FOR UPDATE holds off a concurrent revocation until this commits,
		// so a revoked client never gets a new secret.
		var revoked *time.Time
		err := tx.QueryRow(ctx, `SELECT revoked FROM clients WHERE id = $1 FOR UPDATE`, id).Scan(&revoked)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ClientNotFound(id)
		}
		if err != nil {
			return err
		}
		if revoked != nil {
			return energy.Errorf(energy.Conflict, "client %q is revoked", id)
		}
		if _, err := tx.Exec(ctx, `UPDATE clients SET secret_hash = $1 WHERE id = $2`, store.StoredHash(hash), id); err != nil {
			return err
		}
		return clientsChanged(ctx, tx, s.now())
	})
	if err != nil {
		return fmt.Errorf("postgres: set client secret: %w", err)
	}
	return nil
}

// RestoreClient makes the client active again with the given secret hash,
// clearing its revocation if it has one; on an active client it only
// replaces the hash. It returns an error with code NotFound if there is no
// such client.
func (s *Store) RestoreClient(ctx context.Context, id string, hash []byte) error {
	if !store.ValidText(id) { // as in Client
		return fmt.Errorf("postgres: restore client: %w", store.ClientNotFound(id))
	}
	err := s.update(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE clients SET revoked = NULL, secret_hash = $1 WHERE id = $2`, store.StoredHash(hash), id)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return store.ClientNotFound(id)
		}
		return clientsChanged(ctx, tx, s.now())
	})
	if err != nil {
		return fmt.Errorf("postgres: restore client: %w", err)
	}
	return nil
}

// ClientsVersion returns a number that changes whenever a client is created,
// revoked, restored or given a new secret.
func (s *Store) ClientsVersion(ctx context.Context) (int64, error) {
	v, err := s.readVersion(ctx, "clients")
	if err != nil {
		return 0, fmt.Errorf("postgres: clients version: %w", err)
	}
	return v, nil
}
