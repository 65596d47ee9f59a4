package store

import (
	"context"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// FillTx is the write transaction of FillParts: a store begins it,
// serialised with every import on the database, and commits it if
// FillParts succeeds.
type FillTx interface {
	// Version returns the data version and when it last changed (zero
	// before the first change).
	Version(ctx context.Context) (int64, time.Time, error)
	// InsertParts stores each of parts, which are distinct and sorted by
	// ref, with its own Version, Written, Records, span (Span) and Data,
	// unless the store holds a part of its ref, which stays as it is. It
	// returns how many it stored. It writes no part_history.
	InsertParts(ctx context.Context, parts []dataset.StoredPart) (int, error)
	// SetVersion sets the data version to v, stamped at.
	SetVersion(ctx context.Context, v int64, at time.Time) error
}

// FillParts fills parts within tx as dataset.PartFiller.FillParts
// describes: it stores the parts the store does not hold, as they are,
// and raises the data version to floor, stamped by now, if it is below.
// It records no import run. On error the store must roll tx back.
//
// It returns an error with code Invalid, before it writes anything, if a
// part cannot be filled: its ref is one CheckPartRefs would refuse, it has
// no bytes or a negative record count, its Version is not from 1 to floor
// (the next import's version must be above every filled part's), or
// another part has its ref.
func FillParts(ctx context.Context, tx FillTx, now func() time.Time, floor int64, parts []dataset.StoredPart) (int, error) {
	fill, err := fillWrites(floor, parts)
	if err != nil {
		return 0, err
	}
	n := 0
	if len(fill) > 0 {
		if n, err = tx.InsertParts(ctx, fill); err != nil {
			return 0, err
		}
	}
	version, _, err := tx.Version(ctx)
	if err != nil {
		return 0, err
	}
	if version < floor {
		if err := tx.SetVersion(ctx, floor, now()); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// fillWrites checks the parts FillParts is given and returns a copy,
// sorted by ref.
func fillWrites(floor int64, parts []dataset.StoredPart) ([]dataset.StoredPart, error) {
	return checkWrites(parts, func(p *dataset.StoredPart) error {
		switch {
		case len(p.Data) == 0:
			return energy.Errorf(energy.Invalid, "part %s/%s to fill has no data", p.Dataset, p.ID)
		case p.Records < 0:
			return energy.Errorf(energy.Invalid, "part %s/%s to fill has %d records", p.Dataset, p.ID, p.Records)
		case p.Version < 1 || p.Version > floor:
			return energy.Errorf(energy.Invalid, "part %s/%s to fill has version %d, want 1 to %d", p.Dataset, p.ID, p.Version, floor)
		}
		return nil
	}, func(r dataset.PartRef) error {
		return energy.Errorf(energy.Invalid, "part %s/%s to fill is given twice", r.Dataset, r.ID)
	})
}
