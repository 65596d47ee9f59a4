package energy

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParseNumber parses a decimal number written the Italian way or with a
// decimal point, as import files and people write them. Surrounding space is
// ignored and a leading '+' or '-' accepted. The rules:
//
//   - A comma is the decimal separator ("1234,5", "0,408"); points before it
//     group thousands ("1.234,5", "-16.368,385").
//   - Without a comma, two or more points group thousands ("1.234.567" is
//     1234567), and a single point is a decimal point ("1.234" is 1.234,
//     "1234.5" is 1234.5): XLSX cells and machine-written files use a
//     decimal point and never group, and a person who means 1234 can write
//     "1234" or "1.234,0".
//   - In a grouped number the first group has one to three digits and every
//     later group exactly three ("1.23,4" is rejected).
//   - Both sides of the decimal separator need digits; exponents, hex, NaN,
//     infinities, spaces inside and values out of float64 range are rejected.
//
// It returns an *Error with code Invalid whose message repeats s.
func ParseNumber(s string) (float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, numberError(s, "empty value")
	}
	body := t
	if body[0] == '+' || body[0] == '-' {
		body = body[1:]
	}
	comma, points, firstPoint := -1, 0, -1
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c >= '0' && c <= '9':
		case c == ',':
			if comma >= 0 {
				return 0, numberError(s, "more than one decimal comma")
			}
			comma = i
		case c == '.':
			if comma >= 0 {
				return 0, numberError(s, "a point after the decimal comma")
			}
			if firstPoint < 0 {
				firstPoint = i
			}
			points++
		default:
			r, _ := utf8.DecodeRuneInString(body[i:])
			return 0, numberError(s, "unexpected character "+strconv.QuoteRune(r)+" (want digits, a decimal comma or point and thousands points)")
		}
	}
	intPart, frac, decimal := body, "", false
	switch {
	case comma >= 0:
		intPart, frac, decimal = body[:comma], body[comma+1:], true
	case points == 1:
		intPart, frac, decimal = body[:firstPoint], body[firstPoint+1:], true
		points = 0
	}
	if intPart == "" {
		return 0, numberError(s, "no digits before the decimal separator")
	}
	if decimal && frac == "" {
		return 0, numberError(s, "no digits after the decimal separator")
	}
	if points > 0 {
		if err := checkGroups(s, intPart); err != nil {
			return 0, err
		}
	}
	if points == 0 && comma < 0 {
		// Already in Go syntax: digits with at most one decimal point.
		return parseFloat(s, t)
	}
	var buf [64]byte
	b := buf[:0]
	if t[0] == '-' {
		b = append(b, '-')
	}
	for i := 0; i < len(intPart); i++ {
		if intPart[i] != '.' {
			b = append(b, intPart[i])
		}
	}
	if frac != "" {
		b = append(b, '.')
		b = append(b, frac...)
	}
	return parseFloat(s, string(b))
}

// checkGroups checks the thousands grouping of intPart, which holds points.
func checkGroups(s, intPart string) error {
	first := true
	for g := range strings.SplitSeq(intPart, ".") {
		switch {
		case first && (len(g) < 1 || len(g) > 3):
			return numberError(s, "the first thousands group must have 1 to 3 digits")
		case !first && len(g) != 3:
			return numberError(s, "groups after the first must have exactly 3 digits")
		}
		first = false
	}
	return nil
}

func parseFloat(orig, goSyntax string) (float64, error) {
	v, err := strconv.ParseFloat(goSyntax, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, numberError(orig, "out of range")
	}
	return v, nil
}

func numberError(s, reason string) *Error {
	return Errorf(Invalid, "invalid number %q: %s", s, reason)
}

// FormatItalian returns v with three decimals, a decimal comma and points
// between thousands, as the yearly statistical endpoints show numbers:
// 27389.4 is "27.389,400". See AppendItalian.
func FormatItalian(v float64) string {
	var buf [32]byte
	return string(AppendItalian(buf[:0], v))
}

// AppendItalian appends v formatted as FormatItalian formats it to dst and
// returns the extended slice. Rounding is to nearest, ties to even on the
// exact binary value (strconv's rule). A negative value that rounds to zero
// is written "0,000", never "-0,000". NaN and infinities, which validated
// records never hold, are written as strconv writes them.
func AppendItalian(dst []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.AppendFloat(dst, v, 'f', 3, 64)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, v, 'f', 3, 64)
	digits := start
	if dst[start] == '-' {
		if allZero(dst[start+1:]) {
			copy(dst[start:], dst[start+1:])
			dst = dst[:len(dst)-1]
		} else {
			digits++
		}
	}
	point := len(dst) - 4 // precision 3 always ends in ".ddd"
	dst[point] = ','
	seps := (point - digits - 1) / 3
	if seps == 0 {
		return dst
	}
	n := len(dst)
	dst = append(dst, make([]byte, seps)...)
	copy(dst[point+seps:], dst[point:n])
	// Shift the integer digits right from the end, dropping a point before
	// every complete group of three; the write index never falls behind the
	// read index, so the move is safe in place.
	w, inGroup := point+seps-1, 0
	for r := point - 1; r >= digits; r-- {
		if inGroup == 3 {
			dst[w] = '.'
			w--
			inGroup = 0
		}
		dst[w] = dst[r]
		w--
		inGroup++
	}
	return dst
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != '0' && c != '.' {
			return false
		}
	}
	return true
}

// ParseEnglishNumber parses a decimal number in the English format that the
// transmission download files use: a decimal point and commas between
// thousands ("1,234.5", "-488.3051289102222", "12,345"). Groups follow
// ParseNumber's rules with the separators swapped; a comma is never a
// decimal separator. It returns an *Error with code Invalid whose message
// repeats s.
func ParseEnglishNumber(s string) (float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, numberError(s, "empty value")
	}
	if strings.ContainsAny(t, "eExXnN") {
		return 0, numberError(s, "unexpected character (want digits, a decimal point and thousands commas)")
	}
	intPart, frac, hasPoint := strings.Cut(t, ".")
	if strings.Contains(frac, ",") {
		return 0, numberError(s, "a comma after the decimal point")
	}
	sign := ""
	if intPart != "" && (intPart[0] == '+' || intPart[0] == '-') {
		sign, intPart = intPart[:1], intPart[1:]
	}
	if intPart == "" {
		return 0, numberError(s, "no digits before the decimal point")
	}
	if hasPoint && frac == "" {
		return 0, numberError(s, "no digits after the decimal point")
	}
	if strings.Contains(intPart, ",") {
		if err := checkGroups(s, strings.ReplaceAll(intPart, ",", ".")); err != nil {
			return 0, err
		}
		intPart = strings.ReplaceAll(intPart, ",", "")
	}
	for _, part := range []string{intPart, frac} {
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				r, _ := utf8.DecodeRuneInString(part[i:])
				return 0, numberError(s, "unexpected character "+strconv.QuoteRune(r)+" (want digits, a decimal point and thousands commas)")
			}
		}
	}
	g := sign + intPart
	if hasPoint {
		g += "." + frac
	}
	return parseFloat(s, g)
}

// Round rounds v to the given number of decimals, as demo values and
// derived figures are stored: Round(27.3894, 3) is 27.389.
func Round(v float64, decimals int) float64 {
	p := math.Pow10(decimals)
	return math.Round(v*p) / p
}
