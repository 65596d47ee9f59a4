package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// lockImports makes the import in tx wait for any other import on the
// database, in this process or another, to end. The lock is released when
// tx ends. An import reads the stored rows after taking it, so under READ
// COMMITTED it sees every import that committed before it.
func lockImports(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, importLock)
	return err
}
