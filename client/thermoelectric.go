package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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

// wireResult is the status wrapper of every data response.
type wireResult struct {
	Message string `json:"message"`
	Status  string `json:"status"`
}

type wireThermo struct {
	Result         wireResult `json:"result"`
	Thermoelectric []struct {
		Year          string `json:"year"`
		CapacityType  string `json:"capacity_type"`
		Region        string `json:"region"`
		Province      string `json:"province"`
		Category      string `json:"category"`
		Subcategory   string `json:"subcategory"`
		ProductionGWh string `json:"production_GWh"`
	} `json:"thermoelectric"`
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
	body, err := c.get(ctx, thermoPath, v)
	if err != nil {
		return nil, err
	}
	return parseThermo(body)
}

func parseThermo(body []byte) ([]ThermoRecord, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, nil // the empty-body answer: zero records
	}
	var w wireThermo
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, fmt.Errorf("client: thermoelectric answer: %w", err)
	}
	out := make([]ThermoRecord, len(w.Thermoelectric))
	for i, r := range w.Thermoelectric {
		year, err := strconv.Atoi(r.Year)
		if err != nil {
			return nil, recordError("thermoelectric", i, "year", r.Year, err)
		}
		gwh, err := parseItalian(r.ProductionGWh)
		if err != nil {
			return nil, recordError("thermoelectric", i, "production_GWh", r.ProductionGWh, err)
		}
		out[i] = ThermoRecord{
			Year: year, CapacityType: r.CapacityType, Region: r.Region, Province: r.Province,
			Category: r.Category, Subcategory: r.Subcategory, ProductionGWh: gwh,
		}
	}
	return out, nil
}
