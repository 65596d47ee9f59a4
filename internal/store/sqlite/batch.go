package sqlite

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
)

// rowsPerStmt is how many rows one multi-row INSERT carries. Each statement
// costs a round trip through database/sql and the driver, so large imports
// want many rows per statement; past a few hundred the gain flattens while
// the bound parameters (rows × columns) approach SQLite's limit of 32766.
const rowsPerStmt = 256

// batch writes rows with multi-row INSERT statements: head, then the tuple
// repeated once per row, then tail (an ON CONFLICT clause, say).
type batch struct {
	tx       *sql.Tx
	head     string
	tuple    string // "(?, ?, ?)": one row's placeholders
	tail     string
	width    int       // parameters per row
	full     *sql.Stmt // rowsPerStmt rows, prepared on first use
	args     []any
	affected int64 // rows the statements changed, summed
}

func newBatch(tx *sql.Tx, head, tuple, tail string) *batch {
	return &batch{
		tx:    tx,
		head:  head,
		tuple: tuple,
		tail:  tail,
		width: strings.Count(tuple, "?"),
	}
}

// add queues one row, whose values must match the tuple, and writes a full
// statement's worth of rows when it has them.
func (b *batch) add(ctx context.Context, row ...any) error {
	b.args = append(b.args, row...)
	if len(b.args) < b.width*rowsPerStmt {
		return nil
	}
	if b.full == nil {
		st, err := b.tx.PrepareContext(ctx, b.statement(rowsPerStmt))
		if err != nil {
			return err
		}
		b.full = st
	}
	res, err := b.full.ExecContext(ctx, b.args...)
	if err != nil {
		return err
	}
	b.args = b.args[:0] // database/sql has copied what it needs
	return b.count(res)
}

// flush writes the queued rows.
func (b *batch) flush(ctx context.Context) error {
	if len(b.args) == 0 {
		return nil
	}
	res, err := b.tx.ExecContext(ctx, b.statement(len(b.args)/b.width), b.args...)
	if err != nil {
		return err
	}
	b.args = b.args[:0]
	return b.count(res)
}

func (b *batch) count(res sql.Result) error {
	n, err := res.RowsAffected()
	b.affected += n
	return err
}

// close releases the prepared statement.
func (b *batch) close() {
	if b.full != nil {
		b.full.Close()
	}
}

func (b *batch) statement(rows int) string {
	var sb strings.Builder
	sb.Grow(len(b.head) + rows*(len(b.tuple)+1) + len(b.tail) + 2)
	sb.WriteString(b.head)
	sb.WriteByte(' ')
	for i := range rows {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(b.tuple)
	}
	sb.WriteByte(' ')
	sb.WriteString(b.tail)
	return sb.String()
}

// finishImport records a committed import in import_runs and, if it changed
// any row, advances the data version. It runs inside the import's own
// transaction, so both happen exactly when the import commits.
func (s *Store) finishImport(ctx context.Context, tx *sql.Tx, dataset string, started time.Time, st energy.ImportStats, changed bool) error {
	return recordImport(ctx, tx, store.ImportRun{Dataset: dataset, Started: started, Finished: s.now(), Stats: st}, changed)
}

// recordImport records run in import_runs and, if changed, advances the
// data version, stamped with the run's end.
func recordImport(ctx context.Context, tx *sql.Tx, run store.ImportRun, changed bool) error {
	if changed {
		if err := bumpVersion(ctx, tx, "data", run.Finished); err != nil {
			return err
		}
	}
	st := run.Stats
	_, err := tx.ExecContext(ctx, `INSERT INTO import_runs
		(dataset, started, finished, rows_read, inserted, updated, unchanged)
		VALUES (?, ?, ?, ?, ?, ?, ?)`,
		run.Dataset, run.Started.UnixMicro(), run.Finished.UnixMicro(), st.Read, st.Inserted, st.Updated, st.Unchanged)
	return err
}
