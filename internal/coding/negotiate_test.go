package coding_test

import (
	"net/http/httptest"
	"testing"

	"github.com/energyapi/energyapi/internal/coding"
)

// TestChoose holds the Accept-Encoding rules of RFC 9110 section 12.5.3
// as this server applies them, for an answer large enough to compress and
// for one below the threshold.
func TestChoose(t *testing.T) {
	const none = coding.Coding(255) // no coding is acceptable: 406
	z := coding.New()
	large, small := coding.MinSize, coding.MinSize-1
	tests := []struct {
		name         string
		header       []string // nil: no Accept-Encoding at all
		large, small coding.Coding
	}{
		{"no header", nil, coding.Identity, coding.Identity},
		{"empty header", []string{""}, coding.Identity, coding.Identity},
		{"gzip", []string{"gzip"}, coding.Gzip, coding.Identity},
		{"x-gzip is gzip", []string{"x-gzip"}, coding.Gzip, coding.Identity},
		{"case does not matter", []string{"GZip"}, coding.Gzip, coding.Identity},
		{"zstd", []string{"zstd"}, coding.Zstd, coding.Identity},
		{"equal weights: gzip first", []string{"zstd, gzip"}, coding.Gzip, coding.Identity},
		{"browser", []string{"gzip, deflate, br, zstd"}, coding.Gzip, coding.Identity},
		{"zstd preferred", []string{"gzip;q=0.9, zstd"}, coding.Zstd, coding.Identity},
		{"weights decide", []string{"gzip;q=0.5, zstd;q=0.8"}, coding.Zstd, coding.Identity},
		{"weight with spaces", []string{"gzip ; q=0.5 , zstd ; Q=0.8"}, coding.Zstd, coding.Identity},
		{"split over two fields", []string{"gzip;q=0.1", "zstd"}, coding.Zstd, coding.Identity},
		{"q=0 refuses", []string{"gzip;q=0, zstd"}, coding.Zstd, coding.Identity},
		{"q=0.000 refuses", []string{"gzip;q=0.000"}, coding.Identity, coding.Identity},
		{"only codings we lack", []string{"br, deflate"}, coding.Identity, coding.Identity},
		{"star admits both", []string{"*"}, coding.Gzip, coding.Identity},
		{"star less an explicit refusal", []string{"*, gzip;q=0"}, coding.Zstd, coding.Identity},
		{"identity only", []string{"identity"}, coding.Identity, coding.Identity},
		{"identity preferred", []string{"identity, gzip;q=0.5"}, coding.Identity, coding.Identity},
		{"identity no better than gzip", []string{"identity;q=0.5, gzip;q=0.5"}, coding.Gzip, coding.Identity},
		{"identity refused", []string{"gzip, identity;q=0"}, coding.Gzip, coding.Gzip},
		{"star refused, identity not named", []string{"gzip, *;q=0"}, coding.Gzip, coding.Gzip},
		{"star refused, identity named", []string{"*;q=0, identity"}, coding.Identity, coding.Identity},
		{"nothing acceptable", []string{"identity;q=0"}, none, none},
		{"nothing we have acceptable", []string{"br, *;q=0"}, none, none},
		{"bad weight ignored", []string{"gzip;q=2, zstd;q=x, identity;q=0.1"}, coding.Identity, coding.Identity},
		{"three decimals", []string{"zstd;q=0.001, gzip;q=0.0015"}, coding.Zstd, coding.Identity},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			for _, v := range tt.header {
				r.Header.Add("Accept-Encoding", v)
			}
			a := z.Accepted(r)
			for _, c := range []struct {
				n    int
				want coding.Coding
			}{{large, tt.large}, {small, tt.small}} {
				got, ok := a.Choose(c.n)
				if !ok {
					got = none
				}
				if got != c.want {
					t.Errorf("Accept-Encoding %q, %d bytes: got %v, want %v", tt.header, c.n, got, c.want)
				}
			}
		})
	}
}

// TestChooseOff: without a Compressor (serve --compression=false) every
// answer is identity, whatever the caller asks.
func TestChooseOff(t *testing.T) {
	var z *coding.Compressor
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("Accept-Encoding", "gzip, identity;q=0")
	got, ok := z.Accepted(r).Choose(1 << 20)
	if !ok || got != coding.Identity {
		t.Errorf("got %v, %v; want identity, true", got, ok)
	}
}

func TestTag(t *testing.T) {
	for _, tt := range []struct {
		c    coding.Coding
		want string
	}{{coding.Identity, `"abc"`}, {coding.Gzip, `"abc-gz"`}, {coding.Zstd, `"abc-zst"`}} {
		if got := tt.c.Tag(`"abc"`); got != tt.want {
			t.Errorf("%v.Tag: got %s, want %s", tt.c, got, tt.want)
		}
	}
}
