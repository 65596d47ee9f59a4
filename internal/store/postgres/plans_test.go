package postgres

import (
	"testing"

	"github.com/energyapi/energyapi/internal/store/storetest"
)

func TestPlansContract(t *testing.T) {
	storetest.RunPlans(t, func(t *testing.T) (storetest.PlanStore, func() storetest.PlanStore) {
		dsn := cluster.Database(t)
		return openStore(t, dsn), func() storetest.PlanStore { return openStore(t, dsn) }
	})
}
