package dataset

import (
	"sync/atomic"
	"testing"

	"github.com/energyapi/energyapi/internal/energy"
)

// TestDemoSharedOncePerRun: two generators of one run asking DemoShared
// for the same key get the value built once; a second run builds it again,
// and a generator called outside a run builds it itself.
func TestDemoSharedOncePerRun(t *testing.T) {
	var built atomic.Int64
	got := map[string]int64{}
	gen := func(name string) func(DemoInput) []Row {
		return func(in DemoInput) []Row {
			got[name] = DemoShared(in, "n", func() int64 { return built.Add(1) })
			return nil
		}
	}
	quarters := func(name string) *Dataset {
		return &Dataset{
			Name: name, Area: "test", Version: "v2.0", Resource: name, Array: name,
			Message: MessageDates, Grain: QuarterHour,
			Params: []Param{{Name: "dateFrom", To: "dateTo", Kind: DateRange, Required: true, MaxDays: -1}},
			Fields: []Field{
				{Name: "date", Kind: Instant, TZ: "date_tz", Offset: "date_offset"},
				{Name: "value", Kind: Number, Format: PointFull},
			},
			Demo: gen(name),
		}
	}
	c := newTestCatalog(t, quarters("first"), quarters("second"))
	day := energy.Date{Year: 2024, Month: 1, Day: 1}
	run := func() {
		err := c.EachDemo(DemoInput{First: day, Last: day}, func(_, _ int, _ *Dataset, generate func() []Row) error {
			generate()
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	run()
	if built.Load() != 1 || got["first"] != 1 || got["second"] != 1 {
		t.Fatalf("one run: built %d times, values %v; want once, both 1", built.Load(), got)
	}
	run()
	if built.Load() != 2 || got["first"] != 2 || got["second"] != 2 {
		t.Fatalf("a second run: built %d times, values %v; want twice, both 2", built.Load(), got)
	}
	if gen("alone")(DemoInput{}); built.Load() != 3 || got["alone"] != 3 {
		t.Fatalf("outside a run: built %d times, value %d; want a third build", built.Load(), got["alone"])
	}
}

// TestEachDemoOfGeneratesWhatTheNamedRead: EachDemoOf gives fn the named
// datasets only, with the records of the datasets they read, and generates
// no dataset that neither they nor their sources need.
func TestEachDemoOfGeneratesWhatTheNamedRead(t *testing.T) {
	generated := map[string]int{}
	series := func(name string, from ...string) *Dataset {
		d := testSeries()
		d.Name, d.Resource, d.DemoFrom = name, name, from
		d.Demo = func(in DemoInput) []Row {
			generated[name]++
			return append([]Row{{Time: int64(len(name))}}, in.From[from0(from)]...)
		}
		return d
	}
	c := newTestCatalog(t, series("source"), series("other"), series("reader", "source"), series("unread"))
	var given []string
	err := c.EachDemoOf(DemoInput{}, []string{"reader"}, func(_, _ int, d *Dataset, generate func() []Row) error {
		given = append(given, d.Name)
		if rows := generate(); len(rows) != 2 || rows[1].Time != int64(len("source")) {
			t.Errorf("reader: got %v, want its own record and the source's", rows)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(given) != 1 || given[0] != "reader" {
		t.Errorf("fn was given %v, want [reader]", given)
	}
	if generated["source"] != 1 || generated["reader"] != 1 || generated["other"] != 0 || generated["unread"] != 0 {
		t.Errorf("generated %v, want source and reader once, nothing else", generated)
	}
}

func from0(from []string) string {
	if len(from) == 0 {
		return ""
	}
	return from[0]
}
