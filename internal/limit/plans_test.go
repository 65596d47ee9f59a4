package limit_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/limit"
	"github.com/energyapi/energyapi/internal/store/sqlite"
)

// clock is a settable time source shared by the replicas of a test.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// failing is a store whose AddUsage fails while fail is set.
type failing struct {
	*sqlite.Store
	fail bool
}

func (f *failing) AddUsage(ctx context.Context, rows []limit.UsageRow) error {
	if f.fail {
		return errors.New("store down")
	}
	return f.Store.AddUsage(ctx, rows)
}

// newPlansStore returns a SQLite store holding plans and a client c1 on
// the plan "p".
func newPlansStore(t *testing.T, p limit.Plan) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	p.Name = "p"
	if err := st.PutPlan(t.Context(), p); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateClient(t.Context(), auth.Client{ID: "c1", Name: "c1", Created: time.Unix(1, 0)}); err != nil {
		t.Fatal(err)
	}
	if err := st.SetClientPlan(t.Context(), "c1", "p"); err != nil {
		t.Fatal(err)
	}
	return st
}

func newPlans(t *testing.T, cfg limit.PlansConfig) *limit.Plans {
	t.Helper()
	p := limit.NewPlans(cfg)
	if err := p.Reload(t.Context()); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPlansAlignedSecond: in the public style the per-second limit counts
// calls per clock second, so two calls 100 ms apart across a second
// boundary are both admitted, and a third inside one second is refused
// until the next second begins.
func TestPlansAlignedSecond(t *testing.T) {
	clk := &clock{time.Date(2026, 11, 26, 10, 0, 0, 900e6, time.UTC)}
	p := newPlans(t, limit.PlansConfig{Store: newPlansStore(t, limit.Plan{PerSecond: 2}), Aligned: true, Now: clk.now})
	steps := []struct {
		advance time.Duration
		ok      bool
		retry   time.Duration
	}{
		{0, true, 0}, {50 * time.Millisecond, true, 0}, {10 * time.Millisecond, false, 40 * time.Millisecond},
		{40 * time.Millisecond, true, 0}, {500 * time.Millisecond, true, 0}, {400 * time.Millisecond, false, 100 * time.Millisecond},
	}
	for i, s := range steps {
		clk.t = clk.t.Add(s.advance)
		d := p.Admit(t.Context(), "c1", "total-load")
		if (d.Refused == limit.Admitted) != s.ok || d.RetryAfter != s.retry {
			t.Errorf("call %d at %s: got %v retry %v, want admitted=%v retry %v", i+1, clk.t.Format("05.000"), d.Refused, d.RetryAfter, s.ok, s.retry)
		}
	}
}

// TestPlansQuotaBlocksAcrossReplicas: two replicas share a quota of 12 in
// blocks of 5. Calls spread unevenly never make more than 12 admitted;
// the calls one replica holds unused go back once it is idle, so that all
// 12 are admitted in the end and the 13th is refused on both.
func TestPlansQuotaBlocksAcrossReplicas(t *testing.T) {
	st := newPlansStore(t, limit.Plan{PerDay: 12})
	clk := &clock{time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)}
	cfg := limit.PlansConfig{Store: st, Block: 5, IdleRelease: 10 * time.Second, Now: clk.now}
	a, b := newPlans(t, cfg), newPlans(t, cfg)
	admitted := 0
	call := func(p *limit.Plans) bool {
		ok := p.Admit(t.Context(), "c1", "total-load").Refused == limit.Admitted
		if ok {
			admitted++
		}
		if admitted > 12 {
			t.Fatalf("%d admitted, over the quota of 12", admitted)
		}
		return ok
	}
	call(a) // a holds 4 more
	for call(b) {
	}
	if admitted != 8 {
		t.Fatalf("b refused after %d in all, want 8 (a holds 4)", admitted)
	}
	clk.t = clk.t.Add(10 * time.Second)
	if err := a.Flush(t.Context(), false); err != nil { // a is idle: it gives its 4 back
		t.Fatal(err)
	}
	for call(b) {
	}
	if admitted != 12 || call(a) {
		t.Fatalf("after a gave its calls back: %d admitted, want 12 and no more", admitted)
	}
	// b's 11 calls are in its memory, a's one in the store since its
	// flush; b reads the store's usage at its own flushes (here, at once).
	if u, _ := b.Usage(t.Context(), "c1", 1); u.Calls != 11 {
		t.Fatalf("b's usage before it read a's flush: got %d calls, want its own 11", u.Calls)
	}
	if err := b.ReadUsage(t.Context()); err != nil {
		t.Fatal(err)
	}
	u, err := b.Usage(t.Context(), "c1", 1)
	if err != nil || u.Calls != 12 || u.Remaining != 0 {
		t.Fatalf("b's usage: got %+v, %v; want 12 calls, none left", u, err)
	}
	if err := b.Flush(t.Context(), true); err != nil {
		t.Fatal(err)
	}
	if err := a.ReadUsage(t.Context()); err != nil {
		t.Fatal(err)
	}
	if u, _ = a.Usage(t.Context(), "c1", 1); u.Calls != 12 {
		t.Fatalf("a's usage after b flushed: got %d calls, want 12", u.Calls)
	}
	// The next day starts a new quota.
	clk.t = clk.t.Add(24 * time.Hour)
	admitted = 0
	if !call(b) {
		t.Fatal("first call of the next day: refused, want admitted")
	}
}

// TestPlansFlushKeepsCallsOnError: calls a flush could not write are
// written by the next one, none twice.
func TestPlansFlushKeepsCallsOnError(t *testing.T) {
	st := &failing{Store: newPlansStore(t, limit.Plan{})}
	p := newPlans(t, limit.PlansConfig{Store: st})
	for range 3 {
		p.Admit(t.Context(), "c1", "total-load")
	}
	st.fail = true
	if err := p.Flush(t.Context(), false); err == nil {
		t.Fatal("flush to a failing store: got nil, want its error")
	}
	p.Admit(t.Context(), "c1", "total-load")
	st.fail = false
	if err := p.Flush(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	rows, err := st.Usage(t.Context(), "c1", "2000-01-01", "2100-01-01")
	if err != nil || len(rows) != 1 || rows[0].Calls != 4 {
		t.Fatalf("stored usage: got %+v, %v; want 4 calls", rows, err)
	}
}
