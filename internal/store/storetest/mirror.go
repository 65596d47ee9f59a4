package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
)

// runMirror runs the contract of a mirror's bookkeeping, with the plans'
// (RunPlans): open must return a new, empty store, and every call of
// openAgain another handle on it (as a second mirror process has).
func runMirror(t *testing.T, open func(t *testing.T) (PlanStore, func() PlanStore)) {
	t.Run("MirrorLeases", func(t *testing.T) { testMirrorLeases(t, open) })
	t.Run("MirrorCalls", func(t *testing.T) { testMirrorCalls(t, open) })
	t.Run("MirrorMarkCommitsWithImport", func(t *testing.T) { testMirrorMarkAtomic(t, open) })
	t.Run("MirrorInstances", func(t *testing.T) { testMirrorInstances(t, open) })
}

func testMirrorLeases(t *testing.T, open func(t *testing.T) (PlanStore, func() PlanStore)) {
	a, again := open(t)
	b := again()
	ctx := t.Context()
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	w := store.MirrorWindow{Key: "total-load/2024-01-01..2024-02-29", Dataset: "total-load", FirstDay: "2024-01-01", LastDay: "2024-02-29", Priority: 1}
	if err := a.PlanMirrorWindows(ctx, []store.MirrorWindow{w}); err != nil {
		t.Fatal(err)
	}
	if ok, err := a.ClaimMirrorWindow(ctx, w.Key, "A", 0, now, now.Add(time.Minute)); err != nil || !ok {
		t.Fatalf("first claim: %v, %v; want the lease", ok, err)
	}
	if ok, _ := b.ClaimMirrorWindow(ctx, w.Key, "B", 0, now.Add(time.Second), now.Add(time.Minute)); ok {
		t.Fatal("B claimed a window A holds the lease of")
	}
	if err := b.MarkMirrorWindow(ctx, store.MirrorMark{Key: w.Key, Owner: "B", At: now}); !errors.Is(err, store.ErrMirrorLeaseLost) {
		t.Fatalf("B marked a window it holds no lease of: %v", err)
	}
	if err := a.MarkMirrorWindow(ctx, store.MirrorMark{Key: w.Key, Owner: "A", At: now, Digest: "d1", Records: 7, Changed: true}); err != nil {
		t.Fatal(err)
	}
	// B read the window unfetched: its claim must fail now that A fetched it.
	if ok, _ := b.ClaimMirrorWindow(ctx, w.Key, "B", 0, now.Add(2*time.Second), now.Add(time.Minute)); ok {
		t.Fatal("B claimed, in the state it read before, a window A fetched since")
	}
	ws, err := b.MirrorWindows(ctx)
	if err != nil || len(ws) != 1 || ws[0].Fetches != 1 || ws[0].Digest != "d1" || ws[0].Records != 7 || !ws[0].FetchedAt.Equal(now) || !ws[0].ChangedAt.Equal(now) || ws[0].LeaseOwner != "" {
		t.Fatalf("MirrorWindows: got %+v, %v; want one fetched by A, no lease", ws, err)
	}
	// An expired lease is free to take; a re-plan keeps what was fetched.
	if ok, _ := a.ClaimMirrorWindow(ctx, w.Key, "A", 1, now, now.Add(time.Minute)); !ok {
		t.Fatal("A could not claim the fetched window again")
	}
	if ok, _ := b.ClaimMirrorWindow(ctx, w.Key, "B", 1, now.Add(2*time.Minute), now.Add(3*time.Minute)); !ok {
		t.Fatal("B could not take an expired lease")
	}
	w.Priority = 9
	if err := a.PlanMirrorWindows(ctx, []store.MirrorWindow{w}); err != nil {
		t.Fatal(err)
	}
	if ws, _ := a.MirrorWindows(ctx); ws[0].Priority != 9 || ws[0].Fetches != 1 || ws[0].LeaseOwner != "B" {
		t.Fatalf("after a re-plan: %+v", ws[0])
	}
	if err := b.ReleaseMirrorWindow(ctx, w.Key, "B"); err != nil {
		t.Fatal(err)
	}
	if ws, _ := a.MirrorWindows(ctx); ws[0].LeaseOwner != "" {
		t.Fatalf("after release: %+v", ws[0])
	}
}

func testMirrorCalls(t *testing.T, open func(t *testing.T) (PlanStore, func() PlanStore)) {
	a, again := open(t)
	b := again()
	ctx := t.Context()
	// Two processes claim at once: never more than the limits grant.
	var mu sync.Mutex
	granted := map[store.MirrorRefusal]int{}
	var wg sync.WaitGroup
	for _, s := range []PlanStore{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for sec := int64(1000); sec < 1010; sec++ {
				for range 3 {
					r, err := s.ClaimMirrorCall(ctx, "2025-01-01", sec, 15, 2)
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					granted[r]++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if granted[store.MirrorCallGranted] != 15 {
		t.Errorf("granted %d calls of a day of 15 (2 a second over 10 seconds): %v", granted[store.MirrorCallGranted], granted)
	}
	if n, err := a.MirrorCalls(ctx, "2025-01-01"); err != nil || n != 15 {
		t.Errorf("MirrorCalls: %d, %v; want 15", n, err)
	}
	if r, _ := a.ClaimMirrorCall(ctx, "2025-01-02", 90000, 15, 2); r != store.MirrorCallGranted {
		t.Errorf("the next day's first call: %v", r)
	}
	if err := b.SpendMirrorDay(ctx, "2025-01-02", 15); err != nil {
		t.Fatal(err)
	}
	if r, _ := a.ClaimMirrorCall(ctx, "2025-01-02", 90001, 15, 2); r != store.MirrorOverDay {
		t.Errorf("a call of a day the upstream said was spent: %v, want over the day", r)
	}
}

func testMirrorMarkAtomic(t *testing.T, open func(t *testing.T) (PlanStore, func() PlanStore)) {
	s, _ := open(t)
	ctx := t.Context()
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	w := store.MirrorWindow{Key: "k", Dataset: "d", FirstDay: "2024-01-01", LastDay: "2024-01-01"}
	if err := s.PlanMirrorWindows(ctx, []store.MirrorWindow{w}); err != nil {
		t.Fatal(err)
	}
	ref := dataset.PartRef{Dataset: "d", ID: "2024"}
	merge := func(_ []dataset.StoredPart, at time.Time) ([]dataset.StoredPart, energy.ImportStats, error) {
		return []dataset.StoredPart{{PartRef: ref, Written: at, Records: 1, Data: []byte("x")}}, energy.ImportStats{Inserted: 1}, nil
	}
	mark := func(ctx context.Context, tx store.Querier) error {
		return store.MarkMirrorWindowTx(ctx, tx, store.MirrorMark{Key: "k", Owner: "A", At: now})
	}
	// Without the lease the mark fails, and the import with it.
	if _, err := s.UpdatePartsThen(ctx, "d", now, []dataset.PartRef{ref}, merge, mark); !errors.Is(err, store.ErrMirrorLeaseLost) {
		t.Fatalf("import with a mark of a window not leased: %v", err)
	}
	if v, err := s.DataVersion(ctx); err != nil || v != 0 {
		t.Fatalf("the import whose mark failed left data version %d (%v)", v, err)
	}
	if ok, err := s.ClaimMirrorWindow(ctx, "k", "A", 0, now, now.Add(time.Minute)); err != nil || !ok {
		t.Fatal(ok, err)
	}
	if _, err := s.UpdatePartsThen(ctx, "d", now, []dataset.PartRef{ref}, merge, mark); err != nil {
		t.Fatal(err)
	}
	ws, _ := s.MirrorWindows(ctx)
	if v, _ := s.DataVersion(ctx); v != 1 || ws[0].Fetches != 1 {
		t.Fatalf("after the import: data version %d, window %+v", v, ws[0])
	}
}

func testMirrorInstances(t *testing.T, open func(t *testing.T) (PlanStore, func() PlanStore)) {
	s, _ := open(t)
	ctx := t.Context()
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	a := store.MirrorInstance{ID: "m", Host: "h1", PID: 10, Upstream: "u", Heartbeat: now}
	alive := func(int64) bool { return false }
	if err := s.StartMirrorInstance(ctx, a, 15*time.Second, alive); err != nil {
		t.Fatal(err)
	}
	b := a
	b.Host, b.Heartbeat = "h2", now.Add(5*time.Second)
	if err := s.StartMirrorInstance(ctx, b, 15*time.Second, alive); !errors.Is(err, store.ErrMirrorRunning) {
		t.Fatalf("a second process under a live ID: %v", err)
	}
	// On the same host a process that has ended is taken over at once.
	c := a
	c.PID, c.Heartbeat = 11, now.Add(time.Second)
	if err := s.StartMirrorInstance(ctx, c, 15*time.Second, func(pid int64) bool { return pid == 10 }); err != nil {
		t.Fatalf("taking over from an ended process: %v", err)
	}
	if err := s.HeartbeatMirrorInstance(ctx, a); !errors.Is(err, store.ErrMirrorRunning) {
		t.Fatalf("the old process's heartbeat after the takeover: %v", err)
	}
	b.Heartbeat = now.Add(time.Minute)
	if err := s.StartMirrorInstance(ctx, b, 15*time.Second, alive); err != nil {
		t.Fatalf("taking over from a silent process: %v", err)
	}
}
