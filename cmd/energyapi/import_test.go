package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// dstLoadFile writes a total-load export for Italy over the two 2024
// daylight-saving days, newest row first under a title row, as the download
// section publishes it. Every quarter hour gets 30,000 MW plus a step, except
// the hand-placed peaks and valleys below. extra rows are appended at the end.
func dstLoadFile(tb testing.TB, extra ...string) (string, int) {
	tb.Helper()
	special := map[string]string{ // wall clock and offset -> MW
		"31/03/2024 03:00:00 +0200": "17500",
		"31/03/2024 20:15:00 +0200": "40000.25",
		"27/10/2024 02:30:00 +0100": "18000", // the second 02:30 of the day
		"27/10/2024 18:00:00 +0100": "45123",
	}
	var rows []string
	for _, day := range []energy.Date{{Year: 2024, Month: 3, Day: 31}, {Year: 2024, Month: 10, Day: 27}} {
		for t, i := day.Start(), 0; t.Before(day.End()); t, i = t.Add(15*time.Minute), i+1 {
			local := t.In(energy.Rome())
			mw := fmt.Sprintf("%d", 30000+i*10)
			if v, ok := special[local.Format("02/01/2006 15:04:05 -0700")]; ok {
				mw = v
			}
			rows = append(rows, local.Format("02/01/2006 15:04:05")+","+mw+",,Italy")
		}
	}
	n := len(rows)
	slices.Reverse(rows)
	content := "Total Load\nDate,Total Load [MW],Forecast Total load [MW],Bidding zone\n" + strings.Join(append(rows, extra...), "\n") + "\n"
	path := filepath.Join(tb.TempDir(), "total-load.csv")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path, n
}

type summaryJSON struct {
	RowsRead  int `json:"rows_read"`
	Inserted  int `json:"inserted"`
	Updated   int `json:"updated"`
	Unchanged int `json:"unchanged"`
}

func importFiles(tb testing.TB, env map[string]string, dataset string, files ...string) (summaryJSON, error) {
	tb.Helper()
	out, err := runCmd(tb, env, append([]string{"import", "--dataset", dataset}, files...)...)
	if err != nil {
		return summaryJSON{}, err
	}
	var s summaryJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		tb.Fatalf("import summary %q: %v", out, err)
	}
	return s, nil
}

func TestTotalLoadDSTThroughImportAndAPI(t *testing.T) {
	t.Parallel()
	env := map[string]string{"ENERGYAPI_DB": filepath.Join(t.TempDir(), "dst.db")}
	file, n := dstLoadFile(t)
	if n != 92+100 {
		t.Fatalf("fixture: got %d quarter hours, want 92 on 31/03 and 100 on 27/10", n)
	}
	s, err := importFiles(t, env, "total-load", file)
	if err != nil {
		t.Fatal(err)
	}
	if s != (summaryJSON{RowsRead: 192, Inserted: 192}) {
		t.Errorf("first import: got %+v, want 192 read and inserted", s)
	}
	// Idempotent: the same file again changes nothing.
	if s, err = importFiles(t, env, "total-load", file); err != nil || s != (summaryJSON{RowsRead: 192, Unchanged: 192}) {
		t.Errorf("second import: got %+v, %v; want 192 unchanged", s, err)
	}

	srv := startServe(t, env, "--demo")
	tok, _ := srv.token(t, "demo", "demo-secret")
	const want = `{"result":{"message":"Operation completed for the following input. Date from: 30/03/2024, date to: 31/03/2024","status":"Completed"},"peak_valley_load":[` +
		`{"date":"2024-03-31 03:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"","valley_load_GW":"17.500"},` +
		`{"date":"2024-03-31 20:15:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"40.000","valley_load_GW":""}]}`
	if st, body := srv.get(t, "/load/v2.0/peak-valley-load?dateFrom=30/3/2024&dateTo=31/3/2024", tok); st != 200 || string(body) != want {
		t.Errorf("spring: got %d\n%s\nwant\n%s", st, body, want)
	}
	const wantAutumn = `{"result":{"message":"Operation completed for the following input. Date from: 27/10/2024, date to: 27/10/2024","status":"Completed"},"peak_valley_load":[` +
		`{"date":"2024-10-27 02:30:00","date_tz":"Europe/Rome","date_offset":"+01:00","peak_load_GW":"","valley_load_GW":"18.000"},` +
		`{"date":"2024-10-27 18:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","peak_load_GW":"45.123","valley_load_GW":""}]}`
	if st, body := srv.get(t, "/load/v2.0/peak-valley-load?dateFrom=27/10/2024&dateTo=27/10/2024", tok); st != 200 || string(body) != wantAutumn {
		t.Errorf("autumn: got %d\n%s\nwant\n%s", st, body, wantAutumn)
	}
}

func TestFailedImportLeavesServedDataUnchanged(t *testing.T) {
	t.Parallel()
	env := map[string]string{"ENERGYAPI_DB": filepath.Join(t.TempDir(), "atomic.db")}
	dir := t.TempDir()
	good := filepath.Join(dir, "good.csv")
	const header = "year,capacity_type,region,province,category,subcategory,production_GWh\n"
	if err := os.WriteFile(good, []byte(header+"2023,Lorda,Puglia,Brindisi,Non cogenerativa,Condensazione,\"5.000,5\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := importFiles(t, env, "thermoelectric", good); err != nil {
		t.Fatal(err)
	}
	// Every row but the last is valid, and the first would change the stored value.
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte(header+
		"2023,Lorda,Puglia,Brindisi,Non cogenerativa,Condensazione,\"9.999,9\"\n"+
		"2023,Lorda,Puglia,Taranto,Cogenerativa,Contropressione,12\n"+
		"2023,Lorda,Puglia,Taranto,Cogenerativa,Condensazione,7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startServe(t, env, "--demo", "--poll-interval", "50ms")
	tok, _ := srv.token(t, "demo", "demo-secret")
	_, before := srv.get(t, "/generation/v2.0/thermoelectric-production?year=2023&region=Puglia", tok)
	if !strings.Contains(string(before), `"production_GWh":"5.000,500"`) {
		t.Fatalf("before: got %s, want the imported value 5.000,500", before)
	}
	_, err := importFiles(t, env, "thermoelectric", bad)
	if err == nil || !strings.Contains(err.Error(), "bad.csv:4:") || !strings.Contains(err.Error(), "Condensazione") {
		t.Fatalf("got %v, want an error at bad.csv:4 naming the subcategory", err)
	}
	// Wait past several polls: nothing may change.
	time.Sleep(300 * time.Millisecond)
	if _, after := srv.get(t, "/generation/v2.0/thermoelectric-production?year=2023&region=Puglia", tok); string(after) != string(before) {
		t.Errorf("after the failed import:\n%s\nwant as before:\n%s", after, before)
	}

	// The same holds for total load: a row that does not exist (02:15 on the
	// spring day) at the end of an otherwise good file stores nothing.
	loadFile, _ := dstLoadFile(t, "31/03/2024 02:15:00,30000,,Italy")
	_, err = importFiles(t, env, "total-load", loadFile)
	if err == nil || !strings.Contains(err.Error(), "total-load.csv:195:") {
		t.Fatalf("got %v, want an error at total-load.csv:195 (title, header, 192 rows, then the bad one)", err)
	}
	time.Sleep(300 * time.Millisecond)
	if _, body := srv.get(t, "/load/v2.0/peak-valley-load?dateFrom=31/03/2024&dateTo=31/03/2024", tok); strings.Contains(string(body), "17.500") {
		t.Errorf("data of the failed import is served: %s", body)
	}
}

// TestPeakValleyImportWinsOverDerived imports the API's own JSON shape for a
// day that also has total load, and reads back the published records.
func TestPeakValleyImportWinsOverDerived(t *testing.T) {
	t.Parallel()
	env := map[string]string{"ENERGYAPI_DB": filepath.Join(t.TempDir(), "pv.db")}
	load, _ := dstLoadFile(t)
	if _, err := importFiles(t, env, "total-load", load); err != nil {
		t.Fatal(err)
	}
	const published = `{"result":{"message":"Operation completed for the following input. Date from: 27/10/2024, date to: 27/10/2024","status":"Completed"},"peak_valley_load":[` +
		`{"date":"2024-10-27 02:15:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"","valley_load_GW":"17.250"},` +
		`{"date":"2024-10-27 19:30:00","date_tz":"Europe/Rome","date_offset":"+01:00","peak_load_GW":"44.800","valley_load_GW":""}]}`
	file := filepath.Join(t.TempDir(), "published.json")
	if err := os.WriteFile(file, []byte(published), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := importFiles(t, env, "peak-valley", file)
	if err != nil {
		t.Fatal(err)
	}
	// One day is two records, its peak and its valley.
	if s != (summaryJSON{RowsRead: 2, Inserted: 2}) {
		t.Errorf("import: got %+v, want one day's two records read and inserted", s)
	}
	srv := startServe(t, env, "--demo")
	tok, _ := srv.token(t, "demo", "demo-secret")
	// 27/10 comes back as published (its first 02:15, at +02:00); 31/03 is still derived.
	if st, body := srv.get(t, "/load/v2.0/peak-valley-load?dateFrom=27/10/2024&dateTo=27/10/2024", tok); st != 200 || string(body) != published {
		t.Errorf("got %d\n%s\nwant\n%s", st, body, published)
	}
	if st, body := srv.get(t, "/load/v2.0/peak-valley-load?dateFrom=31/03/2024&dateTo=31/03/2024", tok); st != 200 || !strings.Contains(string(body), `"valley_load_GW":"17.500"`) {
		t.Errorf("31/03: got %d %s, want the derived valley 17.500", st, body)
	}
}

func TestImportReportsIncompleteDaysAndRefusesImplausibleLoad(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "e.db")
	env := map[string]string{"ENERGYAPI_DB": db}
	// 2 March 2024 in full for Italy, 3 March for its first ten quarter hours.
	var b strings.Builder
	b.WriteString("Date,Total Load [MW],Forecast Total load [MW],Bidding zone\n")
	for day, n := range map[int]int{2: 96, 3: 10} {
		for q := range n {
			fmt.Fprintf(&b, "%02d/03/2024 %02d:%02d:00,%d,,Italy\n", day, q/4, 15*(q%4), 30000+q)
		}
	}
	file := filepath.Join(t.TempDir(), "load.csv")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runCmd(t, env, "import", "--dataset", "total-load", file)
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Inserted       int      `json:"inserted"`
		IncompleteDays []string `json:"incomplete_days"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Inserted != 106 || strings.Join(sum.IncompleteDays, "|") != "2024-03-03: has 10 of its 96 quarter hours" {
		t.Errorf("summary: got %+v, want 106 inserted and 3 March incomplete", sum)
	}

	// With --allow-incomplete the same day gets a peak and valley from its
	// ten quarter hours: 30009 MW at 02:15, 30000 at 00:00.
	if _, err := runCmd(t, env, "import", "--allow-incomplete", "--dataset", "total-load", file); err != nil {
		t.Fatal(err)
	}
	if got := servedPeakValley(t, db, "2024-03-03"); got != "2024-03-03 00:00:00 valley 30.000|2024-03-03 02:15:00 peak 30.009" {
		t.Errorf("3 March with --allow-incomplete: got %q", got)
	}

	// A national load written in GW where MW belong: refused, nothing stored.
	bad := filepath.Join(t.TempDir(), "gw.csv")
	if err := os.WriteFile(bad, []byte("Date,Total Load [MW],Forecast Total load [MW],Bidding zone\n04/03/2024 00:00:00,28.385,,Italy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = runCmd(t, env, "import", "--dataset", "total-load", bad)
	if err == nil || !strings.Contains(err.Error(), bad+`:2: Total Load [MW]: "28.385" MW is not a plausible load for Italy`) {
		t.Errorf("got %v, want the implausible value refused at %s:2", err, bad)
	}
}

// servedPeakValley returns the peak-valley records a server of db serves
// for day, as "time kind GW|...".
func servedPeakValley(t *testing.T, db, day string) string {
	t.Helper()
	ctx := context.Background()
	st, err := openStore(ctx, db, false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	live, err := dataset.NewLive(ctx, cat, st)
	if err != nil {
		t.Fatal(err)
	}
	pv, _ := cat.Lookup("peak-valley")
	var out []string
	snap := live.Snapshot()
	for _, m := range snap.Table(pv).Parts {
		p, err := snap.Part(ctx, pv, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		for i := range p.Len() {
			at := time.Unix(p.Time(i), 0).In(energy.Rome()).Format("2006-01-02 15:04:05")
			if !strings.HasPrefix(at, day) {
				continue
			}
			kind, gw := "peak", p.Num(0, i)
			if math.IsNaN(gw) {
				kind, gw = "valley", p.Num(1, i)
			}
			out = append(out, fmt.Sprintf("%s %s %.3f", at, kind, gw))
		}
	}
	return strings.Join(out, "|")
}
