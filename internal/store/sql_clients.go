package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
)

const clientColumns = `id, name, secret_hash, created, revoked`

// CreateClient stores a new client. It returns an error with code Conflict if
// a client with the same ID exists, and Invalid if CheckClient refuses it.
func (db *DB) CreateClient(ctx context.Context, c auth.Client) error {
	if err := CheckClient(c); err != nil {
		return db.wrap("create client", err)
	}
	return db.wrap("create client", db.update(ctx, func(tx Querier) error { return db.insertClient(ctx, tx, c) }))
}

// insertClient inserts c, on its plan if it names one, and records the
// change to the clients.
func (db *DB) insertClient(ctx context.Context, tx Querier, c auth.Client) error {
	_, err := tx.Exec(ctx, `INSERT INTO clients (`+clientColumns+`) VALUES (?, ?, ?, ?, ?)`,
		c.ID, c.Name, StoredHash(c.SecretHash), c.Created, NullTime(c.Revoked))
	if db.d.IsUniqueViolation(err) {
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
	return db.clientsChanged(ctx, tx)
}

// Client returns the client with the given ID, or an error with code NotFound.
func (db *DB) Client(ctx context.Context, id string) (auth.Client, error) {
	// The token endpoint passes client_id from the request as it came: text
	// that is not ValidText names no stored client (CreateClient refuses
	// it), and PostgreSQL would fail the query on it.
	if !ValidText(id) {
		return auth.Client{}, db.wrap("client", ClientNotFound(id))
	}
	c, err := queryOne(ctx, db.read, scanClient, ClientNotFound(id), `SELECT `+clientColumns+` FROM clients WHERE id = ?`, id)
	if err != nil {
		return auth.Client{}, db.wrap("client", err)
	}
	return c, nil
}

// Clients returns every client, revoked ones included, oldest first and by ID
// (byte-wise) among clients created at the same time.
func (db *DB) Clients(ctx context.Context) ([]auth.Client, error) {
	cs, err := QueryAll(ctx, db.read, scanClient, `SELECT `+clientColumns+` FROM clients ORDER BY created, id`)
	return cs, db.wrap("clients", err) // QueryAll returns no rows with an error
}

func scanClient(row Row) (auth.Client, error) {
	var c auth.Client
	if err := row.Scan(&c.ID, &c.Name, &c.SecretHash, &c.Created, &c.Revoked); err != nil {
		return auth.Client{}, err
	}
	return c, nil
}

// RevokeClient marks the client revoked at the given time. Revoking a revoked
// client keeps the first time and changes nothing. It returns an error with
// code NotFound if there is no such client, and Invalid if at is zero.
func (db *DB) RevokeClient(ctx context.Context, id string, at time.Time) error {
	if err := CheckRevocation(at); err != nil {
		return db.wrap("revoke client", err)
	}
	if !ValidText(id) { // as in Client
		return db.wrap("revoke client", ClientNotFound(id))
	}
	return db.wrap("revoke client", db.update(ctx, func(tx Querier) error {
		// Under PostgreSQL's READ COMMITTED a concurrent revocation makes
		// this UPDATE wait and then re-check revoked IS NULL, so only the
		// first one counts.
		n, err := tx.Exec(ctx, `UPDATE clients SET revoked = ? WHERE id = ? AND revoked IS NULL`, at, id)
		if err != nil {
			return err
		}
		if n == 1 {
			return db.clientsChanged(ctx, tx)
		}
		var exists bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM clients WHERE id = ?)`, id).Scan(&exists); err != nil {
			return err
		}
		if !exists {
			return ClientNotFound(id)
		}
		return nil
	}))
}

// SetClientSecret replaces the client's secret hash. It returns an error with
// code NotFound if there is no such client, and Conflict if it is revoked.
func (db *DB) SetClientSecret(ctx context.Context, id string, hash []byte) error {
	if !ValidText(id) { // as in Client
		return db.wrap("set client secret", ClientNotFound(id))
	}
	return db.wrap("set client secret", db.update(ctx, func(tx Querier) error {
		// ForUpdate holds off a concurrent revocation until this commits,
		// so a revoked client never gets a new secret.
		var revoked time.Time
		err := tx.QueryRow(ctx, `SELECT revoked FROM clients WHERE id = ?`+db.d.ForUpdate, id).Scan(&revoked)
		if errors.Is(err, sql.ErrNoRows) {
			return ClientNotFound(id)
		}
		if err != nil {
			return err
		}
		if !revoked.IsZero() {
			return energy.Errorf(energy.Conflict, "client %q is revoked", id)
		}
		if _, err := tx.Exec(ctx, `UPDATE clients SET secret_hash = ? WHERE id = ?`, StoredHash(hash), id); err != nil {
			return err
		}
		return db.clientsChanged(ctx, tx)
	}))
}

// RestoreClient makes the client active again with the given secret hash,
// clearing its revocation if it has one; on an active client it only
// replaces the hash. It returns an error with code NotFound if there is no
// such client.
func (db *DB) RestoreClient(ctx context.Context, id string, hash []byte) error {
	if !ValidText(id) { // as in Client
		return db.wrap("restore client", ClientNotFound(id))
	}
	return db.wrap("restore client", db.update(ctx, func(tx Querier) error {
		n, err := tx.Exec(ctx, `UPDATE clients SET revoked = NULL, secret_hash = ? WHERE id = ?`, StoredHash(hash), id)
		if err != nil {
			return err
		}
		if n == 0 {
			return ClientNotFound(id)
		}
		return db.clientsChanged(ctx, tx)
	}))
}

// ClientsVersion returns a number that changes whenever a client is created,
// revoked, restored or given a new secret, or a plan changes.
func (db *DB) ClientsVersion(ctx context.Context) (int64, error) {
	v, err := db.readVersion(ctx, "clients")
	return v, db.wrap("clients version", err)
}

// DataVersion returns a number that changes whenever an import commits a
// change to the served data.
func (db *DB) DataVersion(ctx context.Context) (int64, error) {
	v, err := db.readVersion(ctx, "data")
	return v, db.wrap("data version", err)
}

// ImportTotals sums the committed imports of each dataset that has any, by
// dataset name.
func (db *DB) ImportTotals(ctx context.Context) ([]energy.ImportTotal, error) {
	// sum(bigint) is numeric in PostgreSQL; the cast brings it back to int64.
	ts, err := QueryAll(ctx, db.read, func(row Row) (t energy.ImportTotal, err error) {
		err = row.Scan(&t.Dataset, &t.Runs, &t.Rows, &t.Last)
		return t, err
	}, `SELECT dataset, count(*), CAST(sum(rows_read) AS bigint), max(finished)
		FROM import_runs GROUP BY dataset ORDER BY dataset`)
	return ts, db.wrap("import totals", err)
}
