package storetest_test

import (
	"cmp"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/store/storetest"
)

// TestMemoryParts holds dataset.Memory, the store of tests and examples, to
// the rules on parts that the stores follow.
func TestMemoryParts(t *testing.T) {
	storetest.RunParts(t, func(*testing.T) storetest.PartStore { return ordered{dataset.NewMemory()} })
}

// ordered returns Memory's ChangedParts in the stores' order, by dataset
// and then ID: Memory keeps parts in a map and promises no order, which
// the suite's comparisons of whole answers assume.
type ordered struct{ *dataset.Memory }

func (o ordered) ChangedParts(ctx context.Context, have map[dataset.PartRef]int64) (dataset.Changes, error) {
	ch, err := o.Memory.ChangedParts(ctx, have)
	slices.SortFunc(ch.Parts, func(a, b dataset.StoredPart) int {
		return cmp.Or(cmp.Compare(a.Dataset, b.Dataset), cmp.Compare(a.ID, b.ID))
	})
	return ch, err
}

// TestMemoryFill holds dataset.Memory to the rules on filling parts that
// the stores follow.
func TestMemoryFill(t *testing.T) {
	storetest.RunFill(t, func(*testing.T, func() time.Time) storetest.FillStore { return ordered{dataset.NewMemory()} })
}
