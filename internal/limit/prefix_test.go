package limit

import "testing"

func TestPrefixesKey(t *testing.T) {
	for _, tt := range []struct {
		name   string
		p      Prefixes
		remote string
		want   string
	}{
		{"IPv4 alone", DefaultPrefixes(), "192.0.2.7", "192.0.2.7"},
		{"IPv4-mapped", DefaultPrefixes(), "::ffff:192.0.2.7", "192.0.2.7"},
		{"IPv6 by /64", DefaultPrefixes(), "2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"},
		{"IPv6 zone dropped", DefaultPrefixes(), "fe80::1%eth0", "fe80::/64"},
		{"IPv4 by /24", Prefixes{V4: 24, V6: 64}, "192.0.2.7", "192.0.2.0/24"},
		{"IPv6 alone", Prefixes{V4: 32, V6: 128}, "2001:db8::1", "2001:db8::1"},
		{"IPv6 by /48", Prefixes{V4: 32, V6: 48}, "2001:db8:1:2::1", "2001:db8:1::/48"},
		{"not an address", DefaultPrefixes(), "unix:/run/sock", "unix:/run/sock"},
		{"empty", DefaultPrefixes(), "", ""},
		{"length out of range", Prefixes{V4: 40, V6: 64}, "192.0.2.7", "192.0.2.7"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Key(tt.remote); got != tt.want {
				t.Errorf("%+v.Key(%q): got %q, want %q", tt.p, tt.remote, got, tt.want)
			}
		})
	}
}
