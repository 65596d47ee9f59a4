package energy

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// Snapshot is one immutable version of the served data with its indexes.
// Requests read a snapshot and never the store, so a query costs microseconds
// and never sees half an import.
type Snapshot struct {
	Version    int64
	Updated    time.Time // when the store's data version last changed
	Thermo     *ThermoIndex
	PeakValley *PeakValleyIndex
}

// NewSnapshot indexes d.
func NewSnapshot(d Data) *Snapshot {
	return &Snapshot{
		Version:    d.Version,
		Updated:    d.Updated,
		Thermo:     NewThermoIndex(d.Thermo),
		PeakValley: NewPeakValleyIndex(d.PeakValley),
	}
}

// Live holds the current Snapshot and replaces it, atomically, when the
// store's data version changes, whichever process imported.
type Live struct {
	src Source
	cur atomic.Pointer[Snapshot]
}

// NewLive loads the first snapshot from src.
func NewLive(ctx context.Context, src Source) (*Live, error) {
	l := &Live{src: src}
	if _, err := l.Refresh(ctx); err != nil {
		return nil, err
	}
	return l, nil
}

// Snapshot returns the current snapshot; it is never nil after NewLive.
func (l *Live) Snapshot() *Snapshot { return l.cur.Load() }

// Refresh loads a new snapshot if the data version changed and reports whether it did.
func (l *Live) Refresh(ctx context.Context) (bool, error) {
	if cur := l.cur.Load(); cur != nil {
		v, err := l.src.DataVersion(ctx)
		if err != nil {
			return false, fmt.Errorf("data version: %w", err)
		}
		if v == cur.Version {
			return false, nil
		}
	}
	d, err := l.src.ReadData(ctx)
	if err != nil {
		return false, fmt.Errorf("read data: %w", err)
	}
	l.cur.Store(NewSnapshot(d))
	return true, nil
}

// Watch calls Refresh every interval until ctx ends, reporting errors and
// swaps to the callbacks (either may be nil).
func (l *Live) Watch(ctx context.Context, interval time.Duration, onSwap func(*Snapshot), onErr func(error)) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			changed, err := l.Refresh(ctx)
			switch {
			case err != nil && ctx.Err() == nil && onErr != nil:
				onErr(err)
			case changed && onSwap != nil:
				onSwap(l.Snapshot())
			}
		}
	}
}
