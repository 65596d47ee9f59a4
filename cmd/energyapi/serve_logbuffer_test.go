package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/testwait"
)

// TestLogBufferWritesLinesWholeAndInOrder: lines reach the file whole, in
// order, within the flush interval without a flush, at once past the
// buffer's size, and all of them at the flush.
func TestLogBufferWritesLinesWholeAndInOrder(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, flush := bufferLog(f)
	read := func() string { b, _ := os.ReadFile(f.Name()); return string(b) }
	_, _ = w.Write([]byte("one\n"))
	_, _ = w.Write([]byte("two\n"))
	testwait.For(t, 10*time.Second, "the held lines written", func() bool { return read() == "one\ntwo\n" })
	long := strings.Repeat("x", logBufferBytes-2) + "\n"
	_, _ = w.Write([]byte(long))
	_, _ = w.Write([]byte("three\n")) // past the size: the long line goes now
	if got := read(); got != "one\ntwo\n"+long {
		t.Errorf("after the buffer filled: got %d bytes, want %d", len(got), len("one\ntwo\n"+long))
	}
	flush()
	if got := read(); got != "one\ntwo\n"+long+"three\n" {
		t.Errorf("after flush: got %q..., want every line", got[len(got)-10:])
	}
	sb := &strings.Builder{}
	if w, _ := bufferLog(sb); w != io.Writer(sb) {
		t.Error("a writer other than a file: got it buffered, want it as it is")
	}
}
