package main

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/store/sqlite"
	"github.com/energyapi/energyapi/internal/testwait"
)

func writeFile(tb testing.TB, name, content string) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// serveStore serves the store at db as the API does.
func serveStore(t *testing.T, db string) *apitest.Server {
	t.Helper()
	st, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	return apitest.NewServer(t, apitest.Options{Catalog: c, Source: st})
}

// TestGenerationImportIsIdempotentAndAllOrNothing imports generation
// files with the import command, twice, then a file with one bad row, and
// fetches what was imported with get.
func TestGenerationImportIsIdempotentAndAllOrNothing(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "gen.db")
	env := map[string]string{"ENERGYAPI_DB": db}
	hydric := writeFile(t, "hydric.csv", "year,production_type,region,province,hydric_system,production_GWh\n"+
		"2023,Lorda,Lombardia,Sondrio,Serbatoio,\"199,301\"\n"+
		"2023,Netta,Lombardia,Sondrio,Serbatoio,\"195,5\"\n")
	actual := writeFile(t, "actual.csv", "date,date_offset,actual_generation_GWh,primary_source\n"+
		"2024-10-27 02:00:00,+02:00,8.25,Thermal\n"+
		"2024-10-27 02:00:00,+01:00,8.125,Thermal\n"+
		"2024-10-27 02:00:00,+01:00,1.5,Wind\n")
	for _, f := range []struct {
		dataset, file string
		rows          int
	}{{"hydric", hydric, 2}, {"actual-generation", actual, 3}} {
		s, err := importFiles(t, env, f.dataset, f.file)
		if err != nil || s.Inserted != f.rows {
			t.Fatalf("%s: got %+v, %v; want %d inserted", f.dataset, s, err, f.rows)
		}
		if s, err := importFiles(t, env, f.dataset, f.file); err != nil || s.Unchanged != f.rows || s.Inserted+s.Updated != 0 {
			t.Fatalf("%s again: got %+v, %v; want %d unchanged", f.dataset, s, err, f.rows)
		}
	}
	// A good row, then a province of another region: nothing is imported.
	bad := writeFile(t, "bad.csv", "year,production_type,region,province,hydric_plant,production_GWh\n"+
		"2023,Netta,Trentino-Alto Adige,Bolzano,Bacino,\"3.100,5\"\n"+
		"2023,Netta,Lombardia,Bolzano,Fluente,1\n")
	if _, err := importFiles(t, env, "hydric", bad); err == nil {
		t.Fatal("a file with a province of another region: got no error")
	}
	good := writeFile(t, "good.csv", "year,production_type,region,province,hydric_plant,production_GWh\n"+
		"2023,Netta,Trentino-Alto Adige,Bolzano,Bacino,\"3.100,5\"\n")
	if s, err := importFiles(t, env, "hydric", good); err != nil || s.Inserted != 1 {
		t.Fatalf("the good row alone: got %+v, %v; want 1 inserted (the failed import kept none)", s, err)
	}

	srv := serveStore(t, db)
	out, _, _, err := runGetCmd(t, srv, credentials(), "hydric", "--year", "2023", "--province", "Sondrio", "--province", "Bolzano", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	if want := "year,production_type,region,province,hydric_plant,production_GWh\n" +
		"2023,Lorda,Lombardia,Sondrio,Serbatoio,199.301\n" +
		"2023,Netta,Lombardia,Sondrio,Serbatoio,195.5\n" +
		"2023,Netta,Trentino-Alto Adige,Bolzano,Bacino,3100.5\n"; out != want {
		t.Errorf("get hydric:\n%s\nwant:\n%s", out, want)
	}
	out, _, _, err = runGetCmd(t, srv, credentials(), "actual-generation", "--from", "27/10/2024", "--to", "27/10/2024", "--type", "Thermal", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	// get's CSV writes each moment as one RFC 3339 value.
	if want := "date,actual_generation_GWh,primary_source\n" +
		"2024-10-27T02:00:00+02:00,8.25,Thermal\n" +
		"2024-10-27T02:00:00+01:00,8.125,Thermal\n"; out != want {
		t.Errorf("get actual-generation:\n%s\nwant:\n%s", out, want)
	}
}

// TestDemoFromTheFirstStart checks that serve --demo on a new store lists
// the whole demo range from its first answer, the yearly statistics
// included, and serves demo records for the generation datasets by their
// filters, each generated when first asked. TestDemoAnswersEveryDataset
// asks every dataset.
func TestDemoFromTheFirstStart(t *testing.T) {
	t.Parallel()
	env := map[string]string{"ENERGYAPI_DB": filepath.Join(t.TempDir(), "demo.db")}
	srv := startServe(t, env, "--demo", "--poll-interval", "200ms")
	tok, _ := srv.token(t, "demo", "demo-secret")
	cov := catalogCoverage(t, srv)
	for name, want := range map[string][2]string{
		"total-load": {"2019-01-01", "2025-12-31"}, "thermoelectric": {"2015-01-01", "2024-01-01"}, "market-prices": {"2019-01-01", "2025-12-31"},
	} {
		if cov[name] != want {
			t.Errorf("%s at start covers %v, want %v", name, cov[name], want)
		}
	}
	if st, body := srv.get(t, "/load/v2.0/total-load?dateFrom=31/12/2025&dateTo=31/12/2025", tok); st != 200 || !strings.Contains(string(body), `"total_load":[{"`) {
		t.Fatalf("first answer: got %d %.200s, want records", st, body)
	}
	for _, q := range []struct{ path, array string }{
		{"/generation/v2.0/actual-generation?dateFrom=27/12/2025&dateTo=27/12/2025&type=Thermal", "actual_generation"},
		{"/generation/v2.0/renewable-generation?dateFrom=31/12/2025&dateTo=31/12/2025", "renewable_generation"},
		{"/generation/v2.0/energy-balance?dateFrom=1/12/2025&dateTo=1/12/2025", "energy_balance"},
		{"/generation/v2.0/installed-capacity?year=2024", "installed_capacity"},
		{"/generation/v2.0/generation-plants?year=2015&province=Foggia", "generation_plants"},
		{"/generation/v2.0/thermoelectric-capacity?year=2024&subcategory=Geotermoelettrica+A+Condensazione", "thermoelectric"},
		{"/generation/v2.0/electrical-energy-by-source?year=2024&region=Puglia", "electrical_energy_by_source"},
		{"/generation/v2.0/renewable-sources-production?year=2024&source=Idrico", "renewable_sources"},
		{"/generation/v2.0/hydric?year=2022&province=Sondrio", "hydric"},
		{"/generation/v2.0/thermoelectric-heat?year=2024", "thermoelectric_heat"},
	} {
		if st, body := getPast503(t, srv, q.path, tok); st != 200 || !strings.Contains(string(body), `"`+q.array+`":[{"`) {
			t.Errorf("%s: got %d %.300s, want demo records", q.path, st, body)
		}
	}
}

// catalogEntry is a dataset as GET /catalog lists it.
type catalogEntry struct {
	Name, Path, Array, Granularity string
	Parameters                     []struct {
		Name     string
		Kind     string
		Required bool
		Values   []string
	}
	Coverage *struct{ First, Last string }
}

// catalogOf returns GET /catalog's datasets.
func catalogOf(t *testing.T, srv *server) []catalogEntry {
	t.Helper()
	cat, st := tryCatalog(t, srv)
	if st != 200 {
		t.Fatalf("/catalog: %d", st)
	}
	return cat
}

// tryCatalog returns GET /catalog's datasets and its status.
func tryCatalog(t *testing.T, srv *server) ([]catalogEntry, int) {
	t.Helper()
	st, body := srv.get(t, "/catalog", "")
	if st != 200 {
		return nil, st
	}
	var cat struct{ Datasets []catalogEntry }
	if err := json.Unmarshal(body, &cat); err != nil {
		t.Fatalf("/catalog: %v", err)
	}
	return cat.Datasets, st
}

// catalogCoverage returns each dataset's coverage as /catalog reports it,
// zero for none; nil if /catalog did not answer 200 (a busy server may
// answer 503 while the fill writes).
func catalogCoverage(t *testing.T, srv *server) map[string][2]string {
	t.Helper()
	cat, st := tryCatalog(t, srv)
	if st != 200 {
		return nil
	}
	out := map[string][2]string{}
	for _, d := range cat {
		if d.Coverage != nil {
			out[d.Name] = [2]string{d.Coverage.First, d.Coverage.Last}
		} else {
			out[d.Name] = [2]string{}
		}
	}
	return out
}

// getPast503 is srv.get, asked again while the answer is 503: a server
// busy with the demo fill may shed a request, with Retry-After.
func getPast503(t *testing.T, srv *server, path, tok string) (st int, body []byte) {
	t.Helper()
	testwait.For(t, time.Minute, "an answer other than 503", func() bool {
		st, body = srv.get(t, path, tok)
		return st != http.StatusServiceUnavailable
	})
	return st, body
}

// TestDemoRangeAndSeed writes two days of demo data with a seed of its
// own (the built binary: the write is generation, minutes under the race
// detector), and refuses ranges it cannot write.
func TestDemoRangeAndSeed(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "demo.db")
	env := map[string]string{"ENERGYAPI_DB": db}
	out, err := exec.Command(energyapiBinary(t), "demo", "--db", db, "--from", "2024-03-30", "--to", "2024-03-31", "--seed", "7").Output()
	if err != nil {
		t.Fatalf("energyapi demo: %v", err)
	}
	stdout := string(out)
	// Two days, the second 23 hours long: 96+92 quarter hours of 8 zones.
	if want := `{"dataset":"total-load","files":0,"rows_read":1504,`; !strings.Contains(stdout, want) {
		t.Errorf("got %s, want a line starting %s", stdout, want)
	}
	if want := `{"dataset":"actual-generation","files":0,"rows_read":282,`; !strings.Contains(stdout, want) {
		t.Errorf("got %s, want a line starting %s (47 hours of 6 sources)", stdout, want)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--from", "30/03/2024"}, `--from: invalid value "30/03/2024": a day, yyyy-mm-dd`},
		{[]string{"--from", "2024-04-01", "--to", "2024-03-31"}, "--from 2024-04-01 is after --to 2024-03-31"},
		{[]string{"--from", "2000-01-01", "--to", "2030-01-01"}, "at most 20 years"},
		{[]string{"--seed", "-1"}, "--seed"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, stderr, code := runFull(t, context.Background(), env, append([]string{"demo"}, tt.args...)...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("got exit %d, stderr %q; want 2 and %q", code, stderr, tt.want)
			}
		})
	}
}
