package dataset

import (
	"context"
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
}

// NewMemory returns an empty store.
func NewMemory() *Memory { return &Memory{parts: map[PartRef]StoredPart{}} }

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

// UpdateParts implements PartWriter.
func (m *Memory) UpdateParts(ctx context.Context, _ string, started time.Time, refs []PartRef, merge MergeFunc) (energy.ImportStats, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var stored []StoredPart
	for _, ref := range refs {
		if sp, ok := m.parts[ref]; ok {
			stored = append(stored, sp)
		}
	}
	write, st, err := merge(stored)
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
			sp.Version = m.version
			m.parts[sp.PartRef] = sp
		}
	}
	return st, nil
}
