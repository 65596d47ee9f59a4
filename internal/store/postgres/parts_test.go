package postgres

import (
	"slices"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/jackc/pgx/v5"
)

// TestPartHistory checks that an import that replaces a part keeps the
// replaced one in part_history, stamped with the store's clock, and that
// the current part carries the time it was written.
func TestPartHistory(t *testing.T) {
	s := newStore(t)
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
	write(time.Date(2025, 1, 1, 0, 0, 0, 1000, time.UTC), 1, "one")
	write(time.Date(2025, 1, 2, 0, 0, 0, 2000, time.UTC), 2, "two")
	write(time.Date(2025, 1, 3, 0, 0, 0, 3000, time.UTC), 3, "three")

	cases := []struct {
		query string
		want  []string
	}{
		{`SELECT concat_ws(' ', dataset, id, version, to_char(written AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'), records, convert_from(data, 'UTF8'))
			FROM parts`,
			[]string{"test 2024-01 3 2025-01-03T00:00:00.000003 3 three"}},
		{`SELECT concat_ws(' ', dataset, id, version, to_char(written AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
				replaced_by, to_char(replaced_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'), records, convert_from(data, 'UTF8'))
			FROM part_history ORDER BY version`,
			[]string{
				"test 2024-01 1 2025-01-01T00:00:00.000001 2 2025-01-02T00:00:00.000002 1 one",
				"test 2024-01 2 2025-01-02T00:00:00.000002 3 2025-01-03T00:00:00.000003 2 two",
			}},
	}
	for _, c := range cases {
		rows, err := s.pool.Query(t.Context(), c.query)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s:\ngot  %q\nwant %q", c.query, got, c.want)
		}
	}
}
