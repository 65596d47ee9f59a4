package postgres

import (
	"fmt"
	"testing"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/store/storetest"
)

// TestMigrationFillsSpans migrates a database from schema 6, whose parts
// keep no span, and checks that the current and the replaced versions of a
// part get the moments of their first and last records.
func TestMigrationFillsSpans(t *testing.T) {
	dsn := cluster.Database(t)
	db := atVersion(t, dsn, 6)
	data, n, first, last := storetest.EncodedPart(t)
	db.Exec(t,
		fmt.Sprintf(`INSERT INTO parts (dataset, id, version, written, records, data) VALUES ('sensor', '2024-03', 2, now(), %d, '\x%x')`, n, data),
		fmt.Sprintf(`INSERT INTO part_history (dataset, id, version, written, replaced_by, replaced_at, records, data) VALUES ('sensor', '2024-03', 1, now(), 2, now(), %d, '\x%x')`, n, data))
	s := openStore(t, dsn)
	list, err := s.ListParts(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Parts) != 1 || list.Parts[0].First != first || list.Parts[0].Last != last {
		t.Fatalf("ListParts after migrating: got %+v, want 2024-03 from %d to %d", list.Parts, first, last)
	}
	old, err := s.ReadPart(t.Context(), dataset.PartRef{Dataset: "sensor", ID: "2024-03"}, 1)
	if err != nil || old.First != first || old.Last != last {
		t.Fatalf("ReadPart of the replaced version: got %d..%d (%v), want %d..%d", old.First, old.Last, err, first, last)
	}
}
