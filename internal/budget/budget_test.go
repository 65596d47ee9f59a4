package budget

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestLeastRecentlyUsedGoesFirstAcrossCaches(t *testing.T) {
	b := New(100)
	parts := NewCache[string, int](b)
	answers := NewCache[string, int](b)
	parts.Put("p1", 1, 20)
	answers.Put("a1", 1, 20)
	parts.Put("p2", 2, 20)
	answers.Put("a2", 2, 20)
	parts.Get("p1") // p1 is now the most recently used
	answers.Put("a3", 3, 25)
	if b.Used() > 100 {
		t.Fatalf("used %d bytes of a 100-byte budget", b.Used())
	}
	if _, ok := answers.Get("a1"); ok {
		t.Error("a1, the least recently used, is still kept")
	}
	for _, k := range []string{"p1", "p2"} {
		if _, ok := parts.Get(k); !ok {
			t.Errorf("%s was dropped before older entries", k)
		}
	}
	if _, ok := answers.Get("a3"); !ok {
		t.Error("a3, just put, is not kept")
	}
}

func TestReplacingAValueCountsItsNewSize(t *testing.T) {
	b := New(100)
	c := NewCache[string, int](b)
	c.Put("k", 1, 10)
	c.Put("k", 2, 15)
	if v, _ := c.Get("k"); v != 2 || b.Used() != 15 {
		t.Fatalf("value %d, used %d; want 2 and 15", v, b.Used())
	}
}

func TestValuesOverAQuarterOfTheBudgetAreNotKept(t *testing.T) {
	b := New(100)
	c := NewCache[string, int](b)
	c.Put("big", 1, 26)
	if _, ok := c.Get("big"); ok || b.Used() != 0 {
		t.Fatalf("a 26-byte value was kept in a 100-byte budget (used %d)", b.Used())
	}
}

func TestLoadRunsOncePerKey(t *testing.T) {
	b := New(1000)
	c := NewCache[string, int](b)
	var calls atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := c.Load(context.Background(), "k", func(context.Context) (int, int64, error) {
				calls.Add(1)
				<-release
				return 7, 10, nil
			})
			if err != nil || v != 7 {
				t.Errorf("Load = %d, %v", v, err)
			}
		}()
	}
	time.Sleep(20 * time.Millisecond)
	close(release)
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Fatalf("20 concurrent loads of one key ran the loader %d times", n)
	}
}

func TestFailedLoadIsNotKept(t *testing.T) {
	c := NewCache[string, int](New(1000))
	boom := errors.New("boom")
	if _, err := c.Load(context.Background(), "k", func(context.Context) (int, int64, error) { return 0, 0, boom }); !errors.Is(err, boom) {
		t.Fatalf("err %v, want boom", err)
	}
	v, err := c.Load(context.Background(), "k", func(context.Context) (int, int64, error) { return 3, 1, nil })
	if err != nil || v != 3 {
		t.Fatalf("second load = %d, %v; want 3", v, err)
	}
}

func TestALoadCancelledByItsCallerIsRetriedByAWaiter(t *testing.T) {
	c := NewCache[string, int](New(1000))
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	go func() {
		_, _ = c.Load(ctx, "k", func(ctx context.Context) (int, int64, error) {
			close(started)
			<-ctx.Done()
			return 0, 0, ctx.Err()
		})
	}()
	<-started
	done := make(chan error)
	go func() {
		v, err := c.Load(context.Background(), "k", func(context.Context) (int, int64, error) { return 5, 1, nil })
		if err == nil && v != 5 {
			err = errors.New("wrong value")
		}
		done <- err
	}()
	time.Sleep(10 * time.Millisecond)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("the waiter got %v; want the value of its own load", err)
	}
}

func TestHoldDropsCachedEntriesThenWaits(t *testing.T) {
	b := New(100)
	c := NewCache[string, int](b)
	c.Put("a", 1, 25)
	c.Put("b", 1, 25)
	if err := b.Hold(context.Background(), 80); err != nil {
		t.Fatal(err)
	}
	if b.Used() > 100 || c.Len() > 0 {
		t.Fatalf("used %d with %d entries kept; the hold should have dropped them", b.Used(), c.Len())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if err := b.Hold(ctx, 40); !errors.Is(err, ErrFull) {
		t.Fatalf("a second hold past the limit = %v; want ErrFull", err)
	}
	got := make(chan error)
	go func() {
		err := b.Hold(context.Background(), 40)
		if err == nil {
			b.Release(40)
		}
		got <- err
	}()
	b.Release(80)
	if err := <-got; err != nil {
		t.Fatalf("a hold waiting for room got %v after the first was released", err)
	}
	if b.Used() != 0 {
		t.Fatalf("used %d after every hold was released", b.Used())
	}
}

func TestAHoldLargerThanTheLimitIsAdmittedAlone(t *testing.T) {
	b := New(100)
	if err := b.Hold(context.Background(), 500); err != nil {
		t.Fatalf("a lone 500-byte hold on a 100-byte budget: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := b.Hold(ctx, 1); !errors.Is(err, ErrFull) {
		t.Fatalf("a hold beside it = %v; want ErrFull", err)
	}
	b.Release(500)
}
