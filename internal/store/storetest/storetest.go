// Package storetest is the behavioural contract of the stores. Every store
// (SQLite, PostgreSQL) runs the same suite against a real database, so that
// the server behaves the same on either; the tests are written here once,
// and each store's package keeps only what needs its own SQL.
//
// Beyond what the interfaces' doc comments say, the suite holds stores to
// these rules:
//   - Times round-trip to the microsecond (tests use whole seconds).
//   - Clients come by creation time and ID, and parts (ChangedParts) by
//     dataset, then ID, strings compared byte by byte whatever the
//     database's collation (PostgreSQL: COLLATE "C").
//   - Text is kept only if it is UTF-8 without NUL bytes (what PostgreSQL's
//     text holds): every write refuses other text with code Invalid, and a
//     lookup by such a key reports NotFound.
//   - Every committed import counts as a run in ImportTotals, even one that
//     changed nothing or had no records; failed imports do not count.
//     ImportTotals lists only datasets with runs, by dataset name.
//   - A failed write of any kind leaves the versions as they were.
//   - UpdateParts hands merge the stored parts in ChangedParts' order, each
//     once however often refs names it, and stamps the data version with
//     the time the import ended. Names and IDs of parts follow the rule on
//     text; a part's bytes and record count come back as written.
//
// RunShared and the test of an import failing midway hold stores to more,
// where a test needs two processes on one database or SQL of the store's
// own. RunDriver runs every shared test, those on opening and migrating a
// database included, against the Driver a store's package fills in, and
// Bench its benchmarks; RunParts holds dataset.Memory to the rules on parts
// that apply to it, and RunFill the stores and dataset.Memory alike to
// dataset.PartFiller. The catalogue comes from the caller: nothing under
// internal/store imports it.
package storetest

import (
	"context"
	"testing"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Store is everything a store implements.
type Store interface {
	auth.ClientStore
	auth.ClientWatcher
	auth.KeyStore
	energy.ImportHistory
	dataset.PartSource
	dataset.PartWriter
	dataset.PartFiller
	Ping(context.Context) error
	Close() error
}

// PartStore is what a store of parts implements: every store, and
// dataset.Memory.
type PartStore interface {
	dataset.PartSource
	dataset.PartWriter
}

// Run runs the contract suite, with c the catalogue the server serves
// (catalog.New: nothing under internal/store imports the catalogue, so the
// caller hands it in). open must return a new, empty store for the
// test it is given and arrange for the store to be closed when that test ends
// (t.Cleanup). Subtests do not run in parallel, so open need not support that.
func Run(t *testing.T, c *dataset.Catalog, open func(t *testing.T) Store) {
	t.Run("Ping", func(t *testing.T) {
		if err := open(t).Ping(t.Context()); err != nil {
			t.Fatalf("Ping: got error %v, want nil", err)
		}
	})
	t.Run("Clients", func(t *testing.T) { testClients(t, open) })
	t.Run("SigningKeys", func(t *testing.T) { testSigningKeys(t, open) })
	t.Run("ServerSecret", func(t *testing.T) { testServerSecret(t, open) })
	t.Run("Text", func(t *testing.T) { testText(t, open) })
	t.Run("TextOrder", func(t *testing.T) { testTextOrder(t, open) })
	t.Run("Parts", func(t *testing.T) { testParts(t, c, open) })
	t.Run("PartListing", func(t *testing.T) { testPartListing(t, open) })
}
