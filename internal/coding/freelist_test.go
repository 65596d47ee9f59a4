package coding

import (
	"bytes"
	"runtime"
	"testing"
)

// TestEncodersSurviveCollections: a server near its memory limit collects
// many times a second; the encoders it compressed with stay for the next
// answers rather than go with each collection (as a sync.Pool's do).
func TestEncodersSurviveCollections(t *testing.T) {
	z := New()
	body := bytes.Repeat([]byte(`{"date":"2024-03-01 00:00:00","value":"123.456"},`), 2000)
	for _, c := range []Coding{Gzip, Zstd} {
		z.Append(nil, c, body)
	}
	gw, ze := z.gzip.get(), z.zstd.get()
	z.gzip.put(gw)
	z.zstd.put(ze)
	for range 3 {
		runtime.GC()
	}
	if got := z.gzip.get(); got != gw {
		t.Error("after three collections the gzip encoder kept was gone: a new one was made")
	}
	if got := z.zstd.get(); got != ze {
		t.Error("after three collections the zstd encoder kept was gone: a new one was made")
	}
	// At most encodersKept idle encoders are kept.
	for range 2 * encodersKept {
		z.gzip.put(z.gzip.newItem())
	}
	if n := len(z.gzip.idle); n != encodersKept {
		t.Errorf("%d idle gzip encoders kept, want %d", n, encodersKept)
	}
}
