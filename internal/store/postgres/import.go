package postgres

import (
	"context"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
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

// writeRows stores rows in table: fresh ones, whose keys the caller has
// found absent, and changed ones, whose keys it has found present. It sends
// both with COPY, the fastest way into PostgreSQL. Fresh rows go straight
// into table: the import lock keeps other imports from adding the same keys
// meanwhile, and should anything else have added one, COPY fails and the
// import with it, changing nothing. Changed rows go into a temporary
// staging table, dropped at commit, and from there into table with one
// INSERT ... ON CONFLICT (conflict: the clause from ON CONFLICT on), since
// COPY cannot update. table must be a constant.
func writeRows(ctx context.Context, tx pgx.Tx, table string, cols []string, conflict string, fresh, changed [][]any) error {
	if len(fresh) > 0 {
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromRows(fresh)); err != nil {
			return err
		}
	}
	if len(changed) == 0 {
		return nil
	}
	tmp := "import_" + table
	if _, err := tx.Exec(ctx, `CREATE TEMP TABLE `+tmp+` (LIKE `+table+`) ON COMMIT DROP`); err != nil {
		return err
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{tmp}, cols, pgx.CopyFromRows(changed)); err != nil {
		return err
	}
	list := strings.Join(cols, ", ")
	_, err := tx.Exec(ctx, `INSERT INTO `+table+` (`+list+`) SELECT `+list+` FROM `+tmp+` ON CONFLICT `+conflict)
	return err
}

// finishImport records a committed import in import_runs and, if it changed
// any row, advances the data version. It runs inside the import's own
// transaction, so both happen exactly when the import commits.
func (s *Store) finishImport(ctx context.Context, tx pgx.Tx, dataset string, started time.Time, st energy.ImportStats, changed bool) error {
	return recordImport(ctx, tx, store.ImportRun{Dataset: dataset, Started: started, Finished: s.now(), Stats: st}, changed)
}

// recordImport records run in import_runs and, if changed, advances the
// data version, stamped with the run's end.
func recordImport(ctx context.Context, tx pgx.Tx, run store.ImportRun, changed bool) error {
	if changed {
		if err := bumpVersion(ctx, tx, "data", run.Finished); err != nil {
			return err
		}
	}
	st := run.Stats
	_, err := tx.Exec(ctx, `INSERT INTO import_runs
		(dataset, started, finished, rows_read, inserted, updated, unchanged)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		run.Dataset, run.Started, run.Finished, st.Read, st.Inserted, st.Updated, st.Unchanged)
	return err
}
