package coding

import "bytes"

// Pipe compresses a body in gzip while the body is still being made: its
// maker hands it each piece once done (Feed), and a goroutine of the
// Pipe's own compresses the pieces meanwhile. A cold answer's compression
// then overlaps its encoding rather than follow it, on a CPU that the
// requests waiting for that answer leave idle. The bytes are those
// Forms.Make makes of the whole body: deflate's output does not depend on
// how its input is cut into writes. There is no zstd Pipe: a zstd frame
// states its body's size, known only at the end.
type Pipe struct {
	pieces chan []byte
	done   chan struct{}
	out    bytes.Buffer
	err    error
	closed bool
}

// pipeBacklog bounds the pieces fed to a Pipe and not yet compressed: a
// maker faster than the compressor waits rather than run ahead.
const pipeBacklog = 16

// NewPipe starts a Pipe of a body of about size bytes, with z's encoders.
func (z *Compressor) NewPipe(size int) *Pipe {
	p := &Pipe{pieces: make(chan []byte, pipeBacklog), done: make(chan struct{})}
	p.out.Grow(size / 4) // as Append grows its buffer
	go p.run(z.NewWriter(&p.out, Gzip, -1))
	return p
}

func (p *Pipe) run(cw *Writer) {
	defer close(p.done)
	for b := range p.pieces {
		if p.err == nil {
			_, p.err = cw.Write(b)
		}
	}
	if err := cw.Close(); p.err == nil {
		p.err = err
	}
}

// Feed hands p the body's next piece, which must not change afterwards.
func (p *Pipe) Feed(b []byte) { p.pieces <- b }

// Close waits until every piece fed is compressed and returns the body in
// gzip. A maker calls it also when it failed, or deferred in case it
// panics: it ends the Pipe's goroutine and gives its encoder back. Later
// calls return what the first returned.
func (p *Pipe) Close() ([]byte, error) {
	if !p.closed {
		p.closed = true
		close(p.pieces)
		<-p.done
	}
	return p.out.Bytes(), p.err
}
