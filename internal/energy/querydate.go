package energy

import "time"

// ParseDate parses a query date written d/m/yyyy, the API's dateFrom and dateTo
// format. Day and month take one or two digits, because published examples
// leave them unpadded ("15/2/2021") as often as not; the year takes exactly
// four. Signs, spaces and any other characters are rejected rather than
// trimmed, so that a malformed parameter is reported instead of guessed at.
//
// It returns an error with code Invalid, whose message repeats s, when s is
// not of that form or names a day that does not exist (31/02/2024, 0/1/2024)
// or lies in year 0000, which the Gregorian calendar does not have.
func ParseDate(s string) (Date, error) { return parseDate(s, 4, 0) }

// ParseShortYearDate parses a query date written d/m/yy, as the v1.0 pages'
// examples write them ("22/11/23"): the two-digit year is 2000 to 2099. It
// returns an error with code Invalid, as ParseDate does, for anything else.
func ParseShortYearDate(s string) (Date, error) { return parseDate(s, 2, 2000) }

// parseDate parses d/m/ followed by a year of yearDigits digits, to which
// century is added.
func parseDate(s string, yearDigits, century int) (Date, error) {
	day, rest, ok := digits(s, 1, 2)
	if ok {
		rest, ok = cutByte(rest, '/')
	}
	var month, year int
	if ok {
		month, rest, ok = digits(rest, 1, 2)
	}
	if ok {
		rest, ok = cutByte(rest, '/')
	}
	if ok {
		year, rest, ok = digits(rest, yearDigits, yearDigits)
	}
	if !ok || rest != "" {
		return Date{}, Errorf(Invalid, "%q is not a date of the form dd/mm/%s", s, "yyyy"[:yearDigits])
	}
	year += century
	d, exists := NewDate(year, time.Month(month), day)
	if !exists || year == 0 {
		return Date{}, Errorf(Invalid, "%q is not a real calendar day", s)
	}
	return d, nil
}

// digits reads between lo and hi leading ASCII digits of s as a number and
// returns it with the rest of s; ok is false when fewer than lo are present
// or more than hi follow one another.
func digits(s string, lo, hi int) (n int, rest string, ok bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if i == hi {
			return 0, s, false
		}
		n = n*10 + int(s[i]-'0')
		i++
	}
	if i < lo {
		return 0, s, false
	}
	return n, s[i:], true
}

// cutByte removes the leading byte c from s; ok is false when s does not start with c.
func cutByte(s string, c byte) (rest string, ok bool) {
	if len(s) == 0 || s[0] != c {
		return s, false
	}
	return s[1:], true
}
