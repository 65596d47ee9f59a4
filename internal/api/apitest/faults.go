package apitest

import (
	"context"
	"io"
	"net/http"
	"sync"
	"time"
)

// AdvanceAfter is an Options.Wrap that moves clk forward by d once, after
// the server has answered the first request to path: the server's time
// jumps (past a token's lifetime, say) while its client's does not.
func AdvanceAfter(clk *Clock, path string, d time.Duration) func(http.Handler) http.Handler {
	var once sync.Once
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, r)
			if r.URL.Path == path {
				once.Do(func() { clk.Advance(d) })
			}
		})
	}
}

// Inject is an Options.Wrap that answers the first n requests to path (every
// one if n is negative) with status, the headers given as name and value
// in turn, and body, instead of the API: a fault a client must survive.
// Answers carry X-Request-Id, as every answer of the server does, so that
// they match the OpenAPI document.
func Inject(n int, path string, status int, body string, header ...string) func(http.Handler) http.Handler {
	var mu sync.Mutex
	left := n
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			hit := r.URL.Path == path && left != 0
			if hit && left > 0 {
				left--
			}
			mu.Unlock()
			if !hit {
				next.ServeHTTP(w, r)
				return
			}
			w.Header().Set("X-Request-Id", "injected")
			w.Header().Set("Content-Type", "application/json")
			for i := 0; i+1 < len(header); i += 2 {
				w.Header().Set(header[i], header[i+1])
			}
			w.WriteHeader(status)
			_, _ = io.WriteString(w, body)
		})
	}
}

// Sleeps records the waits a client asks for instead of waiting: its
// Sleep is what a test passes to client.WithSleep.
type Sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

// Sleep records d and returns ctx's error, at once.
func (s *Sleeps) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return ctx.Err()
}

// Got returns the waits recorded so far, in order.
func (s *Sleeps) Got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}
