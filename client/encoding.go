package client

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// acceptEncoding is what the client asks data answers in, both at equal
// weight: the server picks the one it prefers (energyapi gzip, which it
// makes while it encodes an answer; a server without zstd, gzip), or
// identity for small answers.
const acceptEncoding = "gzip, zstd"

// maxZstdWindow is the largest zstd window HTTP allows (RFC 9659); a larger
// one is refused rather than allocated.
const maxZstdWindow = 8 << 20

// readBody returns resp's body, decoded from its Content-Encoding, and an
// error when it is larger than maxBody decoded or does not decode. The
// cache keeps what it returns: the identity bytes, whatever came on the
// wire.
//
// The body is read whole as it came, into one buffer of the length the
// answer announces, then decoded into one buffer of the size its coding
// states (a zstd frame's content size, a gzip trailer's), rather than
// grown to it piece by piece and copied: a mirror's answers are megabytes.
func readBody(resp *http.Response) ([]byte, error) {
	ce := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding")))
	if resp.StatusCode == http.StatusNotModified {
		ce = ""
	}
	wire, err := readAll(resp.Body, resp.ContentLength)
	if err != nil {
		return nil, err
	}
	body := wire
	switch {
	case len(wire) == 0 || ce == "" || ce == "identity": // no body at all, or as it is
	case ce == "gzip":
		body, err = gunzip(wire)
	case ce == "zstd":
		body, err = unzstd(wire)
	default:
		return nil, fmt.Errorf("unknown Content-Encoding %q", ce)
	}
	switch {
	case err != nil:
		return nil, err
	case len(body) > maxBody || len(wire) > maxBody:
		return nil, fmt.Errorf("larger than %d bytes", maxBody)
	}
	return body, nil
}

// readAll reads r up to one byte more than maxBody: into one buffer when
// its length is known (size, when positive), by io.ReadAll otherwise.
func readAll(r io.Reader, size int64) ([]byte, error) {
	r = io.LimitReader(r, maxBody+1)
	if size <= 0 || size > maxBody {
		return io.ReadAll(r)
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	_, err := buf.ReadFrom(r)
	return buf.Bytes(), err
}

// gunzip decodes a gzip body; its trailer's size (of the last member,
// modulo 4 GiB) sizes the buffer, as a hint only.
func gunzip(wire []byte) ([]byte, error) {
	gr, err := gzip.NewReader(bytes.NewReader(wire))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	defer gr.Close()
	size := int64(-1)
	if n := len(wire); n >= 4 {
		size = int64(binary.LittleEndian.Uint32(wire[n-4:]))
	}
	body, err := readAll(gr, size)
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	return body, nil
}

// unzstd decodes a zstd body into a buffer of the size its frame states
// (the server's do), never more than one byte over maxBody.
func unzstd(wire []byte) ([]byte, error) {
	var h zstd.Header
	size := uint64(0)
	if h.Decode(wire) == nil && h.HasFCS && h.FrameContentSize <= maxBody {
		size = h.FrameContentSize
	}
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderMaxWindow(maxZstdWindow), zstd.WithDecoderMaxMemory(maxBody+1))
	if err != nil {
		return nil, fmt.Errorf("zstd: %w", err)
	}
	defer d.Close()
	body, err := d.DecodeAll(wire, make([]byte, 0, size))
	switch {
	case errors.Is(err, zstd.ErrDecoderSizeExceeded):
		return nil, fmt.Errorf("larger than %d bytes", maxBody)
	case err != nil:
		return nil, fmt.Errorf("zstd: %w", err)
	}
	return body, nil
}
