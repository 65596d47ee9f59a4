package client

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// acceptEncoding is what the client asks data answers in: the server
// picks zstd when it has it, gzip otherwise, or identity for small ones.
const acceptEncoding = "gzip, zstd"

// maxZstdWindow is the largest zstd window HTTP allows (RFC 9659); a larger
// one is refused rather than allocated.
const maxZstdWindow = 8 << 20

// readBody returns resp's body, decoded from its Content-Encoding, and an
// error when it is larger than maxBody decoded or does not decode. The
// cache keeps what it returns: the identity bytes, whatever came on the
// wire.
func readBody(resp *http.Response) ([]byte, error) {
	var r io.Reader = resp.Body
	ce := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding")))
	switch {
	case ce == "" || ce == "identity" || resp.StatusCode == http.StatusNotModified:
	case ce == "gzip":
		gr, err := gzip.NewReader(resp.Body)
		if errors.Is(err, io.EOF) {
			return nil, nil // no body at all
		}
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		defer gr.Close()
		r = gr
	case ce == "zstd":
		zr, err := zstd.NewReader(resp.Body, zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderMaxWindow(maxZstdWindow), zstd.WithDecoderMaxMemory(maxBody+1))
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		defer zr.Close()
		r = zr
	default:
		return nil, fmt.Errorf("unknown Content-Encoding %q", ce)
	}
	body, err := io.ReadAll(io.LimitReader(r, maxBody+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxBody {
		return nil, fmt.Errorf("larger than %d bytes", maxBody)
	}
	return body, nil
}
