package sqlite

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/store/storetest"
)

// TestMigrationFillsSpans migrates a file from schema 6, whose parts keep
// no span, and checks that the current and the replaced versions of a part
// get the moments of their first and last records.
func TestMigrationFillsSpans(t *testing.T) {
	path, db := fileAt(t, 6)
	data, n, first, last := storetest.EncodedPart(t)
	db.Exec(t,
		fmt.Sprintf(`INSERT INTO parts (dataset, id, version, written, records, data) VALUES ('sensor', '2024-03', 2, 20, %d, x'%x')`, n, data),
		fmt.Sprintf(`INSERT INTO part_history (dataset, id, version, written, replaced_by, replaced_at, records, data) VALUES ('sensor', '2024-03', 1, 10, 2, 20, %d, x'%x')`, n, data),
		`INSERT INTO parts (dataset, id, version, written, records, data) VALUES ('sensor', '2024-04', 2, 20, 0, x'00')`)
	s := openStore(t, path)
	list, err := s.ListParts(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Parts) != 2 || list.Parts[0].First != first || list.Parts[0].Last != last || list.Parts[1].First != 0 {
		t.Fatalf("ListParts after migrating: got %+v, want 2024-03 from %d to %d, 2024-04 without", list.Parts, first, last)
	}
	old, err := s.ReadPart(t.Context(), dataset.PartRef{Dataset: "sensor", ID: "2024-03"}, 1)
	if err != nil || old.First != first || old.Last != last {
		t.Fatalf("ReadPart of the replaced version: got %d..%d (%v), want %d..%d", old.First, old.Last, err, first, last)
	}
}

// TestListingReadsNoPartBytes: the listing a server reads at start is
// answered from the index parts_listing alone. Without it, SQLite reads
// first_time and last_time, which follow each part's bytes, by walking
// every part's overflow pages (0.9 s for twenty years of parts).
func TestListingReadsNoPartBytes(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "energy.db"))
	rows, err := s.r.QueryContext(t.Context(), "EXPLAIN QUERY PLAN "+listPartsQuery)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if len(plan) != 1 || plan[0] != "SCAN parts USING COVERING INDEX parts_listing" {
		t.Errorf("the listing's plan is %q, want a scan of the covering index parts_listing alone", plan)
	}
}
