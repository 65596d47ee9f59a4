package ingest_test

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// thermo is a row of the thermoelectric dataset, in its descriptor's order.
func thermo(year int, ct, region, province, category, sub string, gwh float64) dataset.Row {
	return dataset.Row{
		Time: time.Date(year, time.January, 1, 0, 0, 0, 0, energy.Rome()).Unix(),
		Text: []string{ct, region, province, category, sub},
		Num:  []float64{gwh},
	}
}

func parseThermoFixture(tb testing.TB, name string) []dataset.Row {
	tb.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	recs, err := parseThermo(tb, name, f)
	if err != nil {
		tb.Fatalf("ParseThermoelectric(%s): %v", name, err)
	}
	return recs
}

func checkThermo(tb testing.TB, got, want []dataset.Row) {
	tb.Helper()
	if !reflect.DeepEqual(got, want) {
		tb.Errorf("got %d records:\n%+v\nwant %d:\n%+v", len(got), got, len(want), want)
	}
}

func TestParseThermoelectricFiles(t *testing.T) {
	const nc, c = "Non cogenerativa", "Cogenerativa"
	tests := []struct {
		file string
		want []dataset.Row
	}{
		{"thermo_comma.csv", []dataset.Row{
			thermo(2023, "Lorda", "Puglia", "Brindisi", nc, "Condensazione", 5123.456),
			thermo(2023, "Netta", "Puglia", "Brindisi", nc, "Condensazione", 4950.1),
			thermo(2023, "Lorda", "Calabria", "Reggio di Calabria", nc, "Celle a combustibile", 0.408),
			thermo(2023, "Lorda", "Sicilia", "Siracusa", c, "Contropressione", -16368.385),
			thermo(2023, "Lorda", "Lazio", "Roma", nc, "Ciclo combinato", 1234.5),
		}},
		// Semicolons, a byte order mark, CRLF, other column order and letter
		// case, an extra column and aliases.
		{"thermo_semicolon.csv", []dataset.Row{
			thermo(2022, "Lorda", "Friuli-Venezia Giulia", "Udine", c, "Turbine a gas con cogenerazione", 20.976),
			thermo(2022, "Netta", "Abruzzo", "Chieti", nc, "Ciclo combinato", 27389.4),
			thermo(2022, "Lorda", "Trentino-Alto Adige", "Bolzano", c, "Combustione interna con cogenerazione", 1234567),
		}},
		// A title row, blank rows between records and blank trailing rows.
		{"thermo_title.csv", []dataset.Row{
			thermo(2021, "Lorda", "Piemonte", "Torino", c, "Ciclo combinato con cogenerazione", 3456.789),
			thermo(2021, "Netta", "Piemonte", "Torino", c, "Ciclo combinato con cogenerazione", 3380),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			checkThermo(t, parseThermoFixture(t, tt.file), tt.want)
		})
	}
}

// replaceInZip returns the zip archive data with old replaced by new in the
// member named member.
func replaceInZip(tb testing.TB, data []byte, member, old, new string) []byte {
	tb.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		tb.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	replaced := false
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			tb.Fatal(err)
		}
		body, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			tb.Fatal(err)
		}
		if f.Name == member && strings.Contains(string(body), old) {
			body = []byte(strings.Replace(string(body), old, new, 1))
			replaced = true
		}
		w, err := zw.Create(f.Name)
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := w.Write(body); err != nil {
			tb.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	if !replaced {
		tb.Fatalf("%s in the workbook holds no %q", member, old)
	}
	return out.Bytes()
}

func TestParseThermoelectricXLSX(t *testing.T) {
	data := workbook(t, [][]any{
		{"Produzione termoelettrica 2024"},
		{"Year", "Capacity_type", "Region", "Province", "Category", "Subcategory", "Production_GWh"},
		{2024, "Lorda", "Liguria", "La Spezia", "Non cogenerativa", "Ciclo combinato", 1234.567},
		{2024, "Netta", "Liguria", "La Spezia", "Non cogenerativa", "Ciclo combinato", 1200.5},
		{},
		{2024, "Lorda", "Emilia-Romagna", "Reggio Emilia", "Cogenerativa", "Contropressione", 0.0000125},
		// A text cell typed the Italian way in a workbook.
		{2024, "Lorda", "Sardegna", "Sud Sardegna", "Cogenerativa", "Condensazione e spillamento", "2.345,6"},
	})
	// excelize writes numbers in plain decimals; Excel writes small and large
	// ones in E notation, as the stored XML here now does.
	data = replaceInZip(t, data, "xl/worksheets/sheet1.xml", "<v>0.0000125</v>", "<v>1.25E-5</v>")
	got, err := parseThermo(t, "thermo.xlsx", bytes.NewReader(data))
	if err != nil {
		t.Fatalf("ParseThermoelectric: %v", err)
	}
	checkThermo(t, got, []dataset.Row{
		thermo(2024, "Lorda", "Liguria", "La Spezia", "Non cogenerativa", "Ciclo combinato", 1234.567),
		thermo(2024, "Netta", "Liguria", "La Spezia", "Non cogenerativa", "Ciclo combinato", 1200.5),
		thermo(2024, "Lorda", "Emilia-Romagna", "Reggio nell'Emilia", "Cogenerativa", "Contropressione", 0.0000125),
		thermo(2024, "Lorda", "Sardegna", "Sud Sardegna", "Cogenerativa", "Condensazione e spillamento", 2345.6),
	})
}

func TestParseThermoelectricXLSXError(t *testing.T) {
	data := workbook(t, [][]any{
		{"Produzione termoelettrica 2024"},
		{"year", "capacity_type", "region", "province", "category", "subcategory", "production_GWh"},
		{2024, "Lorda", "Liguria", "La Spezia", "Non cogenerativa", "Ciclo combinato", 1234.567},
		{2024, "Lorda", "Liguria", "Genova", "Non cogenerativa", "Contropressione", 1},
	})
	_, err := parseThermo(t, "thermo.xlsx", bytes.NewReader(data))
	want := `thermo.xlsx:4: subcategory "Contropressione" is not in category "Non cogenerativa" (it is in "Cogenerativa")`
	if err == nil || err.Error() != want {
		t.Errorf("got error %v, want %q", err, want)
	}
}

func TestParseThermoelectricErrors(t *testing.T) {
	const header = "year,capacity_type,region,province,category,subcategory,production_GWh\n"
	const good = "2023,Lorda,Puglia,Brindisi,Non cogenerativa,Condensazione,\"5.123,456\"\n"
	tests := []struct {
		name    string
		file    string
		content string
		want    string
	}{
		{"subcategory of another category", "thermo.csv",
			header + good + strings.Replace(good, "Brindisi", "Bari", 1) + strings.Replace(good, "Brindisi", "Lecce", 1) +
				strings.Replace(good, "Brindisi", "Foggia", 1) + strings.Replace(good, "Brindisi", "Taranto", 1) +
				"2023,Lorda,Puglia,Brindisi,Non cogenerativa,Contropressione,1\n",
			`thermo.csv:7: subcategory "Contropressione" is not in category "Non cogenerativa" (it is in "Cogenerativa")`},
		{"unknown category", "thermo.csv", header + "2023,Lorda,Puglia,Brindisi,Nucleare,Condensazione,1\n",
			`thermo.csv:2: unknown category "Nucleare" (want "Non cogenerativa" or "Cogenerativa")`},
		{"unknown subcategory", "thermo.csv", header + "2023,Lorda,Puglia,Brindisi,Cogenerativa,Geotermica,1\n",
			`thermo.csv:2: unknown subcategory "Geotermica"`},
		{"unknown region", "thermo.csv", header + "2023,Lorda,Apulia,Brindisi,Cogenerativa,Contropressione,1\n",
			`thermo.csv:2: unknown region "Apulia"`},
		{"unknown province", "thermo.csv", header + "2023,Lorda,Sardegna,Carbonia-Iglesias,Cogenerativa,Contropressione,1\n",
			`thermo.csv:2: unknown province "Carbonia-Iglesias"`},
		{"province of another region", "thermo.csv", header + "2023,Lorda,Puglia,Udine,Cogenerativa,Contropressione,1\n",
			`thermo.csv:2: province "Udine" is not in region "Puglia" (it is in "Friuli-Venezia Giulia")`},
		{"unknown capacity type", "thermo.csv", header + "2023,Gross,Puglia,Brindisi,Cogenerativa,Contropressione,1\n",
			`thermo.csv:2: unknown capacity_type "Gross" (want "Lorda" or "Netta")`},
		{"year not an integer", "thermo.csv", header + "2023.5,Lorda,Puglia,Brindisi,Cogenerativa,Contropressione,1\n",
			`thermo.csv:2: year "2023.5" is not an integer`},
		{"year out of range", "thermo.csv", header + "1850,Lorda,Puglia,Brindisi,Cogenerativa,Contropressione,1\n",
			`thermo.csv:2: year 1850 is outside 1900..2100`},
		{"bad number", "thermo.csv", header + "2023,Lorda,Puglia,Brindisi,Cogenerativa,Contropressione,\"1.23,4\"\n",
			`thermo.csv:2: production_GWh: invalid number "1.23,4": groups after the first must have exactly 3 digits`},
		{"E notation in CSV", "thermo.csv", header + "2023,Lorda,Puglia,Brindisi,Cogenerativa,Contropressione,1E-3\n",
			`thermo.csv:2: production_GWh: invalid number "1E-3": unexpected character 'E' (want digits, a decimal comma or point and thousands points)`},
		{"missing field", "thermo.csv", header + good + "2023,Lorda,, Brindisi,Cogenerativa,Contropressione,1\n",
			`thermo.csv:3: region is missing`},
		{"short row", "thermo.csv", header + "2023,Lorda,Puglia,Brindisi,Cogenerativa,Contropressione\n",
			`thermo.csv:2: production_GWh is missing`},
		{"duplicate key after canonicalising", "thermo.csv",
			header + "2023,Lorda,Calabria,Reggio di Calabria,Cogenerativa,Contropressione,1\n" + good +
				"2023,lorda,calabria,Reggio Calabria,cogenerativa,contropressione,2\n",
			`thermo.csv:4: same year, capacity_type, region, province, category and subcategory as line 2`},
		{"line numbers count title and blank lines", "thermo.csv",
			"Produzione termoelettrica\n\n" + header + good + "\n2023,Lorda,Puglia,Brindisi,Cogenerativa,Nucleare,1\n",
			`thermo.csv:6: unknown subcategory "Nucleare"`},
		{"semicolons", "thermo.csv",
			strings.ReplaceAll(header, ",", ";") + "2023;Lorda;Puglia;Brindisi;Cogenerativa;Contropressione;1,2,3\n",
			`thermo.csv:2: production_GWh: invalid number "1,2,3": more than one decimal comma`},
		{"no header", "thermo.csv", "year,region,province\n2023,Puglia,Brindisi\n",
			`thermo.csv: no header row with the columns "year", "capacity_type", "region", "province", "category", "subcategory", "production_GWh"`},
		{"header only", "thermo.csv", header + ",,,,,,\n",
			`thermo.csv: no data rows below the header`},
		{"unknown file type", "thermo.pdf", header + good,
			`thermo.pdf: unknown file type ".pdf" (want .csv, .xlsx or .json)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := parseThermo(t, tt.file, strings.NewReader(tt.content))
			if err == nil {
				t.Fatalf("got %d records and no error, want error %q", len(recs), tt.want)
			}
			if recs != nil {
				t.Errorf("got %d records with the error, want none", len(recs))
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("got error %q, want %q", got, tt.want)
			}
			if code := energy.ErrorCode(err); code != energy.Invalid {
				t.Errorf("got code %q, want %q", code, energy.Invalid)
			}
		})
	}
}
