package postgres

import (
	"testing"

	"github.com/energyapi/energyapi/internal/store/storetest"
)

func TestMirrorContract(t *testing.T) {
	storetest.RunMirror(t, func(t *testing.T) (storetest.MirrorStore, func() storetest.MirrorStore) {
		loc := cluster.Database(t)
		return openStore(t, loc), func() storetest.MirrorStore { return openStore(t, loc) }
	})
}
