package client

import (
	"math"
	"strconv"
	"strings"
)

// The API writes numbers in two ways: yearly statistics the Italian way
// ("27.389,400"), time series with a decimal point ("34.218"). These parsers
// are the client's own, not the server's: the client mirrors the wire format
// and imports nothing from the server.

// formatError is a fixed error message; a constant, unlike an errors.New var.
type formatError string

func (e formatError) Error() string { return string(e) }

const errNumber formatError = "not a number in the API's format"

// parseItalian parses a number written the Italian way: a decimal comma and
// points between thousands ("-16.368,385", "0,408", "20"). Without a comma,
// points that group thousands correctly are read as grouping ("1.234" is
// 1234), and a single point that does not ("1234.5", "0.408") as a decimal
// point, so that a server writing plain decimals is read correctly too.
func parseItalian(s string) (float64, error) {
	sign, body := "", s
	if strings.HasPrefix(body, "-") {
		sign, body = "-", body[1:]
	}
	intPart, frac, hasComma := strings.Cut(body, ",")
	if hasComma && frac == "" {
		return 0, errNumber
	}
	switch {
	case !strings.Contains(intPart, "."):
	case groupsThousands(intPart):
		intPart = strings.ReplaceAll(intPart, ".", "")
	case !hasComma && strings.Count(intPart, ".") == 1:
		intPart, frac, hasComma = strings.Cut(intPart, ".")
	default:
		return 0, errNumber
	}
	if !allDigits(intPart) || (hasComma && !allDigits(frac)) {
		return 0, errNumber
	}
	num := sign + intPart
	if hasComma {
		num += "." + frac
	}
	return parseDecimal(num)
}

// groupsThousands reports whether s is digits in groups of three after a
// first group of one to three that is not a lone 0 ("0.408" is a decimal).
func groupsThousands(s string) bool {
	groups := strings.Split(s, ".")
	if first := groups[0]; len(first) < 1 || len(first) > 3 || first == "0" {
		return false
	}
	for _, g := range groups[1:] {
		if len(g) != 3 {
			return false
		}
	}
	return true
}

// parsePoint parses a number with a decimal point and no grouping ("33.456",
// "-488.3051289102222").
func parsePoint(s string) (float64, error) {
	t := strings.TrimPrefix(s, "-")
	intPart, frac, hasPoint := strings.Cut(t, ".")
	if !allDigits(intPart) || (hasPoint && !allDigits(frac)) {
		return 0, errNumber
	}
	return parseDecimal(s)
}

// parseDecimal parses what the callers checked to be [-]digits[.digits]:
// strconv alone would also take "NaN", "Inf" and hexadecimal.
func parseDecimal(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, errNumber
	}
	return v, nil
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
