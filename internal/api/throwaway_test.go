package api_test

import (
	"context"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/client"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/ingest"
	"github.com/energyapi/energyapi/internal/store/sqlite"
)

// TestThrowawayDatasetEndToEnd declares a dataset in the test alone and
// imports, stores, serves, documents and fetches it with no other code:
// the machinery reads nothing but the descriptor.
func TestThrowawayDatasetEndToEnd(t *testing.T) {
	t.Parallel()
	d := &dataset.Dataset{
		Name: "border-flow", Title: "Border flow", Doc: "Hourly flow per border, MW.",
		Area: "transmission", Version: "v2.0", Resource: "border-flow", Array: "border_flow",
		Message: dataset.MessageDates, Grain: dataset.Hour,
		Params: []dataset.Param{
			{Name: "dateFrom", To: "dateTo", Kind: dataset.DateRange, Required: true},
			{Name: "country", Kind: dataset.Enum, Many: true, Field: "country", Doc: "Border countries."},
		},
		Fields: []dataset.Field{
			{Name: "date", Kind: dataset.Instant, TZ: "date_tz", Offset: "date_offset", Doc: "Hour."},
			{Name: "country", Kind: dataset.Text, Ref: energy.Plain("France", "Switzerland"), Doc: "Border."},
			{Name: "flow_MW", Kind: dataset.Number, Format: dataset.PointFull, Doc: "Flow into Italy, MW."},
		},
		Import: &dataset.ImportSpec{},
	}
	cat, err := dataset.NewCatalog(append(catalog.All(), d)...)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "e.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const file = "date,country,flow_MW\n" +
		"2024-05-01 10:00:00,France,2500.25\n" +
		"2024-05-01 10:00:00,Switzerland,-310\n" +
		"2024-07-15 11:00:00,France,2100\n"
	rows, err := ingest.ReadRows(cat, d, "flows.csv", strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if st, err := dataset.Import(ctx, st, cat, d, rows, time.Now()); err != nil || st.Inserted != 3 {
		t.Fatalf("import: got %+v, %v", st, err)
	}

	srv := apitest.NewServer(t, apitest.Options{Catalog: cat, Source: st})
	hc := &http.Client{Transport: apitest.NewValidatorFor(t, cat).Transport(t, nil)}
	c := client.New(srv.URL, client.WithHTTPClient(hc), client.WithCredentials(apitest.ClientID, apitest.ClientSecret))
	// By name through /catalog, over two 60-day windows, every exchange
	// checked against the OpenAPI document generated for this catalogue.
	recs, err := c.Get(ctx, "border-flow", url.Values{"dateFrom": {"1/5/2024"}, "dateTo": {"31/7/2024"}, "country": {"France"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []client.Record{
		{"date": "2024-05-01 10:00:00", "date_tz": "Europe/Rome", "date_offset": "+02:00", "country": "France", "flow_MW": "2500.25"},
		{"date": "2024-07-15 11:00:00", "date_tz": "Europe/Rome", "date_offset": "+02:00", "country": "France", "flow_MW": "2100"},
	}
	if len(recs) != len(want) {
		t.Fatalf("got %v, want %v", recs, want)
	}
	for i := range want {
		for k, v := range want[i] {
			if recs[i][k] != v {
				t.Errorf("record %d %s: got %q, want %q", i, k, recs[i][k], v)
			}
		}
	}
	if n := len(srv.SeenPath("/transmission/v2.0/border-flow")); n != 2 {
		t.Errorf("got %d data requests, want 2 windows", n)
	}
	doc, err := apitest.LoadDocumentFor(cat)
	if err != nil {
		t.Fatal(err)
	}
	if op := doc.Paths.Value("/transmission/v2.0/border-flow"); op == nil || op.Get == nil {
		t.Error("the OpenAPI document lacks the dataset")
	}
}
