package client

import (
	"context"
	"net/url"
	"strconv"
)

// ThermoQuery selects thermoelectric production. Year is required; empty
// fields do not filter. Provinces are ORed, the rest ANDed.
type ThermoQuery struct {
	Year        int
	Region      string
	Provinces   []string
	Category    string // "Non cogenerativa" or "Cogenerativa"
	Subcategory string
}

// ThermoRecord is the production of one kind of plant in one province in a
// year.
type ThermoRecord struct {
	Year          int
	CapacityType  string // "Lorda" (gross) or "Netta" (net)
	Region        string
	Province      string
	Category      string
	Subcategory   string
	ProductionGWh float64
}

// Thermoelectric returns the yearly thermoelectric production that q
// selects, in the server's order. A filter value the server does not know
// gives no records and no error: the server answers it with an empty body.
// Errors the server answered are *APIError (ErrInvalidInput for a bad year).
func (c *Client) Thermoelectric(ctx context.Context, q ThermoQuery) ([]ThermoRecord, error) {
	v := url.Values{"year": {strconv.Itoa(q.Year)}}
	for name, val := range map[string]string{"region": q.Region, "category": q.Category, "subcategory": q.Subcategory} {
		if val != "" {
			v.Set(name, val)
		}
	}
	for _, p := range q.Provinces {
		v.Add("province", p)
	}
	recs, err := c.Get(ctx, thermoPath, v)
	if err != nil {
		return nil, err
	}
	out := make([]ThermoRecord, len(recs))
	for i, r := range recs {
		year, err := strconv.Atoi(r["year"])
		if err != nil {
			return nil, recordError("thermoelectric", i, "year", r["year"], err)
		}
		gwh, err := parseItalian(r["production_GWh"])
		if err != nil {
			return nil, recordError("thermoelectric", i, "production_GWh", r["production_GWh"], err)
		}
		out[i] = ThermoRecord{
			Year: year, CapacityType: r["capacity_type"], Region: r["region"], Province: r["province"],
			Category: r["category"], Subcategory: r["subcategory"], ProductionGWh: gwh,
		}
	}
	return out, nil
}
