package store

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Schemas 1 and 2 kept three datasets in tables of their own
// (thermoelectric, total_load, peak_valley and its zones). Migration 3 of
// each store moves their records into parts with MoveLegacy, in the
// migration's transaction, and then drops the tables.

// LegacyTx is what MoveLegacy needs of the migration's transaction, which
// the store has serialised with every import.
type LegacyTx interface {
	PartReader
	// WriteParts is PartTx.WriteParts.
	WriteParts(ctx context.Context, parts []dataset.StoredPart, at time.Time) error
	// BumpVersion advances the data version by one, stamped at.
	BumpVersion(ctx context.Context, at time.Time) error
	// LegacyThermo returns every row of thermoelectric.
	LegacyThermo(ctx context.Context) ([]energy.ThermoRecord, error)
	// LegacyLoadSpan returns the first and last instant of total_load, as
	// Unix seconds; ok is false if it is empty.
	LegacyLoadSpan(ctx context.Context) (first, last int64, ok bool, err error)
	// LegacyLoad returns the rows of total_load with from <= ts < to, their
	// zones by name; it returns an error if a zone code has no name.
	LegacyLoad(ctx context.Context, from, to int64) ([]energy.LoadPoint, error)
	// LegacyPeakValley returns the rows of peak_valley that were imported
	// as published; the ones derived from total load are computed again
	// from its parts and are left behind.
	LegacyPeakValley(ctx context.Context) ([]energy.DayExtremes, error)
}

// MoveLegacy writes the records of the per-dataset tables into parts of
// the catalogue's datasets of the same names: thermoelectric, total-load
// (a month at a time) and peak-valley. Where a part is already stored (an
// import through parts ran before the migration), its records win over
// the tables' and only the keys it lacks are added; a part that lacks none
// is left as it is. Every part written gets the data version + 1, which
// MoveLegacy then bumps, stamped by now, unless it wrote nothing. It
// records no import run: the records were imported before.
func MoveLegacy(ctx context.Context, tx LegacyTx, now func() time.Time) error {
	c, err := catalog.New()
	if err != nil {
		return err
	}
	v, _, err := tx.Version(ctx)
	if err != nil {
		return err
	}
	m := &mover{tx: tx, version: v + 1, at: now()}
	// The tables' columns, as rows of each dataset.
	thermo, err := m.target(c, "thermoelectric", 5, 1)
	if err != nil {
		return err
	}
	load, err := m.target(c, "total-load", 1, 2)
	if err != nil {
		return err
	}
	pv, err := m.target(c, "peak-valley", 1, 2)
	if err != nil {
		return err
	}

	recs, err := tx.LegacyThermo(ctx)
	if err != nil {
		return fmt.Errorf("thermoelectric: %w", err)
	}
	rows := make([]dataset.Row, len(recs))
	for i, r := range recs {
		rows[i] = catalog.ThermoRow(r)
	}
	if err := m.move(ctx, thermo, rows); err != nil {
		return err
	}

	first, last, ok, err := tx.LegacyLoadSpan(ctx)
	if err != nil {
		return fmt.Errorf("total load: %w", err)
	}
	if ok {
		// A Rome month at a time, which is one part: the table may hold
		// millions of rows.
		t := time.Unix(first, 0).In(energy.Rome())
		for month := time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, energy.Rome()); month.Unix() <= last; month = month.AddDate(0, 1, 0) {
			pts, err := tx.LegacyLoad(ctx, month.Unix(), month.AddDate(0, 1, 0).Unix())
			if err != nil {
				return fmt.Errorf("total load: %w", err)
			}
			if err := m.move(ctx, load, catalog.TotalLoadRows(pts)); err != nil {
				return err
			}
		}
	}

	days, err := tx.LegacyPeakValley(ctx)
	if err != nil {
		return fmt.Errorf("peak valley: %w", err)
	}
	var pvRows []dataset.Row
	for _, d := range days {
		pvRows = append(pvRows, catalog.PeakValleyRows(d)...)
	}
	if err := m.move(ctx, pv, pvRows); err != nil {
		return err
	}

	if m.written == 0 {
		return nil
	}
	return tx.BumpVersion(ctx, m.at)
}

// mover writes the parts of MoveLegacy.
type mover struct {
	tx      LegacyTx
	version int64     // of every part written
	at      time.Time // when
	written int
}

// target is a dataset that records move into, with its layout.
type target struct {
	d *dataset.Dataset
	l *dataset.Layout
}

// target returns the catalogue's dataset name, or an error if its records
// no longer have the Text and Number values that the table's columns give.
func (m *mover) target(c *dataset.Catalog, name string, nText, nNum int) (target, error) {
	d, ok := c.Lookup(name)
	if !ok {
		return target{}, fmt.Errorf("the catalogue has no dataset %s to move its table into", name)
	}
	l, err := d.Check()
	if err != nil {
		return target{}, err
	}
	if l.NText != nText || l.NNum != nNum {
		return target{}, fmt.Errorf("dataset %s has %d text and %d number fields; its table gives %d and %d", name, l.NText, l.NNum, nText, nNum)
	}
	return target{d, l}, nil
}

// move writes rows, which have distinct keys, into the parts of t.
func (m *mover) move(ctx context.Context, t target, rows []dataset.Row) error {
	byPart := map[string][]dataset.Row{}
	for _, r := range rows {
		id := dataset.PartID(t.d.Grain, r.Time)
		byPart[id] = append(byPart[id], r)
	}
	ids := make([]string, 0, len(byPart))
	for id := range byPart {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		ref := dataset.PartRef{Dataset: t.d.Name, ID: id}
		p, err := m.merged(ctx, t, ref, byPart[id])
		if err != nil {
			return fmt.Errorf("%s part %s: %w", t.d.Name, id, err)
		}
		if p == nil {
			continue
		}
		b, err := p.Encode()
		if err != nil {
			return err
		}
		sp := p.Stored(ref, b)
		sp.Version = m.version
		if err := m.tx.WriteParts(ctx, []dataset.StoredPart{sp}, m.at); err != nil {
			return fmt.Errorf("%s part %s: %w", t.d.Name, id, err)
		}
		m.written++
	}
	return nil
}

// merged returns the part ref holds once rows, a table's records of it,
// are added under the stored part, if any; nil if that part holds every
// key of rows already.
func (m *mover) merged(ctx context.Context, t target, ref dataset.PartRef, rows []dataset.Row) (*dataset.Part, error) {
	// The tables kept no publication times: the move publishes their records.
	at := m.at.UnixMicro()
	for i := range rows {
		rows[i].Pub, rows[i].Rev = at, at
	}
	legacy := dataset.BuildPart(t.l, ref.ID, rows)
	stored, err := m.tx.ReadParts(ctx, []dataset.PartRef{ref})
	if err != nil || len(stored) == 0 {
		return legacy, err
	}
	old, err := dataset.DecodePart(t.l, stored[0])
	if err != nil {
		return nil, err
	}
	if _, st, _, err := dataset.Merge(t.l, t.d.Grain, ref.ID, old, rows, at); err != nil || st.Inserted == 0 {
		return nil, err
	}
	// The stored records upserted over the table's: theirs win, with their times.
	p, _, changed, err := dataset.Merge(t.l, t.d.Grain, ref.ID, legacy, old.Rows(), 0)
	if err != nil || !changed {
		return legacy, err
	}
	return p, nil
}
