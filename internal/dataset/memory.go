package dataset

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// Memory is a PartSource and PartWriter that keeps parts in memory: the
// store of tests and examples that need no database. It is safe for
// concurrent use.
type Memory struct {
	mu      sync.Mutex
	version int64
	updated time.Time
	parts   map[PartRef]StoredPart
	history map[PartRef][]replaced // oldest first
	events  []ImportEvent
}

type replaced struct {
	StoredPart
	at time.Time // when it was replaced
}

var (
	_ PartHistory = (*Memory)(nil)
	_ EventSource = (*Memory)(nil)
	_ PartFiller  = (*Memory)(nil)
)

// ImportEvents implements EventSource.
func (m *Memory) ImportEvents(_ context.Context, after int64, since time.Time, limit int) ([]ImportEvent, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []ImportEvent
	for _, e := range m.events {
		if e.ID > after && (since.IsZero() || e.Finished.After(since)) && len(out) < limit {
			out = append(out, e)
		}
	}
	return out, nil
}

// NewMemory returns an empty store.
func NewMemory() *Memory {
	return &Memory{parts: map[PartRef]StoredPart{}, history: map[PartRef][]replaced{}}
}

// DataVersion implements PartSource.
func (m *Memory) DataVersion(context.Context) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.version, nil
}

// ChangedParts implements PartSource.
func (m *Memory) ChangedParts(_ context.Context, have map[PartRef]int64) (Changes, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ch := Changes{Version: m.version, Updated: m.updated}
	for ref, sp := range m.parts {
		if v, ok := have[ref]; !ok || v != sp.Version {
			ch.Parts = append(ch.Parts, sp)
		}
	}
	return ch, nil
}

// PartVersionAt implements PartHistory.
func (m *Memory) PartVersionAt(_ context.Context, ref PartRef, t time.Time) (StoredPart, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, h := range m.history[ref] {
		if !h.Written.After(t) && h.at.After(t) {
			sp := h.StoredPart
			sp.Data = nil
			return sp, true, nil
		}
	}
	return StoredPart{}, false, nil
}

// ReadPartVersion implements PartHistory.
func (m *Memory) ReadPartVersion(_ context.Context, ref PartRef, version int64) (StoredPart, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, h := range m.history[ref] {
		if h.Version == version {
			return h.StoredPart, nil
		}
	}
	return StoredPart{}, energy.Errorf(energy.NotFound, "part %s/%s has no replaced version %d", ref.Dataset, ref.ID, version)
}

// UpdateParts implements PartWriter. Its imports are written at started,
// which keeps the times of tests' records their own.
func (m *Memory) UpdateParts(ctx context.Context, name string, started time.Time, refs []PartRef, merge MergeFunc) (energy.ImportStats, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var stored []StoredPart
	for _, ref := range refs {
		if sp, ok := m.parts[ref]; ok {
			stored = append(stored, sp)
		}
	}
	write, st, err := merge(stored, started)
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return energy.ImportStats{}, err
	}
	if len(write) > 0 {
		m.version++
		m.updated = started
		for _, sp := range write {
			if old, ok := m.parts[sp.PartRef]; ok {
				m.history[sp.PartRef] = append(m.history[sp.PartRef], replaced{old, started})
			}
			sp.Version, sp.Written = m.version, started
			m.parts[sp.PartRef] = sp
		}
	}
	e := ImportEvent{ID: int64(len(m.events) + 1), Dataset: name, Started: started, Finished: started, Stats: st, Version: m.version}
	for _, r := range refs {
		if r.Dataset != name {
			continue
		}
		if e.FirstPart == "" || r.ID < e.FirstPart {
			e.FirstPart = r.ID
		}
		e.LastPart = max(e.LastPart, r.ID)
	}
	m.events = append(m.events, e)
	return st, nil
}

// ListParts implements PartSource.
func (m *Memory) ListParts(context.Context) (Changes, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ch := Changes{Version: m.version, Updated: m.updated}
	for _, sp := range m.parts {
		sp.Data = nil
		ch.Parts = append(ch.Parts, sp)
	}
	return ch, nil
}

// ReadPart implements PartSource.
func (m *Memory) ReadPart(_ context.Context, ref PartRef, version int64) (StoredPart, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if sp, ok := m.parts[ref]; ok && sp.Version == version {
		return sp, nil
	}
	for _, h := range m.history[ref] {
		if h.Version == version {
			return h.StoredPart, nil
		}
	}
	return StoredPart{}, energy.Errorf(energy.NotFound, "part %s/%s has no version %d", ref.Dataset, ref.ID, version)
}

// FillParts implements PartFiller. Memory has no clock: as its imports are
// written at their start, a data version it raises is stamped with the
// latest Written of parts (never earlier than the last change). It returns
// an error with code Invalid, and stores nothing, if a part has an empty
// name, no bytes, a negative record count or a Version not from 1 to
// floor, or if two parts have one ref.
func (m *Memory) FillParts(ctx context.Context, floor int64, parts []StoredPart) (int, error) {
	seen := make(map[PartRef]bool, len(parts))
	for _, sp := range parts {
		switch {
		case sp.Dataset == "" || sp.ID == "":
			return 0, energy.Errorf(energy.Invalid, "part %q of dataset %q to fill: names must be non-empty", sp.ID, sp.Dataset)
		case len(sp.Data) == 0 || sp.Records < 0:
			return 0, energy.Errorf(energy.Invalid, "part %s/%s to fill has no data or %d records", sp.Dataset, sp.ID, sp.Records)
		case sp.Version < 1 || sp.Version > floor:
			return 0, energy.Errorf(energy.Invalid, "part %s/%s to fill has version %d, want 1 to %d", sp.Dataset, sp.ID, sp.Version, floor)
		case seen[sp.PartRef]:
			return 0, energy.Errorf(energy.Invalid, "part %s/%s to fill is given twice", sp.Dataset, sp.ID)
		}
		seen[sp.PartRef] = true
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, sp := range parts {
		if _, ok := m.parts[sp.PartRef]; !ok {
			sp.Data = slices.Clone(sp.Data)
			m.parts[sp.PartRef] = sp
			n++
		}
	}
	if m.version < floor {
		m.version = floor
		for _, sp := range parts {
			if sp.Written.After(m.updated) {
				m.updated = sp.Written
			}
		}
	}
	return n, nil
}
