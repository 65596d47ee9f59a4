package sqlite

import (
	"path/filepath"
	"testing"

	"github.com/energyapi/energyapi/internal/store/storetest"
)

func TestPlansContract(t *testing.T) {
	storetest.RunPlans(t, func(t *testing.T) (storetest.PlanStore, func() storetest.PlanStore) {
		path := filepath.Join(t.TempDir(), "plans.db")
		return openStore(t, path), func() storetest.PlanStore { return openStore(t, path) }
	})
}
