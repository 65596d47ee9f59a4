package energy_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/energyapi/energyapi/internal/energy"
)

func TestParseNumber(t *testing.T) {
	tests := []struct {
		in   string
		want float64
	}{
		{"1.234,5", 1234.5},
		{"1234.5", 1234.5},
		{"1234,5", 1234.5},
		{"-16.368,385", -16368.385},
		{"0,408", 0.408},
		{"20,976", 20.976},
		{"27.389,400", 27389.4},
		{"1.234.567", 1234567},
		{"1.234.567,891", 1234567.891},
		{"1.234", 1.234},
		{"12.345", 12.345},
		{"1234", 1234},
		{"0", 0},
		{"007", 7},
		{"+3,5", 3.5},
		{"-0,000", 0},
		{"  42,1 \t", 42.1},
		{"999.999", 999.999},
		{"1.000,0", 1000},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := energy.ParseNumber(tt.in)
			if err != nil {
				t.Fatalf("ParseNumber(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("ParseNumber(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseNumberRejects(t *testing.T) {
	tests := []struct {
		in         string
		wantReason string
	}{
		{"", "empty value"},
		{"   ", "empty value"},
		{"abc", "unexpected character 'a'"},
		{"1,2,3", "more than one decimal comma"},
		{"1.23,4", "groups after the first must have exactly 3 digits"},
		{"1.2345.678", "groups after the first must have exactly 3 digits"},
		{"1234.567.890", "the first thousands group must have 1 to 3 digits"},
		{"1..2", "groups after the first must have exactly 3 digits"},
		{"1,234.5", "a point after the decimal comma"},
		{"NaN", "unexpected character 'N'"},
		{"Inf", "unexpected character 'I'"},
		{"-Inf", "unexpected character 'I'"},
		{"1e3", "unexpected character 'e'"},
		{"1E-3", "unexpected character 'E'"},
		{"0x1F", "unexpected character 'x'"},
		{"1 234", "unexpected character ' '"},
		{"1_000", "unexpected character '_'"},
		{"€5", "unexpected character '€'"},
		{"--1", "unexpected character '-'"},
		{"+", "no digits before the decimal separator"},
		{",5", "no digits before the decimal separator"},
		{".5", "no digits before the decimal separator"},
		{"5,", "no digits after the decimal separator"},
		{"5.", "no digits after the decimal separator"},
		{"1.234,", "no digits after the decimal separator"},
		{strings.Repeat("9", 400), "out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := energy.ParseNumber(tt.in)
			var e *energy.Error
			if !errors.As(err, &e) {
				t.Fatalf("ParseNumber(%q) = %v, %v; want an *energy.Error", tt.in, got, err)
			}
			if e.Code != energy.Invalid {
				t.Errorf("got code %q, want %q", e.Code, energy.Invalid)
			}
			wantMsg := "invalid number " + strconv.Quote(tt.in) + ": " + tt.wantReason
			if !strings.HasPrefix(e.Message, wantMsg) {
				t.Errorf("got message %q, want it to start with %q", e.Message, wantMsg)
			}
		})
	}
}

func TestFormatItalian(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{20.976, "20,976"},
		{1234.567, "1.234,567"},
		{0.408, "0,408"},
		{27389.4, "27.389,400"},
		{-16368.385, "-16.368,385"},
		{0, "0,000"},
		{math.Copysign(0, -1), "0,000"},
		{-0.0004, "0,000"},
		{-0.0006, "-0,001"},
		{0.0005, "0,001"},
		{999.9996, "1.000,000"},
		{-999.9996, "-1.000,000"},
		{123, "123,000"},
		{1000, "1.000,000"},
		{-1000, "-1.000,000"},
		{123456, "123.456,000"},
		{1234567.891, "1.234.567,891"},
		{-12345678, "-12.345.678,000"},
		{180000, "180.000,000"},
		{1e15, "1.000.000.000.000.000,000"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "+Inf"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := energy.FormatItalian(tt.in); got != tt.want {
				t.Errorf("FormatItalian(%v) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestAppendItalianKeepsPrefix(t *testing.T) {
	got := string(energy.AppendItalian([]byte("x="), -1234.5))
	if want := "x=-1.234,500"; got != want {
		t.Errorf("AppendItalian(\"x=\", -1234.5) = %q, want %q", got, want)
	}
	got = string(energy.AppendItalian([]byte("-"), -0.0001))
	if want := "-0,000"; got != want {
		t.Errorf("AppendItalian(\"-\", -0.0001) = %q, want %q (only the value's own sign dropped)", got, want)
	}
}

// TestFormatParseRoundTrip checks, over many values, that parsing what
// FormatItalian writes gives the value rounded to three decimals. Values are
// built as k/1000 plus less than half a thousandth, so the rounded value is
// known without rounding: it is the float nearest k/1000.
func TestFormatParseRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		var k int64
		switch i % 3 {
		case 0:
			k = rng.Int64N(2_000_000) - 1_000_000 // |v| < 1000: no grouping
		case 1:
			k = rng.Int64N(2_000_000_000) - 1_000_000_000
		default:
			k = rng.Int64N(2_000_000_000_000) - 1_000_000_000_000
		}
		want := float64(k) / 1000
		v := want + (rng.Float64()*0.0008 - 0.0004)
		s := energy.FormatItalian(v)
		got, err := energy.ParseNumber(s)
		if err != nil {
			t.Fatalf("ParseNumber(FormatItalian(%v) = %q): %v", v, s, err)
		}
		if got != want {
			t.Fatalf("ParseNumber(FormatItalian(%v) = %q) = %v, want %v", v, s, got, want)
		}
	}
}

func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{
		"1.234,5", "1234.5", "1234,5", "-16.368,385", "0,408", "20,976", "27.389,400",
		"1.234.567", "1.234", "+1", "abc", "1,2,3", "1.23,4", "NaN", "1e3", "0x10", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := energy.ParseNumber(s)
		if err != nil {
			if energy.ErrorCode(err) != energy.Invalid {
				t.Fatalf("ParseNumber(%q) error %v has code %q, want %q", s, err, energy.ErrorCode(err), energy.Invalid)
			}
			return
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("ParseNumber(%q) = %v, want a finite number", s, v)
		}
		f := energy.FormatItalian(v)
		back, err := energy.ParseNumber(f)
		if err != nil {
			t.Fatalf("ParseNumber(FormatItalian(%v) = %q): %v", v, f, err)
		}
		// Rounding to three decimals moves a value by at most half a
		// thousandth; the 1e-9 allows for a value exactly halfway, whose
		// rounded decimal is itself not exactly representable.
		if d := math.Abs(back - v); d > 0.0005+1e-9 {
			t.Fatalf("ParseNumber(%q) = %v; FormatItalian gives %q, which parses to %v: off by %v, want at most 0.0005", s, v, f, back, d)
		}
	})
}

// BenchmarkFormatItalian keeps every result, as a response does, so that the
// string's allocation is counted.
func BenchmarkFormatItalian(b *testing.B) {
	kept := make([]string, 1000)
	i := 0
	for b.Loop() {
		kept[i%len(kept)] = energy.FormatItalian(-16368.385)
		i++
	}
}

func BenchmarkAppendItalian(b *testing.B) {
	buf := make([]byte, 0, 64)
	for b.Loop() {
		buf = energy.AppendItalian(buf[:0], 1234567.891)
	}
}

func BenchmarkParseNumber(b *testing.B) {
	for b.Loop() {
		if _, err := energy.ParseNumber("-16.368,385"); err != nil {
			b.Fatal(err)
		}
	}
}

func TestParseEnglishNumber(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
	}{
		{"1,234.5", 1234.5},
		{"-488.3051289102222", -488.3051289102222},
		{"12,345", 12345},
		{"1,234,567.25", 1234567.25},
		{" +7 ", 7},
		{"0.408", 0.408},
	} {
		got, err := energy.ParseEnglishNumber(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseEnglishNumber(%q): got %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "1,23.4", "12,34", "1.234,5", "1.2.3", "1e3", "NaN", ".5", "5.", "1 234", "1,,234", ",123"} {
		if v, err := energy.ParseEnglishNumber(bad); err == nil {
			t.Errorf("ParseEnglishNumber(%q): got %v, want an error", bad, v)
		}
	}
}

func TestRound(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		d    int
		want float64
	}{
		{27.3894, 3, 27.389},
		{0.125, 2, 0.13},
		{-488.305128, 2, -488.31},
		{61.5, 0, 62},
		{0.0004, 3, 0},
	} {
		if got := energy.Round(tc.v, tc.d); got != tc.want {
			t.Errorf("Round(%v, %d) = %v, want %v", tc.v, tc.d, got, tc.want)
		}
	}
}
