package api_test

import (
	"testing"
	"time"
)

// okMsg is the result of a yearly statistics' answer.
const okMsg = `{"result":{"message":"OK","status":"Completed"},`

func TestInstalledCapacity(t *testing.T) {
	t.Parallel()
	const file = `year,type,installed_capacity_GWh
2023,Thermal,61.62
2023,Photovoltaic,30.32
2023,wind,12.34
2018,Thermal,62.1
`
	// The window is the current year and the six before it: 2019 to 2025.
	h := genHarnessAt(t, time.Date(2025, time.June, 15, 12, 0, 0, 0, time.UTC), map[string]string{"installed-capacity": file})
	const msg = `{"result":{"message":"Operation completed for the following input. Year: 2023","status":"Completed"},"installed_capacity":[`
	runGenCases(t, h, "/generation/v2.0/installed-capacity", []genCase{
		{name: "a year", query: "year=2023", body: msg +
			`{"year":"2023","type":"Photovoltaic","installed_capacity_GWh":"30.32"},` +
			`{"year":"2023","type":"Thermal","installed_capacity_GWh":"61.62"},` +
			`{"year":"2023","type":"Wind","installed_capacity_GWh":"12.34"}]}`},
		{name: "repeated type keys", query: "year=2023&type=Wind&type=thermal", body: msg +
			`{"year":"2023","type":"Thermal","installed_capacity_GWh":"61.62"},` +
			`{"year":"2023","type":"Wind","installed_capacity_GWh":"12.34"}]}`},
		{name: "known type, no record", query: "year=2023&type=Hydro", body: msg + `]}`},
		{name: "unknown type", query: "year=2023&type=Nuclear", empty: true},
		{name: "comma-joined types are one value", query: "year=2023&type=Wind,Thermal", empty: true},
		{name: "year before the window, with data", query: "year=2018", empty: true},
		{name: "year after the window", query: "year=2026", empty: true},
		{name: "year in the window without data", query: "year=2019", empty: true},
		{name: "bad year", query: "year=20x3", status: 400, parts: []string{"Input Validation Error:", "year", "20x3"}},
		{name: "year missing", query: "type=Wind", status: 400, parts: []string{"year", "required"}},
	})
}

func TestGenerationPlants(t *testing.T) {
	t.Parallel()
	const file = `year;capacity_type;region;province;source;efficient_power_MW
2023;Netta;Puglia;Foggia;Eolico;14,243
2023;Lorda;Puglia;Foggia;Eolico;14.6
2023;Netta;Puglia;Brindisi;Termoelettrico;2.550,5
2023;Netta;Abruzzo;Chieti;Bioenergie;12
2022;Netta;Puglia;Foggia;Eolico;1.234,5
`
	h := genHarness(t, map[string]string{"generation-plants": file})
	const (
		chieti   = `{"year":"2023","capacity_type":"Netta","region":"Abruzzo","province":"Chieti","source":"Bioenergie","efficient_power_MW":"12.000"}`
		brindisi = `{"year":"2023","capacity_type":"Netta","region":"Puglia","province":"Brindisi","source":"Termoelettrico","efficient_power_MW":"2550.500"}`
		foggiaL  = `{"year":"2023","capacity_type":"Lorda","region":"Puglia","province":"Foggia","source":"Eolico","efficient_power_MW":"14.600"}`
		foggiaN  = `{"year":"2023","capacity_type":"Netta","region":"Puglia","province":"Foggia","source":"Eolico","efficient_power_MW":"14.243"}`
		arr      = okMsg + `"generation_plants":[`
	)
	runGenCases(t, h, "/generation/v2.0/generation-plants", []genCase{
		{name: "a year", query: "year=2023", body: arr + chieti + "," + brindisi + "," + foggiaL + "," + foggiaN + "]}"},
		{name: "another year", query: "year=2022", body: arr + `{"year":"2022","capacity_type":"Netta","region":"Puglia","province":"Foggia","source":"Eolico","efficient_power_MW":"1234.500"}]}`},
		{name: "repeated province keys and a capacity type", query: "year=2023&province=Foggia&province=Chieti&capacityType=Netta", body: arr + chieti + "," + foggiaN + "]}"},
		{name: "region and source", query: "year=2023&region=Puglia&source=Eolico", body: arr + foggiaL + "," + foggiaN + "]}"},
		{name: "known values, no match", query: "year=2023&region=Abruzzo&province=Foggia", body: arr + "]}"},
		{name: "unknown source", query: "year=2023&source=Nucleare", empty: true},
		{name: "one unknown province among known", query: "year=2023&province=Foggia&province=Gotham", empty: true},
		{name: "year without data", query: "year=2031", empty: true},
		{name: "bad year", query: "year=2023.0", status: 400, parts: []string{"Input Validation Error:", "year", "2023.0"}},
		{name: "capacity type repeated", query: "year=2023&capacityType=Lorda&capacityType=Netta", status: 400, parts: []string{"capacityType", "repeated"}},
	})
}

func TestThermoelectricCapacity(t *testing.T) {
	t.Parallel()
	const file = `year,capacity_type,region,province,category,subcategory,efficient_power_MW
2023,Lorda,Puglia,Brindisi,Non cogenerativa,Condensazione,"2.640,000"
2023,Netta,Puglia,Brindisi,Non cogenerativa,Condensazione,2550.5
2023,Lorda,Toscana,Pisa,Non cogenerativa,Geotermoelettrica A Condensazione,391.5
2023,Lorda,Puglia,Taranto,Non cogenerativa,Celle a combustibile,1.25
2023,Lorda,Puglia,Taranto,Cogenerativa,Condensazione e spillamento,"1.180,75"
`
	h := genHarness(t, map[string]string{"thermoelectric-capacity": file})
	const (
		brindisiL = `{"year":"2023","capacity_type":"Lorda","region":"Puglia","province":"Brindisi","category":"Non cogenerativa","subcategory":"Condensazione","efficient_power_MW":"2640.000"}`
		brindisiN = `{"year":"2023","capacity_type":"Netta","region":"Puglia","province":"Brindisi","category":"Non cogenerativa","subcategory":"Condensazione","efficient_power_MW":"2550.500"}`
		tarantoC  = `{"year":"2023","capacity_type":"Lorda","region":"Puglia","province":"Taranto","category":"Cogenerativa","subcategory":"Condensazione e spillamento","efficient_power_MW":"1180.750"}`
		tarantoF  = `{"year":"2023","capacity_type":"Lorda","region":"Puglia","province":"Taranto","category":"Non cogenerativa","subcategory":"Celle combustibili","efficient_power_MW":"1.250"}`
		pisa      = `{"year":"2023","capacity_type":"Lorda","region":"Toscana","province":"Pisa","category":"Non cogenerativa","subcategory":"Geotermoelettrica A Condensazione","efficient_power_MW":"391.500"}`
		arr       = okMsg + `"thermoelectric":[`
	)
	runGenCases(t, h, "/generation/v2.0/thermoelectric-capacity", []genCase{
		{name: "a year", query: "year=2023", body: arr + brindisiL + "," + brindisiN + "," + tarantoC + "," + tarantoF + "," + pisa + "]}"},
		{name: "category alias of the examples", query: "year=2023&region=Puglia&category=Non+cogenerative", body: arr + brindisiL + "," + brindisiN + "," + tarantoF + "]}"},
		{name: "subcategory only capacity lists", query: "year=2023&category=Non+cogenerativa&subcategory=Geotermoelettrica+a+condensazione", body: arr + pisa + "]}"},
		{name: "production's spelling of fuel cells", query: "year=2023&subcategory=Celle+a+combustibile", body: arr + tarantoF + "]}"},
		{name: "repeated province keys and a capacity type", query: "year=2023&province=Pisa&province=Brindisi&capacityType=Lorda", body: arr + brindisiL + "," + pisa + "]}"},
		{name: "subcategory of another category", query: "year=2023&category=Cogenerativa&subcategory=Condensazione", empty: true},
		{name: "unknown subcategory", query: "year=2023&subcategory=Nucleare", empty: true},
		{name: "unknown capacity type", query: "year=2023&capacityType=Totale", empty: true},
		{name: "bad year", query: "year=twentythree", status: 400, parts: []string{"Input Validation Error:", "year", "twentythree"}},
	})
}
