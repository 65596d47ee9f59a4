// Package coding compresses HTTP answers. It negotiates a content coding
// from a request's Accept-Encoding (RFC 9110 section 12.5.3) and
// compresses bodies in gzip or zstd, always the same way, so that one body
// has exactly one compressed form per coding whichever path made it: the
// answer cache, or a large answer compressed as it is written. Brotli is
// left out: the project admits no brotli encoder among its dependencies.
package coding

import (
	"net/http"
	"strings"
)

// Coding is a content coding this server can send.
type Coding uint8

// The codings, identity (no compression) first.
const (
	Identity Coding = iota
	Gzip
	Zstd
	// Count is the number of codings, for arrays indexed by Coding.
	Count
)

// names are the content-coding tokens, as sent in Content-Encoding.
var names = [Count]string{Identity: "identity", Gzip: "gzip", Zstd: "zstd"}

// tagSuffixes mark a compressed form's entity tag: each coding of an answer
// is its own representation with its own strong tag (RFC 9110 8.8.3).
var tagSuffixes = [Count]string{Identity: "", Gzip: "-gz", Zstd: "-zst"}

// preference lists the compressed codings in the order chosen between
// codings of equal weight. gzip first: on the API's JSON and CSV, zstd makes
// answers no smaller than gzip at level 6 (5 to 10% larger at zstd's
// default level, about equal at its better level for 3 to 5 times the
// time), and every client decodes gzip.
var preference = [...]Coding{Gzip, Zstd}

func (c Coding) String() string {
	if c < Count {
		return names[c]
	}
	return "invalid"
}

// Tag returns the entity tag of the c form of the answer whose identity
// tag is tag (a quoted strong tag): the same tag with c's suffix inside the
// quotes.
func (c Coding) Tag(tag string) string {
	if c == Identity || len(tag) < 2 {
		return tag
	}
	return tag[:len(tag)-1] + tagSuffixes[c] + `"`
}

// MinSize is the smallest answer compressed when the caller also accepts
// identity. A smaller answer, with its headers, fits in one TCP segment
// (1460 bytes on Ethernet) as it is: compressing it saves no round trip and
// adds work and headers.
const MinSize = 1024

// Accepted is what a request's Accept-Encoding admits of the codings this
// server sends: each one's weight (qvalue) in thousandths, 0 for refused.
type Accepted struct {
	q [Count]int
}

// identityOnly is what a request without Accept-Encoding gets: identity,
// as it always has, although RFC 9110 would allow any coding.
var identityOnly = Accepted{q: [Count]int{Identity: 1000}}

// Accepted returns what r's Accept-Encoding admits. On a nil Compressor
// (compression off) it is identity alone, whatever r asks.
func (z *Compressor) Accepted(r *http.Request) Accepted {
	v := r.Header.Values("Accept-Encoding")
	if z == nil || len(v) == 0 {
		return identityOnly
	}
	return parseAccepted(v)
}

// parseAccepted reads Accept-Encoding field lines: a coding's own weight
// counts, else that of "*", else identity is acceptable (least preferred)
// and the rest not.
// Elements with an invalid weight are ignored.
func parseAccepted(lines []string) Accepted {
	var explicit [Count]int
	for i := range explicit {
		explicit[i] = -1
	}
	star := -1
	for _, line := range lines {
		for elem := range strings.SplitSeq(line, ",") {
			token, params, _ := strings.Cut(elem, ";")
			q, ok := weight(params)
			if !ok {
				continue
			}
			token = strings.TrimSpace(token)
			if token == "*" {
				star = max(star, q)
				continue
			}
			if c, ok := lookup(token); ok {
				explicit[c] = max(explicit[c], q)
			}
		}
	}
	var a Accepted
	for c := range a.q {
		switch {
		case explicit[c] >= 0:
			a.q[c] = explicit[c]
		case star >= 0:
			a.q[c] = star
		case Coding(c) == Identity:
			// Acceptable, but below any coding the caller names: "gzip;q=0.5"
			// alone asks for gzip.
			a.q[c] = 1
		}
	}
	return a
}

// lookup finds the coding named token; x-gzip is gzip (RFC 9110 8.4.1.3).
func lookup(token string) (Coding, bool) {
	switch {
	case strings.EqualFold(token, "gzip"), strings.EqualFold(token, "x-gzip"):
		return Gzip, true
	case strings.EqualFold(token, "zstd"):
		return Zstd, true
	case strings.EqualFold(token, "identity"):
		return Identity, true
	}
	return 0, false
}

// weight reads the q parameter among an element's parameters, in
// thousandths: 1000 when absent, ok false when malformed (RFC 9110 12.4.2:
// "0" or "1", with at most three decimals, never above 1).
func weight(params string) (q int, ok bool) {
	q = 1000
	for p := range strings.SplitSeq(params, ";") {
		name, v, found := strings.Cut(strings.TrimSpace(p), "=")
		if !found || !strings.EqualFold(strings.TrimSpace(name), "q") {
			continue
		}
		if q, ok = parseQ(strings.TrimSpace(v)); !ok {
			return 0, false
		}
	}
	return q, true
}

func parseQ(v string) (int, bool) {
	if v == "" || (v[0] != '0' && v[0] != '1') {
		return 0, false
	}
	whole, frac, dot := strings.Cut(v, ".")
	if len(whole) != 1 || (dot && len(frac) > 3) {
		return 0, false
	}
	q := int(whole[0]-'0') * 1000
	for i, scale := 0, 100; i < len(frac); i, scale = i+1, scale/10 {
		d := frac[i]
		if d < '0' || d > '9' {
			return 0, false
		}
		q += int(d-'0') * scale
	}
	return q, q <= 1000
}

// Admits reports whether c is acceptable to the caller.
func (a Accepted) Admits(c Coding) bool { return c < Count && a.q[c] > 0 }

// Choose returns the coding to send an answer of n bytes in: the compressed
// coding the caller weighs highest (gzip before zstd at equal weight) unless
// it weighs identity higher still or the answer is below MinSize; identity
// for those, if the caller accepts it. ok is false when the caller accepts
// none of the codings this server has: the answer is 406.
func (a Accepted) Choose(n int) (c Coding, ok bool) {
	best, bestQ := Identity, 0
	for _, p := range preference {
		if a.q[p] > bestQ {
			best, bestQ = p, a.q[p]
		}
	}
	switch {
	case best != Identity && bestQ >= a.q[Identity] && (n >= MinSize || a.q[Identity] == 0):
		return best, true
	case a.q[Identity] > 0:
		return Identity, true
	case best != Identity:
		return best, true
	}
	return Identity, false
}
