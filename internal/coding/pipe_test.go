package coding_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/energyapi/energyapi/internal/coding"
)

// TestPipeMakesWhatMakeMakes feeds bodies of an answer's kind (repetitive
// JSON, from empty to several deflate windows long) to a Pipe in pieces
// of many sizes, and checks that it returns the very bytes Forms.Make
// makes of the whole body: a form made while encoding must be the form
// made afterwards, whichever a server kept.
func TestPipeMakesWhatMakeMakes(t *testing.T) {
	z := coding.New()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, records := range []int{0, 1, 40, 700, 6000, 30000} {
		var body []byte
		body = append(body, `{"result":{},"total_load":[`...)
		for i := range records {
			body = fmt.Appendf(body, `{"date":"2024-03-%02d %02d:%02d:00","date_offset":"+01:00","total_load_MW":"%.3f"},`, 1+i/96%28, i/4%24, i%4*15, 20000+rng.Float64()*10000)
		}
		body = append(body, "]}"...)
		want := coding.NewForms(body).Make(z, coding.Gzip)
		for _, piece := range []int{1, 7, 4096, 32 << 10, 1 << 20} {
			t.Run(fmt.Sprintf("%d records in pieces of %d", records, piece), func(t *testing.T) {
				p := z.NewPipe(len(body))
				for rest := body; len(rest) > 0; {
					n := min(piece, len(rest))
					p.Feed(rest[:n])
					rest = rest[n:]
				}
				got, err := p.Close()
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("got %d bytes, want the %d Make makes", len(got), len(want))
				}
			})
		}
	}
}

// TestFormsPut checks that Put keeps a form made elsewhere and that a
// form made already wins over a later one.
func TestFormsPut(t *testing.T) {
	f := coding.NewForms([]byte("body"))
	if got := string(f.Put(coding.Gzip, []byte("first"))); got != "first" {
		t.Fatalf("got %q, want first", got)
	}
	if got := string(f.Put(coding.Gzip, []byte("second"))); got != "first" {
		t.Fatalf("got %q, want first: the form made first is kept", got)
	}
	if b, ok := f.Get(coding.Gzip); !ok || string(b) != "first" {
		t.Fatalf("Get: got %q, %v; want first, true", b, ok)
	}
}
