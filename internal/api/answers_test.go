package api

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/budget"
	"github.com/energyapi/energyapi/internal/coding"
)

// TestConcurrentRequestsShareOneEncoding: requests that ask at once for an
// answer not encoded yet wait for one encoding, kept or too large to keep.
func TestConcurrentRequestsShareOneEncoding(t *testing.T) {
	for _, size := range []int{100, 5000} { // kept, and over an eighth of the budget
		c := newAnswerCache(budget.New(10000))
		var calls atomic.Int32
		release := make(chan struct{})
		var wg sync.WaitGroup
		bodies := make([][]byte, 16)
		for i := range bodies {
			wg.Add(1)
			go func() {
				defer wg.Done()
				a, err := c.answer(context.Background(), "k", "tag", perRecordKey{}, 10, func() ([]byte, error) {
					calls.Add(1)
					<-release
					return bytes.Repeat([]byte("x"), size), nil
				})
				if err != nil {
					t.Error(err)
					return
				}
				bodies[i] = a.forms.Identity()
				c.done(a)
			}()
		}
		time.Sleep(50 * time.Millisecond)
		close(release)
		wg.Wait()
		if n := calls.Load(); n != 1 {
			t.Errorf("%d-byte answer: 16 concurrent requests encoded it %d times", size, n)
		}
		for _, b := range bodies {
			if len(b) != size {
				t.Errorf("%d-byte answer: a request got %d bytes", size, len(b))
			}
		}
		if c.b.Used() > 10000 {
			t.Errorf("%d-byte answer: the budget counts %d bytes after every request is done", size, c.b.Used())
		}
	}
}

// TestLargeAnswersCountWhileWritten: an answer too large to keep counts in
// the budget while a request writes it, and no longer once it is done.
func TestLargeAnswersCountWhileWritten(t *testing.T) {
	c := newAnswerCache(budget.New(10000))
	a, err := c.answer(context.Background(), "k", "t", perRecordKey{}, 1, func() ([]byte, error) { return make([]byte, 4000), nil })
	if err != nil {
		t.Fatal(err)
	}
	if a.kept {
		t.Fatal("a 4000-byte answer was kept in a 10000-byte budget")
	}
	if got := c.b.Used(); got != 4000 {
		t.Fatalf("while written, the budget counts %d bytes; want 4000", got)
	}
	c.done(a)
	if got := c.b.Used(); got != 0 {
		t.Fatalf("once written, the budget counts %d bytes; want 0", got)
	}
}

// TestAnswersWaitForRoomThenGiveUp: an encoding expecting more bytes than
// the budget has room for, with the room held by answers being written,
// waits for them and is refused if they do not finish in time.
func TestAnswersWaitForRoomThenGiveUp(t *testing.T) {
	c := newAnswerCache(budget.New(10000))
	pk := perRecordKey{f: formatJSON}
	big := func() ([]byte, error) { return make([]byte, 6000), nil }
	held, err := c.answer(context.Background(), "one", "t", pk, 1000, big)
	if err != nil {
		t.Fatal(err)
	}
	// The cache now expects 7 bytes a record: 1000 records need 7000.
	start := time.Now()
	if _, err := c.answer(context.Background(), "two", "t", pk, 1000, big); !errors.Is(err, errAnswersBusy) {
		t.Fatalf("a second large answer beside one being written = %v; want errAnswersBusy", err)
	}
	if waited := time.Since(start); waited < answerWait/2 {
		t.Errorf("refused after %v; it should wait about %v for room", waited, answerWait)
	}
	done := make(chan error)
	go func() {
		a, err := c.answer(context.Background(), "two", "t", pk, 1000, big)
		if err == nil {
			c.done(a)
		}
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	c.done(held)
	if err := <-done; err != nil {
		t.Fatalf("once the first answer was written, the second got %v", err)
	}
}

// TestDroppedAnswersAreForgottenByRememberedQueries: a remembered query
// does not keep an answer the budget dropped in memory.
func TestDroppedAnswersAreForgottenByRememberedQueries(t *testing.T) {
	c := newAnswerCache(budget.New(100000))
	a, err := c.answer(context.Background(), "k", "t", perRecordKey{}, 1, func() ([]byte, error) { return make([]byte, 1000), nil })
	if err != nil {
		t.Fatal(err)
	}
	c.remember(queryKey{raw: "dateFrom=x"}, nil, recentAnswer{answer: a})
	if _, ok := c.recent(queryKey{raw: "dateFrom=x"}, nil); !ok {
		t.Fatal("the query was not remembered")
	}
	for c.DropOldest() {
	}
	if _, ok := c.recent(queryKey{raw: "dateFrom=x"}, nil); ok {
		t.Fatal("a remembered query still serves an answer the budget dropped")
	}
	if got := c.b.Used(); got != int64(len("dateFrom=x")+recentQueryBytes) {
		t.Fatalf("the budget counts %d bytes; want only the remembered query's", got)
	}
}

// TestConcurrentRequestsShareOneCompression: requests that ask at once for
// a form not made yet wait for one compression of it.
func TestConcurrentRequestsShareOneCompression(t *testing.T) {
	c := newAnswerCache(budget.New(1 << 30))
	z := coding.New()
	a, err := c.answer(context.Background(), "k", "t", perRecordKey{}, 1, func() ([]byte, error) {
		return bytes.Repeat([]byte(`{"a":"1234567890"},`), 1<<16), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	before := z.Made()
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			if !c.form(a, coding.Gzip, z) {
				t.Error("form: not made")
			}
		})
	}
	wg.Wait()
	if n := z.Made() - before; n != 1 {
		t.Fatalf("32 concurrent requests for the gzip form compressed it %d times, want 1", n)
	}
}
