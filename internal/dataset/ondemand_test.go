package dataset_test

import (
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/store/storetest"
)

// TestOnDemand runs the on-demand tests against the memory store.
func TestOnDemand(t *testing.T) {
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	storetest.RunOnDemand(t, cat, func(*testing.T, func() time.Time) storetest.PartStore { return dataset.NewMemory() })
}
