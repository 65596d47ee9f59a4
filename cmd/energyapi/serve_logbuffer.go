package main

import (
	"io"
	"os"
	"sync"
	"time"
)

// Log lines are held at most logFlushEvery, and at most logBufferBytes of
// them, before they are written in one write.
const (
	logFlushEvery  = 50 * time.Millisecond
	logBufferBytes = 64 << 10
)

// logBuffer gathers the log's lines and writes them to w in one write
// every logFlushEvery (or when logBufferBytes are held), rather than one
// write(2) per line: a request's log line cost a system call, which took
// more CPU time per request than the rest of the line (the kernel's side
// of a write to a file or pipe is several microseconds; scripts/bench-ratio
// and scripts/bench-token-ratio show it in CPU time per request). Lines
// stay whole and in order; Close writes what is held. What a process
// killed outright held, at most logFlushEvery of lines, is lost.
type logBuffer struct {
	mu    sync.Mutex
	w     io.Writer
	buf   []byte
	timer *time.Timer // made at the first line
	armed bool        // the timer will flush what buf holds
}

// bufferLog returns w behind a logBuffer when w is a file (stderr, as
// serve runs), and the function that writes what it holds. Other writers,
// the tests' buffers, are written line by line as before.
func bufferLog(w io.Writer) (io.Writer, func()) {
	if _, ok := w.(*os.File); !ok {
		return w, func() {}
	}
	b := &logBuffer{w: w, buf: make([]byte, 0, logBufferBytes)}
	return b, b.flush
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.buf)+len(p) > logBufferBytes {
		b.flushLocked()
		if len(p) > logBufferBytes {
			return b.w.Write(p)
		}
	}
	b.buf = append(b.buf, p...)
	if !b.armed {
		if b.timer == nil {
			b.timer = time.AfterFunc(logFlushEvery, b.flush)
		} else {
			b.timer.Reset(logFlushEvery)
		}
		b.armed = true
	}
	return len(p), nil
}

func (b *logBuffer) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushLocked()
}

// flushLocked writes what buf holds; as slog's handlers, the log's own
// errors go nowhere.
func (b *logBuffer) flushLocked() {
	if len(b.buf) > 0 {
		_, _ = b.w.Write(b.buf)
		b.buf = b.buf[:0]
	}
	if b.armed {
		b.timer.Stop()
		b.armed = false
	}
}
