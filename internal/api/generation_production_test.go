package api_test

import "testing"

func TestRenewableSourcesProduction(t *testing.T) {
	t.Parallel()
	const file = `year,production_type,region,province,renewable_source,production_GWh
2023,Netta,Abruzzo,Chieti,Idrico,"20,976"
2023,Lorda,Abruzzo,Chieti,Idrico,21.4
2023,Netta,Toscana,Pisa,Geotermoelettrico,"2.712,125"
2023,Netta,Puglia,Foggia,Eolico,"4001,5"
`
	h := genHarness(t, map[string]string{"renewable-sources-production": file})
	const (
		chietiL = `{"year":"2023","production_type":"Lorda","region":"Abruzzo","province":"Chieti","renewable_source":"Idrico","production_GWh":"21,400"}`
		chietiN = `{"year":"2023","production_type":"Netta","region":"Abruzzo","province":"Chieti","renewable_source":"Idrico","production_GWh":"20,976"}`
		foggia  = `{"year":"2023","production_type":"Netta","region":"Puglia","province":"Foggia","renewable_source":"Eolico","production_GWh":"4.001,500"}`
		pisa    = `{"year":"2023","production_type":"Netta","region":"Toscana","province":"Pisa","renewable_source":"Geotermoelettrico","production_GWh":"2.712,125"}`
		arr     = okMsg + `"renewable_sources":[`
	)
	runGenCases(t, h, "/generation/v2.0/renewable-sources-production", []genCase{
		{name: "a year", query: "year=2023", body: arr + chietiL + "," + chietiN + "," + foggia + "," + pisa + "]}"},
		{name: "productionType as the curl example sends it, repeated province keys", query: "year=2023&productionType=Netta&province=Pisa&province=Chieti", body: arr + chietiN + "," + pisa + "]}"},
		{name: "source", query: "year=2023&source=eolico", body: arr + foggia + "]}"},
		{name: "unknown source", query: "year=2023&source=Solare", empty: true},
		{name: "unknown production type", query: "year=2023&productionType=Totale", empty: true},
		{name: "bad year", query: "year=abc", status: 400, parts: []string{"Input Validation Error:", "year", "abc"}},
	})
}

func TestHydric(t *testing.T) {
	t.Parallel()
	// The column is named as the page's JSON example names the field.
	const file = `year,production_type,region,province,hydric_system,production_GWh
2023,Lorda,Lombardia,Sondrio,Serbatoio,"199,301"
2023,Netta,Lombardia,Sondrio,Serbatoio,"195,5"
2023,Lorda,Lombardia,Sondrio,Fluente,"1.020,25"
2023,Netta,Trentino-Alto Adige,Bolzano,Bacino,"3.100,5"
`
	h := genHarness(t, map[string]string{"hydric": file})
	const (
		fluente = `{"year":"2023","production_type":"Lorda","region":"Lombardia","province":"Sondrio","hydric_plant":"Fluente","production_GWh":"1.020,250"}`
		serbL   = `{"year":"2023","production_type":"Lorda","region":"Lombardia","province":"Sondrio","hydric_plant":"Serbatoio","production_GWh":"199,301"}`
		serbN   = `{"year":"2023","production_type":"Netta","region":"Lombardia","province":"Sondrio","hydric_plant":"Serbatoio","production_GWh":"195,500"}`
		bolzano = `{"year":"2023","production_type":"Netta","region":"Trentino-Alto Adige","province":"Bolzano","hydric_plant":"Bacino","production_GWh":"3.100,500"}`
		arr     = okMsg + `"hydric":[`
	)
	runGenCases(t, h, "/generation/v2.0/hydric", []genCase{
		{name: "a year", query: "year=2023", body: arr + fluente + "," + serbL + "," + serbN + "," + bolzano + "]}"},
		{name: "plant and production type", query: "year=2023&hydricPlant=Serbatoio&productionType=Lorda", body: arr + serbL + "]}"},
		{name: "repeated province keys", query: "year=2023&province=Bolzano&province=Sondrio&hydricPlant=Bacino", body: arr + bolzano + "]}"},
		{name: "unknown plant", query: "year=2023&hydricPlant=Diga", empty: true},
		{name: "year without data", query: "year=2015", empty: true},
		{name: "year missing", query: "year=", status: 400, parts: []string{"year", "required"}},
		{name: "year repeated", query: "year=2023&year=2023", status: 400, parts: []string{"year", "repeated"}},
	})
}

func TestThermoelectricHeat(t *testing.T) {
	t.Parallel()
	const file = `year,region,province,cogeneration_plant,heat_production_GWh
2023,Abruzzo,Chieti,Contropressione,"0,408"
2023,Puglia,Taranto,Condensazione e spillamento,"1.210,5"
2023,Puglia,Brindisi,Ciclo combinato con cogenerazione,1350
`
	h := genHarness(t, map[string]string{"thermoelectric-heat": file})
	const (
		chieti   = `{"year":"2023","region":"Abruzzo","province":"Chieti","cogeneration_plant":"Contropressione","heat_production_GWh":"0,408"}`
		brindisi = `{"year":"2023","region":"Puglia","province":"Brindisi","cogeneration_plant":"Ciclo combinato con cogenerazione","heat_production_GWh":"1.350,000"}`
		taranto  = `{"year":"2023","region":"Puglia","province":"Taranto","cogeneration_plant":"Condensazione e spillamento","heat_production_GWh":"1.210,500"}`
		arr      = okMsg + `"thermoelectric_heat":[`
	)
	runGenCases(t, h, "/generation/v2.0/thermoelectric-heat", []genCase{
		{name: "a year", query: "year=2023", body: arr + chieti + "," + brindisi + "," + taranto + "]}"},
		{name: "repeated province keys", query: "year=2023&province=Taranto&province=Chieti", body: arr + chieti + "," + taranto + "]}"},
		{name: "plant", query: "year=2023&cogenerationPlant=contropressione", body: arr + chieti + "]}"},
		{name: "unknown plant", query: "year=2023&cogenerationPlant=Turbina", empty: true},
		{name: "bad year", query: "year=2023x", status: 400, parts: []string{"Input Validation Error:", "year", "2023x"}},
	})
}

func TestElectricalEnergyBySource(t *testing.T) {
	t.Parallel()
	const file = `year,production_type,region,province,source,production_GWh
2023,Netta,Puglia,Foggia,Eolico,"5.321,25"
2023,Lorda,Puglia,Brindisi,Termoelettrico,"20.104,5"
2023,Netta,Valle d'Aosta,Aosta,Idrico,"2.650,000"
`
	h := genHarness(t, map[string]string{"electrical-energy-by-source": file})
	const (
		eolico = `{"year":"2023","production_type":"Netta","region":"Puglia","province":"Foggia","source":"Eolico","production_GWh":"5.321,250"}`
		termo  = `{"year":"2023","production_type":"Lorda","region":"Puglia","province":"Brindisi","source":"Termoelettrico","production_GWh":"20.104,500"}`
		idrico = `{"year":"2023","production_type":"Netta","region":"Valle D'Aosta","province":"Aosta","source":"Idrico","production_GWh":"2.650,000"}`
		arr    = okMsg + `"electrical_energy_by_source":[`
	)
	runGenCases(t, h, "/generation/v2.0/electrical-energy-by-source", []genCase{
		{name: "a year", query: "year=2023", body: arr + termo + "," + eolico + "," + idrico + "]}"},
		{name: "region and source", query: "year=2023&region=Puglia&source=Eolico", body: arr + eolico + "]}"},
		{name: "provinces and production type", query: "year=2023&province=Foggia&province=Brindisi&productionType=Lorda", body: arr + termo + "]}"},
		{name: "either spelling of Valle d'Aosta", query: "year=2023&region=Valle+d%27Aosta", body: arr + idrico + "]}"},
		{name: "no Bioenergie on the page", query: "year=2023&source=Bioenergie", empty: true},
		{name: "region repeated", query: "year=2023&region=Puglia&region=Lombardia", status: 400, parts: []string{"region", "repeated"}},
		{name: "bad year", query: "year=two", status: 400, parts: []string{"Input Validation Error:", "year", "two"}},
	})
}
