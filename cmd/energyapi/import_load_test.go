package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportLoadAndTransmissionDatasets imports a small file into each Load
// sibling and Transmission dataset through `import --dataset NAME`: twice
// (the second changes nothing), then a file whose first row would change a
// stored value and whose last row is bad, which must fail naming the line
// and store nothing (the good file is still unchanged afterwards).
func TestImportLoadAndTransmissionDatasets(t *testing.T) {
	t.Parallel()
	env := map[string]string{"ENERGYAPI_DB": filepath.Join(t.TempDir(), "siblings.db")}
	for _, tc := range []struct {
		dataset, good, bad string
	}{
		{"market-load",
			"date,market_load_MW,forecast_market_load_MW,bidding_zone\n2024-05-02 10:00:00,11000,10900.5,North\n2024-05-02 10:15:00,11100,,North\n",
			"date,market_load_MW,forecast_market_load_MW,bidding_zone\n2024-05-02 10:00:00,99,99,North\n2024-05-02 10:30:00,11100,,Atlantis\n"},
		{"peak-valley-details",
			"date,peak_load_GW,valley_load_GW,primary_source_GW,type\n2024-05-02 11:00:00,40.5,,20.25,Thermal\n2024-05-02 11:00:00,40.5,,9,Photovoltaic\n",
			"date,peak_load_GW,valley_load_GW,primary_source_GW,type\n2024-05-02 11:00:00,40.5,,1,Thermal\n2024-05-02 11:00:00,40.5,,9,Nuclear\n"},
		{"imcei",
			"date,region,sector,tension_type,monthly_imcei,consumption_Gwh\n2024-02-01 00:00:00,Lombardia,CHIMICA,AT,97.4,41.2\n",
			"date,region,sector,tension_type,monthly_imcei,consumption_Gwh\n2024-02-01 00:00:00,Lombardia,CHIMICA,AT,1,1\n2024-02-01 00:00:00,Lombardia,CHIMICA,BT,1,1\n"},
		{"demand-coverage",
			"year,region,source,coverage_GWh\n2023,Puglia,Eolico,\"5.123,4\"\n",
			"year,region,source,coverage_GWh\n2023,Puglia,Eolico,1\n2023,Puglia,Nucleare,1\n"},
		{"physical-foreign-flow",
			"date,country,import,export,physical_foreign_flow_MW\n2024-05-02 10:00:00,France,\"2,345.5\",0,\"2,345.5\"\n",
			"date,country,import,export,physical_foreign_flow_MW\n2024-05-02 10:00:00,France,1,0,1\n2024-05-02 11:00:00,France,\"1,5\",0,1\n"},
		{"physical-internal-flow",
			"date,flow,physical_internal_flow_MW\n2024-05-02 10:00:00,Centre-North -> North,-488.3051289102222\n",
			"date,flow,physical_internal_flow_MW\n2024-05-02 10:00:00,Centre-North -> North,1\n2024-05-02 10:00:00,North -> Sicily,1\n"},
		{"scheduled-foreign-exchange",
			"date,country,scheduled_foreign_exchange_MW\n2024-05-02 10:00:00,Slovenia,\"1,612\"\n",
			"date,country,scheduled_foreign_exchange_MW\n2024-05-02 10:00:00,Slovenia,1\n2024-05-02 10:00:00,Germany,1\n"},
		{"scheduled-internal-exchange",
			"date,flow,scheduled_internal_exchange_MW\n2024-05-02 10:00:00,Sicily -> Calabria,300\n",
			"date,flow,scheduled_internal_exchange_MW\n2024-05-02 10:00:00,Sicily -> Calabria,1\n2024-03-31 02:30:00,Sicily -> Calabria,1\n"},
	} {
		t.Run(tc.dataset, func(t *testing.T) {
			dir := t.TempDir()
			good, bad := filepath.Join(dir, "good.csv"), filepath.Join(dir, "bad.csv")
			if err := os.WriteFile(good, []byte(tc.good), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(bad, []byte(tc.bad), 0o644); err != nil {
				t.Fatal(err)
			}
			n := strings.Count(tc.good, "\n") - 1
			if s, err := importFiles(t, env, tc.dataset, good); err != nil || s != (summaryJSON{RowsRead: n, Inserted: n}) {
				t.Fatalf("first import: got %+v, %v; want %d inserted", s, err, n)
			}
			if s, err := importFiles(t, env, tc.dataset, good); err != nil || s != (summaryJSON{RowsRead: n, Unchanged: n}) {
				t.Fatalf("second import: got %+v, %v; want %d unchanged", s, err, n)
			}
			if _, err := importFiles(t, env, tc.dataset, bad); err == nil || !strings.Contains(err.Error(), "bad.csv:3") {
				t.Fatalf("bad file: got %v, want an error at bad.csv:3", err)
			}
			if s, err := importFiles(t, env, tc.dataset, good); err != nil || s != (summaryJSON{RowsRead: n, Unchanged: n}) {
				t.Fatalf("after the failed import: got %+v, %v; want %d unchanged", s, err, n)
			}
		})
	}
}
