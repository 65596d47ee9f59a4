package dataset

import (
	"context"

	"github.com/energyapi/energyapi/internal/energy"
)

// This file is what a reader of whole periods (the bulk files) needs of a
// snapshot: a dataset's parts listed without reading or deriving any, one
// part's exact metadata, and the query that selects a part whole, so that
// such a reader encodes with the same encoders as the API.

// Periods returns the metadata of d's parts as the snapshot holds them,
// in chronological order, without reading or deriving any: a derived
// dataset's part not derived yet shows no records (Records 0), though its
// Version and Written are known.
func (s *Snapshot) Periods(d *Dataset) []PartMeta {
	return s.table(d).Parts
}

// Period returns the metadata of d's part id with its records and span,
// deriving it first for a derived dataset; ok is false if d has no such
// part. Its error is that of a store read the derivation needed.
func (s *Snapshot) Period(ctx context.Context, d *Dataset, id string) (m PartMeta, ok bool, err error) {
	m, ok = s.table(d).part(id)
	if !ok {
		return m, false, nil
	}
	m, err = s.exact(ctx, d, m)
	return m, true, err
}

// PeriodQuery returns the query that selects every record of d's part id,
// with instants in Europe/Rome wall time, the API's default: what the
// encoders need to write a part whole. It returns an error with code
// Invalid for an ID that names no month or year.
func (c *Catalog) PeriodQuery(d *Dataset, id string) (*Query, error) {
	first, last, ok := PartDays(id)
	if !ok || PartID(d.Grain, first.Start().Unix()) != id {
		return nil, energy.Errorf(energy.Invalid, "period %q is not a period of %s (a month yyyy-mm, or a year yyyy for yearly data)", id, d.Name)
	}
	return &Query{Dataset: d, From: first, To: last, key: d.Name + "\x00period\x00" + id}, nil
}
