package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/testwait"
)

// ttyBuffer is a Buffer that tells isTerminal it is a terminal, so that a
// test can see what a person at one would.
type ttyBuffer struct{ apitest.Buffer }

func (*ttyBuffer) IsTerminal() bool { return true }

func TestIsTerminal(t *testing.T) {
	t.Parallel()
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, tt := range []struct {
		name string
		w    io.Writer
		want bool
	}{
		{"buffer", &bytes.Buffer{}, false},
		{"regular file", f, false},
		{"writer that says it is a terminal", &ttyBuffer{}, true},
	} {
		if got := isTerminal(tt.w); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

// seededStore returns a store holding two years of thermoelectric production
// and three days of load.
func seededStore(tb testing.TB) string {
	tb.Helper()
	db := filepath.Join(tb.TempDir(), "seeded.db")
	thermo := filepath.Join(tb.TempDir(), "thermo.csv")
	const csv = "year;capacity_type;region;province;category;subcategory;production_GWh\n" +
		"2022;Lorda;Puglia;Brindisi;Non cogenerativa;Condensazione;90\n" +
		"2023;Lorda;Puglia;Brindisi;Non cogenerativa;Condensazione;100\n"
	if err := os.WriteFile(thermo, []byte(csv), 0o644); err != nil {
		tb.Fatal(err)
	}
	fltRun(tb, "import", "--db", db, "--dataset", "thermoelectric", thermo)
	fltRun(tb, "import", "--db", db, "--dataset", "total-load", loadCSV(tb, "load.csv", energy.Date{Year: 2023, Month: 3, Day: 1}, 3, 0))
	return db
}

// serveTo runs serve until the test ends, its stderr going to stderr, and
// returns its base URL once /healthz answers.
func serveTo(tb testing.TB, stderr io.Writer, args ...string) string {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout := &apitest.Buffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), func(string) string { return "" }, strings.NewReader(""), stdout, stderr)
	}()
	tb.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			tb.Errorf("serve: %v", err)
		}
	})
	var base string
	testwait.For(tb, 2*time.Minute, "serve reporting its address", func() bool {
		select {
		case err := <-done:
			done <- err
			tb.Fatalf("serve exited early: %v", err)
		default:
		}
		if m := listening.FindStringSubmatch(stdout.String()); m != nil {
			base = m[1]
		}
		return base != ""
	})
	testwait.For(tb, time.Minute, "healthz answering 200", func() bool {
		resp, err := http.Get(base + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return base
}

// TestServeOnTerminal starts serve with stderr a terminal or not and each
// --log-format: the banner shows on a terminal only, and the logs are text
// on a terminal unless JSON is asked for, JSON elsewhere unless text is.
func TestServeOnTerminal(t *testing.T) {
	t.Parallel()
	db := seededStore(t)
	for _, tt := range []struct {
		name     string
		terminal bool
		format   string // "" for the default
		banner   bool
		json     bool
	}{
		{"terminal", true, "", true, false},
		{"terminal, JSON forced", true, "json", true, true},
		{"not a terminal", false, "", false, true},
		{"not a terminal, text asked for", false, "text", false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stderr interface {
				io.Writer
				String() string
			} = &apitest.Buffer{}
			if tt.terminal {
				stderr = &ttyBuffer{}
			}
			args := []string{"--db", db, "--demo"}
			if tt.format != "" {
				args = append(args, "--log-format", tt.format)
			}
			base := serveTo(t, stderr, args...)
			testwait.For(t, 10*time.Second, "the serving log line", func() bool { return strings.Contains(stderr.String(), "serving") })
			out := stderr.String()
			if got := strings.Contains(out, `"msg":"serving"`); got != tt.json {
				t.Errorf("JSON log: got %v, want %v:\n%s", got, tt.json, out)
			}
			if got := strings.Contains(out, "level=INFO msg=serving"); got != !tt.json {
				t.Errorf("text log: got %v, want %v:\n%s", got, !tt.json, out)
			}
			if got := strings.Contains(out, "energyapi is serving"); got != tt.banner {
				t.Fatalf("banner: got %v, want %v:\n%s", got, tt.banner, out)
			}
			if !tt.banner {
				return
			}
			for _, row := range [][2]string{
				{"API", base},
				{"store", db},
				{"thermoelectric", "2022-2023 (2 records)"},
				{"total-load", "01/03/2023 to 03/03/2023 (2,304 records)"},
				{"peak-valley", "derived from total-load when first asked"},
				{"demo client", "demo / demo-secret"},
			} {
				if !regexp.MustCompile(`\n  ` + row[0] + ` +` + regexp.QuoteMeta(row[1]) + `\n`).MatchString(out) {
					t.Errorf("the banner lacks %s %s:\n%s", row[0], row[1], out)
				}
			}
			// The curl line in the banner works as written.
			m := regexp.MustCompile(`curl -s -X POST (\S+) -d '([^']+)'`).FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("no curl line in the banner:\n%s", out)
			}
			resp, err := http.Post(m[1], "application/x-www-form-urlencoded", strings.NewReader(m[2]))
			if err != nil {
				t.Fatal(err)
			}
			var tok struct {
				AccessToken string `json:"access_token"`
			}
			err = json.NewDecoder(resp.Body).Decode(&tok)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || err != nil || tok.AccessToken == "" {
				t.Errorf("the banner's curl line: got %d (%v), want a token", resp.StatusCode, err)
			}
		})
	}
}

// TestBannerWithoutData shows the banner of an empty store, and a
// PostgreSQL URL without its password.
func TestBannerWithoutData(t *testing.T) {
	t.Parallel()
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	writeBanner(&b, banner{
		base:  "http://127.0.0.1:8080",
		store: storeName("postgres://energyapi:s3cret@db:5432/energyapi"),
		data:  &dataset.Snapshot{Catalog: cat},
	})
	out := b.String()
	for _, re := range []string{
		`\n  store +postgres://energyapi:xxxxx@db:5432/energyapi\n`,
		`\n  thermoelectric +none served\n`,
		`\n  peak-valley +none served\n`,
		`\n  total-load +none served\n`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("the banner lacks %s:\n%s", re, out)
		}
	}
	for _, not := range []string{"s3cret", "demo-secret"} {
		if strings.Contains(out, not) {
			t.Errorf("the banner shows %q:\n%s", not, out)
		}
	}
}

// TestLogDurationsInMilliseconds logs a time.Duration in both formats: it
// must come out as a float number of milliseconds under a key ending _ms.
func TestLogDurationsInMilliseconds(t *testing.T) {
	t.Parallel()
	for _, format := range []logFormat{logJSON, logText} {
		var b bytes.Buffer
		newLogger(&b, format, slog.LevelInfo).Info("done", "duration", 1500*time.Microsecond, slog.Group("import", "took", 2*time.Second))
		want := map[logFormat][]string{
			logJSON: {`"duration_ms":1.5`, `"import":{"took_ms":2000}`},
			logText: {`duration_ms=1.5`, `import.took_ms=2000`},
		}[format]
		for _, w := range want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: got %q, want %s", format, b.String(), w)
			}
		}
	}
}

// TestImportProgress imports on a terminal and off one: progress lines on
// stderr for the first only; the JSON summary on stdout for both.
func TestImportProgress(t *testing.T) {
	t.Parallel()
	file := loadCSV(t, "tl.csv", energy.Date{Year: 2023, Month: 1, Day: 1}, 2, 0)
	for _, terminal := range []bool{true, false} {
		t.Run(fmt.Sprint("terminal ", terminal), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "p.db")
			var stdout bytes.Buffer
			var stderr interface {
				io.Writer
				String() string
			} = &apitest.Buffer{}
			if terminal {
				stderr = &ttyBuffer{}
			}
			if err := run(context.Background(), []string{"import", "--db", db, "--dataset", "total-load", file}, envOf(nil), strings.NewReader(""), &stdout, stderr); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(stdout.String(), `"rows_read":1536`) {
				t.Errorf("summary: got %q, want rows_read 1536", stdout.String())
			}
			if !terminal {
				if stderr.String() != "" {
					t.Errorf("off a terminal: got %q on stderr, want nothing", stderr.String())
				}
				return
			}
			for _, re := range []string{
				`import: parsing 1 total-load file\(s\)\.\.\.\n`,
				`import: parsed ` + regexp.QuoteMeta(file) + `: 1,536 rows \([0-9.]+m?s\)\n`,
				`import: writing 1,536 rows to ` + regexp.QuoteMeta(db) + ` in one transaction\.\.\.\n`,
				`import: committed: 1,536 inserted, 0 updated, 0 unchanged \([0-9.]+m?s\)\n`,
			} {
				if !regexp.MustCompile(re).MatchString(stderr.String()) {
					t.Errorf("progress lacks %s:\n%s", re, stderr.String())
				}
			}
		})
	}
}

// TestDemoProgress watches energyapi demo write two days of demo data on
// a terminal: a line per period, then the time it took; off a terminal,
// progress writes nothing.
func TestDemoProgress(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	in := dataset.DemoInput{First: energy.Date{Year: 2025, Month: time.December, Day: 30}, Last: energy.Date{Year: 2025, Month: time.December, Day: 31}, Seed: 1}
	st, err := openStore(ctx, filepath.Join(t.TempDir(), "d.db"), true)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tty := &ttyBuffer{}
	sums, err := writeDemo(ctx, st, newProgress(tty, time.Now), in, dataset.DemoPeriods(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(sums) < 40 || sums[0].Inserted == 0 {
		t.Errorf("summaries: %+v, want one per dataset, with records written", sums)
	}
	for _, want := range []string{
		"demo data [1/2]: generating and writing 2025...\n",
		"demo data [2/2]: 2025-12: ",
		"demo data complete (",
	} {
		if !strings.Contains(tty.String(), want) {
			t.Errorf("progress lacks %q:\n%s", want, tty.String())
		}
	}
	var plain bytes.Buffer
	newProgress(&plain, time.Now).printf("demo data [1/1]: generating and writing 2025...")
	if plain.Len() != 0 {
		t.Errorf("off a terminal: got %q, want no progress", plain.String())
	}
}

func TestCount(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		n    int
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {2045376, "2,045,376"}, {-1234, "-1,234"}} {
		if got := count(tt.n); got != tt.want {
			t.Errorf("count(%d): got %q, want %q", tt.n, got, tt.want)
		}
	}
}

// TestBannerOfTheDemo: serve --demo on a new store says, from its first
// line, what the demo covers and that each part is generated when first
// asked, and lists every dataset's whole demo range with its records,
// none generated yet.
func TestBannerOfTheDemo(t *testing.T) {
	t.Parallel()
	stderr := &ttyBuffer{}
	serveTo(t, stderr, "--db", filepath.Join(t.TempDir(), "demo.db"), "--demo")
	testwait.For(t, 10*time.Second, "the serving log line", func() bool { return strings.Contains(stderr.String(), "msg=serving") })
	out := stderr.String()
	for _, row := range [][2]string{
		{"demo data", "01/01/2019 to 31/12/2025 (seed 33694298218521) and the statistics from 2015: each part generated when first asked, then kept in the store"},
		{"total-load", "01/01/2019 to 31/12/2025 (1,963,776 records)"},
		{"thermoelectric", "2015-2024 ("},
		{"market-prices", "01/01/2019 to 31/12/2025 ("},
	} {
		if !regexp.MustCompile(`\n  ` + row[0] + ` +` + regexp.QuoteMeta(row[1])).MatchString(out) {
			t.Errorf("the banner lacks %s %s:\n%s", row[0], row[1], out)
		}
	}
	if strings.Contains(out, "none served") {
		t.Errorf("the banner says a dataset has no demo data:\n%s", out)
	}
}
