package storetest_test

import (
	"testing"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/store/storetest"
)

// TestMemoryParts holds dataset.Memory, the store of tests and examples, to
// the rules on parts that the stores follow.
func TestMemoryParts(t *testing.T) {
	storetest.RunParts(t, func(*testing.T) storetest.PartStore { return dataset.NewMemory() })
}
