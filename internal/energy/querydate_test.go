package energy

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	tests := []struct {
		in   string
		want Date
	}{
		{"15/2/2021", Date{2021, time.February, 15}},
		{"15/02/2021", Date{2021, time.February, 15}},
		{"01/01/2024", Date{2024, time.January, 1}},
		{"1/1/2024", Date{2024, time.January, 1}},
		{"29/02/2024", Date{2024, time.February, 29}},
		{"31/12/2025", Date{2025, time.December, 31}},
		{"23/04/2022", Date{2022, time.April, 23}},
		{"5/11/0001", Date{1, time.November, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseDate(tt.in)
			if err != nil {
				t.Fatalf("ParseDate(%q): got error %v, want %v", tt.in, err, tt.want)
			}
			if got != tt.want {
				t.Errorf("ParseDate(%q): got %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseDateRejects(t *testing.T) {
	tests := []struct {
		name, in string
	}{
		{"empty", ""},
		{"dashes", "15-02-2021"},
		{"dots", "15.02.2021"},
		{"iso", "2021-02-15"},
		{"mixed separators", "15/02-2021"},
		{"extra part", "15/02/2021/1"},
		{"trailing slash", "15/02/2021/"},
		{"time appended", "15/02/2021 00:00"},
		{"missing year", "15/02"},
		{"missing day", "/02/2021"},
		{"letters", "1a/02/2021"},
		{"month name", "15/feb/2021"},
		{"plus sign", "+1/02/2021"},
		{"minus sign", "-1/02/2021"},
		{"space inside", "15/ 2/2021"},
		{"leading space", " 15/02/2021"},
		{"trailing space", "15/02/2021 "},
		{"two-digit year", "15/02/21"},
		{"five-digit year", "15/02/02021"},
		{"three-digit day", "015/02/2021"},
		{"three-digit month", "15/002/2021"},
		{"31 February", "31/02/2024"},
		{"29 February of a common year", "29/02/2023"},
		{"day zero", "0/1/2024"},
		{"month thirteen", "1/13/2024"},
		{"month zero", "1/0/2024"},
		{"31 April", "31/04/2024"},
		{"day 32", "32/01/2024"},
		{"year zero", "01/01/0000"},
		{"unicode digit", "١/01/2024"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseDate(tt.in)
			if err == nil {
				t.Fatalf("ParseDate(%q): got %v, want an error", tt.in, got)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("ParseDate(%q): got error %T, want *Error", tt.in, err)
			}
			if e.Code != Invalid {
				t.Errorf("ParseDate(%q): got code %q, want %q", tt.in, e.Code, Invalid)
			}
			if !strings.Contains(e.Message, tt.in) {
				t.Errorf("ParseDate(%q): got message %q, want it to repeat the value", tt.in, e.Message)
			}
		})
	}
}

func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"15/2/2021", "15/02/2021", "01/01/2024", "23/04/2022", "31/02/2024", "29/02/2023", "0/1/2024", "1/13/2024", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDate(s)
		if err != nil {
			return
		}
		again, err := ParseDate(d.DMY())
		if err != nil {
			t.Fatalf("ParseDate(%q) = %v, but its DMY %q does not parse: %v", s, d, d.DMY(), err)
		}
		if again != d {
			t.Fatalf("ParseDate(%q) = %v; re-parsing %q: got %v, want %v", s, d, d.DMY(), again, d)
		}
	})
}

func TestParseShortYearDate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"22/11/23", "2023-11-22", true},
		{"1/2/00", "2000-02-01", true},
		{"29/2/24", "2024-02-29", true},
		{"29/2/23", "", false},
		{"22/11/2023", "", false}, // four digits are ParseDate's
		{"22/11/3", "", false},
		{"22/11/234", "", false},
	} {
		d, err := ParseShortYearDate(tc.in)
		if (err == nil) != tc.ok || (tc.ok && d.String() != tc.want) {
			t.Errorf("ParseShortYearDate(%q) = %v, %v; want %s ok=%v", tc.in, d, err, tc.want, tc.ok)
		}
	}
}
