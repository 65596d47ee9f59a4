package coding

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Compressor compresses bodies with pooled encoders, and counts the bodies
// it compressed: an answer served from its cached compressed form costs
// none. A nil *Compressor is compression turned off: it sends identity.
type Compressor struct {
	gzip *freeList[*gzip.Writer]
	zstd *freeList[*zstd.Encoder]
	made atomic.Int64
}

// freeList keeps up to its capacity of idle encoders for reuse. Not a
// sync.Pool: that drops its items at every other collection, and a server
// near its memory limit collects many times a second, so that each
// compression made a new encoder (about 1 MB of tables for gzip) and the
// garbage that made the collector run more still.
type freeList[T any] struct {
	idle    chan T
	newItem func() T
}

// encodersKept bounds the idle encoders of each coding: as many as
// requests compress at once on a small server.
const encodersKept = 8

func newFreeList[T any](newItem func() T) *freeList[T] {
	return &freeList[T]{idle: make(chan T, encodersKept), newItem: newItem}
}

func (f *freeList[T]) get() T {
	select {
	case v := <-f.idle:
		return v
	default:
		return f.newItem()
	}
}

func (f *freeList[T]) put(v T) {
	select {
	case f.idle <- v:
	default: // enough kept; the collector takes this one
	}
}

// gzipLevel trades time for size: answers are compressed once per data
// version and then served many times, and level 6 costs little more than
// the fastest levels on the API's repetitive JSON and CSV.
const gzipLevel = 6

// New returns a Compressor.
func New() *Compressor {
	return &Compressor{
		gzip: newFreeList(func() *gzip.Writer {
			w, _ := gzip.NewWriterLevel(io.Discard, gzipLevel) // the level is valid
			return w
		}),
		zstd: newFreeList(func() *zstd.Encoder {
			// One goroutine per encoder: requests already run in parallel,
			// and a single-threaded encoder writes the same bytes every
			// time. The better level makes answers as small as gzip's (the
			// default level's are 5 to 10% larger) at a cost paid once per
			// data version. The default 8 MiB window is the most HTTP's
			// zstd allows (RFC 9659).
			e, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedBetterCompression))
			if err != nil {
				panic("coding: zstd options: " + err.Error()) // fixed options, checked by the tests
			}
			return e
		}),
	}
}

// Made returns how many bodies z has compressed.
func (z *Compressor) Made() int64 { return z.made.Load() }

// Write writes body to w in coding c: compressed, or as it is for
// identity. The compressed bytes depend only on body and c.
func (z *Compressor) Write(w io.Writer, c Coding, body []byte) error {
	cw := z.NewWriter(w, c, int64(len(body)))
	_, err := cw.Write(body)
	if cerr := cw.Close(); err == nil {
		err = cerr
	}
	return err
}

// Writer writes a body to an underlying writer in one coding, compressing
// it as it comes with an encoder from its Compressor's free list: a body
// too large to hold whole is sent a chunk at a time. Close ends the body
// and gives the encoder back; a Writer is used for one body.
type Writer struct {
	w    io.Writer // identity
	gzip *gzip.Writer
	zstd *zstd.Encoder
	z    *Compressor
	done bool
}

// errClosed is a write to a Writer closed already.
var errClosed = errors.New("coding: write after Close")

// NewWriter returns a Writer of a body of size bytes (-1: not known) to w
// in coding c. A zstd frame states a known size, so that a decoder
// allocates once.
func (z *Compressor) NewWriter(w io.Writer, c Coding, size int64) *Writer {
	cw := &Writer{w: w, z: z}
	switch c {
	case Gzip:
		z.made.Add(1)
		cw.gzip = z.gzip.get()
		cw.gzip.Reset(w)
	case Zstd:
		z.made.Add(1)
		cw.zstd = z.zstd.get()
		cw.zstd.ResetContentSize(w, size)
	}
	return cw
}

// Write compresses p onto the underlying writer, or writes it as it is.
func (cw *Writer) Write(p []byte) (int, error) {
	switch {
	case cw.done:
		return 0, errClosed
	case cw.gzip != nil:
		return cw.gzip.Write(p)
	case cw.zstd != nil:
		return cw.zstd.Write(p)
	}
	return cw.w.Write(p)
}

// Close ends the body and returns the encoder to the free list, holding
// no reference to the underlying writer.
func (cw *Writer) Close() error {
	var err error
	cw.done = true
	switch {
	case cw.gzip != nil:
		err = cw.gzip.Close()
		cw.gzip.Reset(io.Discard)
		cw.z.gzip.put(cw.gzip)
		cw.gzip = nil
	case cw.zstd != nil:
		err = cw.zstd.Close()
		cw.zstd.Reset(nil)
		cw.z.zstd.put(cw.zstd)
		cw.zstd = nil
	}
	return err
}

// Append returns body in coding c, appended to dst.
func (z *Compressor) Append(dst []byte, c Coding, body []byte) []byte {
	buf := bytes.NewBuffer(dst)
	if c != Identity {
		buf.Grow(len(body) / 4) // typical of the API's answers
	}
	_ = z.Write(buf, c, body) // a bytes.Buffer takes every write
	return buf.Bytes()
}

// Forms is one body as it is and, each made the first time it is asked
// for, in each compressed coding, each with its Content-Length header
// value, made with it so that serving a form formats no number. It is
// safe for concurrent use.
type Forms struct {
	forms [Count]atomic.Pointer[form] // identity's is set by NewForms
}

// form is a body in one coding and its Content-Length header value
// (shared by every answer that sends it: net/http does not change it).
type form struct {
	body   []byte
	length []string
}

func newForm(b []byte) *form { return &form{body: b, length: []string{strconv.Itoa(len(b))}} }

// NewForms returns the forms of body, which must not change afterwards.
func NewForms(body []byte) *Forms {
	f := &Forms{}
	f.forms[Identity].Store(newForm(body))
	return f
}

// Identity returns the body as it is.
func (f *Forms) Identity() []byte { return f.forms[Identity].Load().body }

// Get returns the body in coding c; ok is false if that form is not made.
func (f *Forms) Get(c Coding) (b []byte, ok bool) {
	if p := f.forms[c].Load(); p != nil {
		return p.body, true
	}
	return nil, false
}

// Length returns the Content-Length header value of the body in coding
// c, nil if that form is not made.
func (f *Forms) Length(c Coding) []string {
	if p := f.forms[c].Load(); p != nil {
		return p.length
	}
	return nil
}

// Make returns the body in coding c, compressing it with z the first time
// and keeping it. Two callers asking at once may both compress; one form
// is kept and both get it.
func (f *Forms) Make(z *Compressor, c Coding) []byte {
	if b, ok := f.Get(c); ok {
		return b
	}
	return f.Put(c, z.Append(nil, c, f.Identity()))
}

// Put keeps b as the body in coding c, made elsewhere (a Pipe), unless
// that form is made already, and returns the form kept.
func (f *Forms) Put(c Coding, b []byte) []byte {
	if cap(b)-len(b) > len(b)/8 {
		// Grown by appending, it may hold up to twice its length for as
		// long as it is kept: a copy of its length costs less.
		b = bytes.Clone(b)
	}
	p := newForm(b)
	if !f.forms[c].CompareAndSwap(nil, p) {
		return f.forms[c].Load().body
	}
	return p.body
}

// Size returns the bytes f holds: its body and the forms made so far, as
// allocated (a body grown by appending holds more than its length).
func (f *Forms) Size() int {
	n := 0
	for c := range Count {
		if p := f.forms[c].Load(); p != nil {
			n += cap(p.body)
		}
	}
	return n
}

// varyHeader is shared by every answer that sends it; net/http does not
// change header values.
var varyHeader = []string{"Accept-Encoding"}

var encodingHeaders = [Count][]string{Gzip: {"gzip"}, Zstd: {"zstd"}}

// SetHeaders sets the headers of an answer sent in coding c: Vary, since
// the answer depends on Accept-Encoding whenever compression is on (also
// when this one is identity, and on a 304), and Content-Encoding when c
// compresses. On a nil Compressor it sets nothing: the answer does not vary.
func (z *Compressor) SetHeaders(h http.Header, c Coding) {
	if z == nil {
		return
	}
	h["Vary"] = varyHeader
	if c != Identity {
		h["Content-Encoding"] = encodingHeaders[c]
	}
}

// SetVary sets the Vary header of an answer that depends on
// Accept-Encoding, as every answer does while compression is on: a 304's,
// which carries no Content-Encoding.
func (z *Compressor) SetVary(h http.Header) {
	if z != nil {
		h["Vary"] = varyHeader
	}
}

// Pick returns f in the coding r's Accept-Encoding asks for, and that
// coding. A caller that accepts no coding gets identity: Pick serves public
// documents, not worth a 406.
func (z *Compressor) Pick(r *http.Request, f *Forms) ([]byte, Coding) {
	identity := f.Identity()
	c, ok := z.Accepted(r).Choose(len(identity))
	if !ok || c == Identity {
		return identity, Identity
	}
	return f.Make(z, c), c
}

// ServeBody answers r with f in the coding r's Accept-Encoding asks for,
// with Content-Length, Vary and Content-Encoding; the caller has set the
// other headers.
func (z *Compressor) ServeBody(w http.ResponseWriter, r *http.Request, status int, f *Forms) {
	b, c := z.Pick(r, f)
	h := w.Header()
	z.SetHeaders(h, c)
	h["Content-Length"] = f.Length(c)
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
