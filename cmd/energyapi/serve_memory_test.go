package main

import (
	"errors"
	"io"
	"testing"
)

// TestMemoryBudgetFlag checks the sizes --memory-budget takes, and that
// any other value is a usage error that says what it wants.
func TestMemoryBudgetFlag(t *testing.T) {
	t.Parallel()
	env := func(string) string { return "" }
	for _, tc := range []struct {
		arg  string
		want int64
	}{
		{"", 256 << 20}, {"512MiB", 512 << 20}, {"1GiB", 1 << 30}, {"300MB", 300e6}, {"1.5GiB", 3 << 29}, {"2048KiB", 2 << 20},
	} {
		args := []string{}
		if tc.arg != "" {
			args = []string{"--memory-budget", tc.arg}
		}
		c, err := parseServeFlags(args, env, io.Discard)
		if err != nil || int64(c.memoryBudget) != tc.want {
			t.Errorf("--memory-budget %q: got %d (%v), want %d", tc.arg, c.memoryBudget, err, tc.want)
		}
	}
	for _, arg := range []string{"12", "abc", "-5MiB", "0GiB", "12XB", "100KiB", "MiB"} {
		_, err := parseServeFlags([]string{"--memory-budget=" + arg}, env, io.Discard)
		if !errors.Is(err, errUsage) {
			t.Errorf("--memory-budget %q: got %v, want a usage error", arg, err)
		}
	}
	for size, want := range map[memorySize]string{256 << 20: "256MiB", 1 << 30: "1GiB", 300e6: "300MB", 1<<20 + 1: "1048577B", 3 << 29: "1536MiB"} {
		if got := size.String(); got != want {
			t.Errorf("String of %d: got %q, want %q", int64(size), got, want)
		}
	}
}
