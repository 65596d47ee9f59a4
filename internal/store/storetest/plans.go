package storetest

import (
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/limit"
	"github.com/energyapi/energyapi/internal/store"
)

// PlanStore is a store that keeps plans, usage and quotas.
type PlanStore interface {
	Store
	limit.PlanStore
	limit.UsageStore
	store.MirrorBook
}

// RunPlans runs the contract of plans, usage and quota claims, and of the
// bookkeeping of a mirror's calls against an upstream's limits with it. open must
// return a new, empty store; every call of openAgain returns another
// handle on the same store (as another replica has).
func RunPlans(t *testing.T, open func(t *testing.T) (s PlanStore, openAgain func() PlanStore)) {
	t.Run("Plans", func(t *testing.T) { testPlans(t, open) })
	t.Run("PlanChanges", func(t *testing.T) { testPlanChanges(t, open) })
	t.Run("Usage", func(t *testing.T) { testUsage(t, open) })
	t.Run("QuotaClaims", func(t *testing.T) { testQuotaClaims(t, open) })
	runMirror(t, open)
}

func testPlans(t *testing.T, open func(t *testing.T) (PlanStore, func() PlanStore)) {
	s, _ := open(t)
	ctx := t.Context()
	free := limit.Plan{Name: "free", PerSecond: 1, Burst: 2, PerDay: 300, MaxRangeDays: 7}
	for _, p := range []limit.Plan{free, {Name: "pro", PerDay: 10000}, {Name: "pro", PerDay: 20000}} {
		if err := s.PutPlan(ctx, p); err != nil {
			t.Fatalf("PutPlan(%+v): %v", p, err)
		}
	}
	got, err := s.Plans(ctx)
	if err != nil || len(got) != 2 || got[0] != free || got[1].PerDay != 20000 {
		t.Fatalf("Plans: got %+v, %v; want free and pro with 20000 a day", got, err)
	}
	if err := s.PutPlan(ctx, limit.Plan{Name: "bad name"}); energy.ErrorCode(err) != energy.Invalid {
		t.Errorf("PutPlan with a bad name: got %v, want Invalid", err)
	}
	if err := s.CreateClient(ctx, auth.Client{ID: "c1", Name: "c1", Created: time.Unix(1, 0)}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ client, plan string }{{"nobody", "free"}, {"c1", "none"}} {
		if err := s.SetClientPlan(ctx, tc.client, tc.plan); energy.ErrorCode(err) != energy.NotFound {
			t.Errorf("SetClientPlan(%q, %q): got %v, want NotFound", tc.client, tc.plan, err)
		}
	}
	if err := s.SetClientPlan(ctx, "c1", "free"); err != nil {
		t.Fatal(err)
	}
	if m, err := s.ClientPlans(ctx); err != nil || m["c1"] != "free" || len(m) != 1 {
		t.Errorf("ClientPlans: got %v, %v; want c1 on free", m, err)
	}
	if err := s.DeletePlan(ctx, "free"); err != nil {
		t.Fatal(err)
	}
	if m, err := s.ClientPlans(ctx); err != nil || len(m) != 0 {
		t.Errorf("ClientPlans after its plan was deleted: got %v, %v; want none", m, err)
	}
	if err := s.DeletePlan(ctx, "free"); energy.ErrorCode(err) != energy.NotFound {
		t.Errorf("DeletePlan twice: got %v, want NotFound", err)
	}
}

func testUsage(t *testing.T, open func(t *testing.T) (PlanStore, func() PlanStore)) {
	s, again := open(t)
	ctx := t.Context()
	rows := []limit.UsageRow{
		{ClientID: "a", Day: "2026-11-25", Dataset: "total-load", Calls: 2},
		{ClientID: "a", Day: "2026-11-26", Dataset: "total-load", Calls: 3},
		{ClientID: "b", Day: "2026-11-26", Dataset: "prices", Calls: 1},
	}
	if err := s.AddUsage(ctx, rows); err != nil {
		t.Fatal(err)
	}
	// Another replica adds to the same aggregates.
	if err := again().AddUsage(ctx, rows[1:2]); err != nil {
		t.Fatal(err)
	}
	got, err := s.Usage(ctx, "a", "2026-11-26", "2026-11-30")
	if err != nil || len(got) != 1 || got[0].Calls != 6 {
		t.Errorf("Usage of a from 26 November: got %+v, %v; want 6 calls to total-load", got, err)
	}
	if got, err := s.Usage(ctx, "", "2026-11-01", "2026-11-30"); err != nil || len(got) != 3 || got[2].ClientID != "b" {
		t.Errorf("Usage of everyone: got %+v, %v; want 3 rows, by client", got, err)
	}
}

// testQuotaClaims claims a quota of 100 from many goroutines on two
// handles at once: the grants add up to exactly 100, and nothing after.
func testQuotaClaims(t *testing.T, open func(t *testing.T) (PlanStore, func() PlanStore)) {
	s, again := open(t)
	ctx := t.Context()
	stores := []PlanStore{s, again()}
	var mu sync.Mutex
	var wg sync.WaitGroup
	total := int64(0)
	for i := range 16 {
		wg.Go(func() {
			for range 10 {
				g, claimed, err := stores[i%2].ClaimQuota(ctx, "c", "2026-11-26", 3, 100)
				if err != nil {
					t.Error(err)
					return
				}
				if claimed > 100 {
					t.Errorf("claimed %d of 100", claimed)
				}
				mu.Lock()
				total += g
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if total != 100 {
		t.Fatalf("grants: got %d in all, want 100", total)
	}
	if err := s.ReleaseQuota(ctx, "c", "2026-11-26", 4); err != nil {
		t.Fatal(err)
	}
	if g, claimed, err := s.ClaimQuota(ctx, "c", "2026-11-26", 10, 100); err != nil || g != 4 || claimed != 100 {
		t.Errorf("claim after 4 released: got %d (%d claimed), %v; want 4 (100)", g, claimed, err)
	}
	if n, err := s.QuotaClaimed(ctx, "c", "2026-11-27"); err != nil || n != 0 {
		t.Errorf("QuotaClaimed of another day: got %d, %v; want 0", n, err)
	}
}

// testPlanChanges checks that a client created on a plan has it from the
// transaction that creates it, that an unknown plan creates no client, and
// that every change to plans advances the clients version, which serving
// processes watch to reload the plans with the clients.
func testPlanChanges(t *testing.T, open func(t *testing.T) (PlanStore, func() PlanStore)) {
	s, _ := open(t)
	ctx := t.Context()
	version := func() int64 {
		t.Helper()
		v, err := s.ClientsVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	changes := []struct {
		what string
		do   func() error
	}{
		{"PutPlan", func() error { return s.PutPlan(ctx, limit.Plan{Name: "ten", PerDay: 10}) }},
		{"CreateClient on a plan", func() error {
			return s.CreateClient(ctx, auth.Client{ID: "c1", Name: "c1", Created: time.Unix(1, 0), Plan: "ten"})
		}},
		{"PutPlan again", func() error { return s.PutPlan(ctx, limit.Plan{Name: "two", PerDay: 2}) }},
		{"SetClientPlan", func() error { return s.SetClientPlan(ctx, "c1", "two") }},
		{"SetClientPlan to the default", func() error { return s.SetClientPlan(ctx, "c1", "") }},
		{"DeletePlan", func() error { return s.DeletePlan(ctx, "two") }},
	}
	for _, c := range changes {
		before := version()
		if err := c.do(); err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		if after := version(); after == before {
			t.Errorf("%s: the clients version stayed %d, want it advanced", c.what, before)
		}
		if c.what == "CreateClient on a plan" {
			if m, err := s.ClientPlans(ctx); err != nil || m["c1"] != "ten" {
				t.Errorf("ClientPlans after CreateClient on ten: got %v, %v; want c1 on ten", m, err)
			}
		}
	}
	err := s.CreateClient(ctx, auth.Client{ID: "c2", Name: "c2", Created: time.Unix(1, 0), Plan: "none"})
	if energy.ErrorCode(err) != energy.NotFound {
		t.Errorf("CreateClient on an unknown plan: got %v, want NotFound", err)
	}
	if _, err := s.Client(ctx, "c2"); energy.ErrorCode(err) != energy.NotFound {
		t.Errorf("the client of a refused CreateClient: got %v, want NotFound (nothing stored)", err)
	}
}
