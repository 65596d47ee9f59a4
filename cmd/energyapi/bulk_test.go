package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/client"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/testwait"
)

// bulkBinaryServer starts serve --demo --bulk on a store of its own, and
// returns it with the environment get --bulk and import take. Its server
// is the built energyapi, without the race detector: the files of a year
// took a minute and a half to produce under it, and the bulk code runs
// under it in internal/api's bulk tests (get --bulk, the client side, runs
// under it here).
func bulkBinaryServer(t *testing.T) (*server, map[string]string) {
	t.Helper()
	env := map[string]string{"ENERGYAPI_DB": filepath.Join(t.TempDir(), "bulk.db")}
	s := startBinary(t, "--demo", "--bulk", "--poll-interval", "50ms", "--db", env["ENERGYAPI_DB"])
	env["ENERGYAPI_BASE_URL"] = s.base
	env["ENERGYAPI_CLIENT_ID"], env["ENERGYAPI_CLIENT_SECRET"] = "demo", "demo-secret"
	return s, env
}

// getBulk runs get --bulk and returns its last line, the counts.
func getBulk(t *testing.T, env map[string]string, args ...string) (counts, out string) {
	t.Helper()
	out, err := runCmd(t, env, append([]string{"get", "--bulk"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return lines[len(lines)-1], out
}

// oneDayFile writes an import file of total load for one zone and day.
func oneDayFile(t *testing.T, day energy.Date, zone string, mw int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("Total Load\nDate,Total Load [MW],Forecast Total load [MW],Bidding zone\n")
	for at := day.Start(); at.Before(day.End()); at = at.Add(15 * time.Minute) {
		fmt.Fprintf(&b, "%s,%d,,%s\n", at.In(energy.Rome()).Format("02/01/2006 15:04:05"), mw, zone)
	}
	path := filepath.Join(t.TempDir(), "total-load.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBulkMirrorFetchesOnlyWhatChanged mirrors a year of total load into
// an empty directory, again (nothing fetched), after an interruption
// (the file resumed), and after an import of one day (that month's files
// only, which the updates feed names).
func TestBulkMirrorFetchesOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	s, env := bulkBinaryServer(t)
	dir := t.TempDir()
	if counts, _ := getBulk(t, env, dir, "total-load", "--from", "2024", "--to", "2024"); !strings.HasPrefix(counts, "24 fetched, 0 resumed, 0 unchanged") {
		t.Fatalf("into an empty directory: got %q, want 24 fetched (12 months, 2 formats)", counts)
	}
	if counts, _ := getBulk(t, env, dir, "total-load", "--from", "2024", "--to", "2024"); counts != "0 fetched, 0 resumed, 24 unchanged, 0 bytes" {
		t.Fatalf("again: got %q, want nothing fetched", counts)
	}

	// An interrupted run left half of May's Parquet file.
	may := filepath.Join(dir, "total-load", "2024-05.parquet")
	whole, err := os.ReadFile(may)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(may+".part", whole[:len(whole)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(may); err != nil {
		t.Fatal(err)
	}
	counts, _ := getBulk(t, env, dir, "total-load", "--from", "2024", "--to", "2024")
	if want := fmt.Sprintf("0 fetched, 1 resumed, 23 unchanged, %d bytes", len(whole)-len(whole)/2); counts != want {
		t.Fatalf("after an interruption: got %q, want %q", counts, want)
	}
	if got, _ := os.ReadFile(may); string(got) != string(whole) {
		t.Fatal("the resumed file differs from the whole one")
	}

	if _, err := importFiles(t, env, "total-load", oneDayFile(t, energy.Date{Year: 2024, Month: 6, Day: 15}, "North", 12345)); err != nil {
		t.Fatal(err)
	}
	var out string
	testwait.For(t, time.Minute, "the server serving the import", func() bool {
		counts, out = getBulk(t, env, dir, "total-load", "--from", "2024", "--to", "2024")
		return !strings.HasPrefix(counts, "0 fetched")
	})
	if !strings.HasPrefix(counts, "2 fetched, 0 resumed, 22 unchanged") ||
		!strings.Contains(out, "fetched total-load/2024-06.parquet") || !strings.Contains(out, "fetched total-load/2024-06.csv.gz") {
		t.Errorf("after an import of one day: got\n%s\nwant June's two files only", out)
	}
	tok, _ := s.token(t, "demo", "demo-secret")
	if _, body := s.get(t, "/updates", tok); !strings.Contains(string(body), `"/bulk/total-load/2024-06.parquet"`) {
		t.Errorf("the updates feed does not name June's file: %s", body)
	}
}

// requireDuckDB returns the node command and the DuckDB check script, or
// skips when node or the script's packages are missing, unless
// ENERGYAPI_REQUIRE_DUCKDB (set by .ci/run, which installs them) says
// they are required.
func requireDuckDB(t *testing.T) (node, script string) {
	t.Helper()
	script, _ = filepath.Abs(filepath.Join("..", "..", "scripts", "duckdb", "check.mjs"))
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(filepath.Dir(script), "node_modules", "@duckdb", "node-api"))
	}
	if err != nil {
		if os.Getenv("ENERGYAPI_REQUIRE_DUCKDB") != "" {
			t.Fatalf("node and scripts/duckdb's packages (npm ci) are required (ENERGYAPI_REQUIRE_DUCKDB is set): %v", err)
		}
		t.Skipf("SKIP: no node or no scripts/duckdb/node_modules (cd scripts/duckdb && npm ci): %v", err)
	}
	return node, script
}

// duckSums runs check.mjs over files and returns its sums per group.
func duckSums(t *testing.T, node, script string, files []string, args ...string) map[string]float64 {
	t.Helper()
	out, err := exec.Command(node, append(append([]string{script}, args...), files...)...).Output()
	if err != nil {
		t.Fatalf("check.mjs: %v", err)
	}
	var r struct {
		Sums map[string]float64 `json:"sums"`
		Rows int                `json:"rows"`
	}
	if err := json.Unmarshal(out, &r); err != nil || r.Rows == 0 {
		t.Fatalf("check.mjs said %s (%v), want sums of some rows", out, err)
	}
	return r.Sums
}

// TestBulkDuckDB reads the Parquet files of a year of total load and of a
// year of thermoelectric production with DuckDB: its sums per zone and
// day (per region) equal those of the JSON API; every file's checksum is
// the manifest's; a Range request for a footer answers 206.
func TestBulkDuckDB(t *testing.T) {
	t.Parallel()
	node, script := requireDuckDB(t)
	s, env := bulkBinaryServer(t)
	dir := t.TempDir()
	getBulk(t, env, dir, "total-load", "--from", "2024", "--to", "2024")
	getBulk(t, env, dir, "thermoelectric", "--from", "2023", "--to", "2023")
	getBulk(t, env, dir, "daily-prices", "--from", "2024-03", "--to", "2024-03")
	ctx := context.Background()
	c := client.New(s.base, client.WithCredentials("demo", "demo-secret"))

	checkManifest(t, c, dir, "total-load", "2024")
	checkManifest(t, c, dir, "thermoelectric", "2023")
	checkManifest(t, c, dir, "daily-prices", "2024-03")

	loads, _ := filepath.Glob(filepath.Join(dir, "total-load", "*.parquet"))
	got := duckSums(t, node, script, loads, "--keys", "bidding_zone", "--value", "total_load_MW", "--time", "date", "--offset", "date_offset")
	recs, err := c.Get(ctx, "/load/v2.0/total-load", url.Values{"dateFrom": {"01/01/2024"}, "dateTo": {"31/12/2024"}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{}
	for _, r := range recs {
		at, _ := r.Time()
		v, _, _ := r.Float("total_load_MW")
		want[r["bidding_zone"]+"|"+at.In(energy.Rome()).Format(time.DateOnly)] += v
	}
	compareSums(t, "total-load 2024 per zone and day", got, want)

	thermo, _ := filepath.Glob(filepath.Join(dir, "thermoelectric", "*.parquet"))
	got = duckSums(t, node, script, thermo, "--keys", "year,region", "--value", "production_GWh")
	recs, err = c.Get(ctx, "/generation/v2.0/thermoelectric-production", url.Values{"year": {"2023"}})
	if err != nil {
		t.Fatal(err)
	}
	want = map[string]float64{}
	for _, r := range recs {
		v, _, _ := r.Float("production_GWh")
		want[r["year"]+"|"+r["region"]] += v
	}
	compareSums(t, "thermoelectric 2023 per region", got, want)

	// A month of a v1.0 dataset: its instant is reference_date, with the
	// offset beside it; March holds the spring clock change.
	prices, _ := filepath.Glob(filepath.Join(dir, "daily-prices", "*.parquet"))
	got = duckSums(t, node, script, prices, "--keys", "data_type,macrozone", "--value", "unbalance_price_EURxMWh", "--time", "reference_date", "--offset", "offset")
	recs, err = c.Get(ctx, "/fees/v1.0/daily-prices", url.Values{"dateFrom": {"01/03/2024"}, "dateTo": {"31/03/2024"}})
	if err != nil {
		t.Fatal(err)
	}
	want = map[string]float64{}
	for _, r := range recs {
		at, err := r.TimeOf("reference_date")
		if err != nil {
			t.Fatal(err)
		}
		v, _, _ := r.Float("unbalance_price_EURxMWh")
		want[r["data_type"]+"|"+r["macrozone"]+"|"+at.In(energy.Rome()).Format(time.DateOnly)] += v
	}
	compareSums(t, "daily-prices March 2024 per data type, macrozone and day", got, want)

	tok, _ := s.token(t, "demo", "demo-secret")
	req, _ := http.NewRequest(http.MethodGet, s.base+"/bulk/total-load/2024-07.parquet", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Range", "bytes=-8") // the footer's length and magic
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	tail := make([]byte, 16)
	n, _ := resp.Body.Read(tail)
	if resp.StatusCode != http.StatusPartialContent || !strings.HasSuffix(string(tail[:n]), "PAR1") {
		t.Errorf("footer: got %d %q, want 206 ending in PAR1", resp.StatusCode, tail[:n])
	}
}

// checkManifest checks every file of dataset's manifest for period
// against the file mirrored into dir.
func checkManifest(t *testing.T, c *client.Client, dir, dataset, period string) {
	t.Helper()
	m, err := c.BulkManifest(context.Background(), dataset, period, period)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Files) == 0 {
		t.Fatalf("%s %s: an empty manifest", dataset, period)
	}
	for _, f := range m.Files {
		b, err := os.ReadFile(filepath.Join(dir, dataset, f.Period+"."+f.Format))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != f.SHA256 || int64(len(b)) != f.Size {
			t.Errorf("%s: SHA-256 %s of %d bytes, manifest %s of %d", f.URL, got, len(b), f.SHA256, f.Size)
		}
	}
}

func compareSums(t *testing.T, what string, got, want map[string]float64) {
	t.Helper()
	if len(got) != len(want) || len(want) == 0 {
		t.Errorf("%s: %d groups in Parquet, %d in JSON", what, len(got), len(want))
	}
	for k, w := range want {
		if g, ok := got[k]; !ok || math.Abs(g-w) > 1e-9*math.Max(1, math.Abs(w)) {
			t.Errorf("%s: %s: Parquet %v, JSON %v", what, k, g, w)
		}
	}
}
