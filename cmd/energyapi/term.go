package main

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal, where people read: tables,
// banners and progress go there, JSON to pipes and files.
//
// A writer can answer for itself with an IsTerminal method; that is how
// tests, which run commands with in-memory writers, exercise the terminal
// side. Otherwise a file is asked through its descriptor.
func isTerminal(w io.Writer) bool {
	switch w := w.(type) {
	case interface{ IsTerminal() bool }:
		return w.IsTerminal()
	case interface{ Fd() uintptr }:
		return term.IsTerminal(int(w.Fd()))
	}
	return false
}

// progress tells a person at a terminal how a long task goes. Off a
// terminal it says nothing: the command's output and logs are for programs.
type progress struct {
	w     io.Writer // nil: say nothing
	now   func() time.Time
	start time.Time
}

// newProgress returns a progress that writes to stderr if it is a terminal.
func newProgress(stderr io.Writer, now func() time.Time) *progress {
	p := &progress{now: now, start: now()}
	if isTerminal(stderr) {
		p.w = stderr
	}
	return p
}

// printf writes one line.
func (p *progress) printf(format string, args ...any) {
	if p == nil || p.w == nil {
		return
	}
	fmt.Fprintf(p.w, format+"\n", args...)
}

// elapsed is the time since the progress began, to a tenth of a second.
func (p *progress) elapsed() time.Duration {
	if p == nil {
		return 0
	}
	return p.now().Sub(p.start).Round(100 * time.Millisecond)
}

// count writes n with commas between thousands, as people read it.
func count(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}
