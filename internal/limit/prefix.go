package limit

import "net/netip"

// The prefix lengths a per-address limit counts by default: an IPv4 address
// alone, and an IPv6 /64, since one IPv6 host commonly holds a whole /64
// (SLAAC, privacy addresses, a /64 per customer) and could otherwise try
// from 2^64 addresses.
const (
	DefaultPrefixV4 = 32
	DefaultPrefixV6 = 64
)

// Prefixes says how addresses are grouped into the unit a per-address limit
// counts: an IPv4 address by its first V4 bits, an IPv6 address by its
// first V6 bits.
type Prefixes struct{ V4, V6 int }

// DefaultPrefixes returns the grouping by DefaultPrefixV4 and DefaultPrefixV6.
func DefaultPrefixes() Prefixes { return Prefixes{V4: DefaultPrefixV4, V6: DefaultPrefixV6} }

// Key returns the unit that remote counts in: its prefix, such as
// "2001:db8:1:2::/64", or the address itself when the prefix is the whole
// address (so that an IPv4 address keeps the key it had before prefixes).
// An IPv4-mapped IPv6 address counts as its IPv4 address, and a zone is
// dropped. Anything that is not an IP address, or a length out of range,
// leaves remote as its own key.
func (p Prefixes) Key(remote string) string {
	a, err := netip.ParseAddr(remote)
	if err != nil {
		return remote
	}
	a = a.Unmap().WithZone("")
	bits := p.V4
	if a.Is6() {
		bits = p.V6
	}
	if bits == a.BitLen() {
		return a.String()
	}
	pfx, err := a.Prefix(bits)
	if err != nil {
		return remote
	}
	return pfx.String()
}
