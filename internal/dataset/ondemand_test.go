package dataset_test

import (
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/store/storetest"
)

// TestOnDemand runs the on-demand tests against the memory store.
func TestOnDemand(t *testing.T) {
	storetest.RunOnDemand(t, family(t), func(*testing.T, func() time.Time) storetest.PartStore { return dataset.NewMemory() })
}
