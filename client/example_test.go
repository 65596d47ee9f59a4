package client_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/client"
	"github.com/energyapi/energyapi/internal/api/apitest"
)

// exampleServer runs the real server on a small dataset; in the examples it
// stands in for a deployment such as https://api.example.com, and
// "apitest"/"apitest-secret" for the credentials its operator issued.
func exampleServer() *apitest.Server {
	srv, err := apitest.Start(apitest.Options{Data: testData()})
	if err != nil {
		panic(err)
	}
	return srv
}

func Example() {
	srv := exampleServer()
	defer srv.Close()

	c := client.New(srv.URL, client.WithCredentials("apitest", "apitest-secret"))
	from, _ := client.ParseDate("26/10/2024")
	to, _ := client.ParseDate("27/10/2024")
	recs, err := c.PeakValley(context.Background(), from, to)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range recs {
		fmt.Printf("%s %-6s %6.3f GW\n", r.At.Format(time.RFC3339), r.Kind, r.LoadGW)
	}
	// Output:
	// 2024-10-26T04:15:00+02:00 valley 20.123 GW
	// 2024-10-26T18:00:00+02:00 peak   33.456 GW
	// 2024-10-27T02:30:00+01:00 valley 19.500 GW
	// 2024-10-27T18:45:00+01:00 peak   30.250 GW
}

// A long range is fetched in windows the server accepts, in order.
func ExampleClient_PeakValley() {
	srv := exampleServer()
	defer srv.Close()

	c := client.New(srv.URL,
		client.WithCredentials("apitest", "apitest-secret"),
		client.WithMaxRangeDays(60),
		client.WithProgress(func(p client.Progress) {
			fmt.Printf("request %d of %d: %s to %s\n", p.Request, p.Requests, p.From, p.To)
		}))
	recs, err := c.PeakValley(context.Background(), client.Date{Year: 2024, Month: 1, Day: 1}, client.Date{Year: 2024, Month: 3, Day: 31})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(recs), "records; the first is the valley of", recs[0].At.Format("2 January 2006 at 15:04"))
	// Output:
	// request 1 of 2: 01/01/2024 to 29/02/2024
	// request 2 of 2: 01/03/2024 to 31/03/2024
	// 10 records; the first is the valley of 1 January 2024 at 04:00
}

func ExampleClient_Thermoelectric() {
	srv := exampleServer()
	defer srv.Close()

	c := client.New(srv.URL, client.WithCredentials("apitest", "apitest-secret"))
	recs, err := c.Thermoelectric(context.Background(), client.ThermoQuery{Year: 2023, Provinces: []string{"Brindisi", "Milano"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range recs {
		// The server writes "27.389,400"; the client parses it.
		fmt.Printf("%s %s %s: %.1f GWh\n", r.Province, r.Subcategory, r.CapacityType, r.ProductionGWh)
	}
	// Output:
	// Milano Ciclo combinato Lorda: 27389.4 GWh
	// Brindisi Condensazione Lorda: 5234.6 GWh
	// Brindisi Condensazione Netta: 5012.1 GWh
}

// A filter value the server does not know is answered with an empty body,
// which is zero records, not an error.
func ExampleClient_Thermoelectric_unknownFilter() {
	srv := exampleServer()
	defer srv.Close()

	c := client.New(srv.URL, client.WithCredentials("apitest", "apitest-secret"))
	recs, err := c.Thermoelectric(context.Background(), client.ThermoQuery{Year: 2023, Category: "Idroelettrica"})
	fmt.Println(len(recs), "records, error:", err)
	// Output:
	// 0 records, error: <nil>
}

func ExampleAPIError() {
	srv := exampleServer()
	defer srv.Close()

	c := client.New(srv.URL, client.WithCredentials("apitest", "not-the-secret"))
	_, err := c.Thermoelectric(context.Background(), client.ThermoQuery{Year: 2023})
	var ae *client.APIError
	if errors.As(err, &ae) {
		fmt.Println(ae.StatusCode, ae.Code)
	}
	fmt.Println(errors.Is(err, client.ErrUnauthorized))
	// Output:
	// 401 invalid_client
	// true
}
