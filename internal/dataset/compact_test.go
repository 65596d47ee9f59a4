package dataset_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// TestQuarterHourPointBytes measures what a decoded part of the demo's
// quarter-hourly total load costs per record: on the heap, and as
// Part.Bytes counts it for the memory budget, which must not undercount.
func TestQuarterHourPointBytes(t *testing.T) {
	c := family(t)
	// The month in the middle of the demo's range, generated alone: a
	// day's values do not depend on the range asked for.
	first, last := demo.LoadRange()
	mid := time.Unix((first.Start().Unix()+last.End().Unix())/2, 0).In(energy.Rome())
	monthFirst := energy.Date{Year: mid.Year(), Month: mid.Month(), Day: 1}
	monthLast := energy.DateOf(time.Date(mid.Year(), mid.Month()+1, 0, 12, 0, 0, 0, energy.Rome()))
	var rows []dataset.Row
	var d *dataset.Dataset
	err := c.EachDemo(dataset.DemoInput{First: monthFirst, Last: monthLast, Seed: demo.DefaultSeed}, func(_, _ int, e *dataset.Dataset, generate func() []dataset.Row) error {
		if e.Name == "total-load" {
			d, rows = e, generate()
		}
		return nil
	})
	if err != nil || len(rows) == 0 {
		t.Fatalf("demo total-load: %d rows (%v)", len(rows), err)
	}
	lay := c.Layout(d)
	id := dataset.PartID(d.Grain, rows[len(rows)/2].Time)
	var month []dataset.Row // a whole month's part, as the store keeps it
	for _, r := range rows {
		if dataset.PartID(d.Grain, r.Time) == id {
			r.Pub, r.Rev = 1, 1
			month = append(month, r)
		}
	}
	built := dataset.BuildPart(lay, id, month)
	b, err := built.Encode()
	if err != nil {
		t.Fatal(err)
	}
	sp := dataset.StoredPart{PartRef: dataset.PartRef{Dataset: d.Name, ID: id}, Data: b}
	const copies = 20
	parts := make([]*dataset.Part, copies)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range parts {
		if parts[i], err = dataset.DecodePart(lay, sp); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	n := float64(parts[0].Len())
	heap := float64(after.HeapAlloc-before.HeapAlloc) / copies / n
	counted := float64(parts[0].Bytes()) / n
	t.Logf("total-load, %d records a part: %.1f bytes a record on the heap, %.1f counted by Part.Bytes", parts[0].Len(), heap, counted)
	// 26 bytes with int64 times, uint16 codes and float64 numbers.
	if heap > 16 {
		t.Errorf("a record costs %.1f bytes on the heap, want at most 16", heap)
	}
	if counted < heap*0.9 {
		t.Errorf("Part.Bytes counts %.1f bytes a record, under the %.1f on the heap", counted, heap)
	}
	runtime.KeepAlive(parts)
}
