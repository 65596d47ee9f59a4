package sqlite

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// TestPartHistory checks that an import that replaces a part keeps the
// replaced one in part_history, stamped with the store's clock, and that
// the current part carries the time it was written.
func TestPartHistory(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "energy.db"))
	ref := dataset.PartRef{Dataset: "test", ID: "2024-01"}
	write := func(at time.Time, records int, data string) {
		t.Helper()
		s.now = func() time.Time { return at }
		_, err := s.UpdateParts(t.Context(), "test", at, []dataset.PartRef{ref},
			func([]dataset.StoredPart, time.Time) ([]dataset.StoredPart, energy.ImportStats, error) {
				return []dataset.StoredPart{{PartRef: ref, Records: records, Data: []byte(data)}}, energy.ImportStats{}, nil
			})
		if err != nil {
			t.Fatal(err)
		}
	}
	t1 := time.Date(2025, 1, 1, 0, 0, 0, 1000, time.UTC)
	t2 := time.Date(2025, 1, 2, 0, 0, 0, 2000, time.UTC)
	t3 := time.Date(2025, 1, 3, 0, 0, 0, 3000, time.UTC)
	write(t1, 1, "one")
	write(t2, 2, "two")
	write(t3, 3, "three")

	query := func(q string) []string {
		t.Helper()
		rows, err := s.r.QueryContext(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			var line []string
			for _, v := range vals {
				if b, ok := v.([]byte); ok {
					v = string(b)
				}
				line = append(line, fmt.Sprint(v))
			}
			got = append(got, fmt.Sprint(line))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return got
	}
	cases := []struct {
		query string
		want  []string
	}{
		{`SELECT dataset, id, version, written, records, data FROM parts`,
			[]string{"[test 2024-01 3 1735862400000003 3 three]"}},
		{`SELECT dataset, id, version, written, replaced_by, replaced_at, records, data FROM part_history ORDER BY version`,
			[]string{
				"[test 2024-01 1 1735689600000001 2 1735776000000002 1 one]",
				"[test 2024-01 2 1735776000000002 3 1735862400000003 2 two]",
			}},
	}
	for _, c := range cases {
		if got := query(c.query); !slices.Equal(got, c.want) {
			t.Errorf("%s:\ngot  %q\nwant %q", c.query, got, c.want)
		}
	}
}
