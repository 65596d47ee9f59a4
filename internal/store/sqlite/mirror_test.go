package sqlite

import (
	"path/filepath"
	"testing"

	"github.com/energyapi/energyapi/internal/store/storetest"
)

func TestMirrorContract(t *testing.T) {
	storetest.RunMirror(t, func(t *testing.T) (storetest.MirrorStore, func() storetest.MirrorStore) {
		loc := filepath.Join(t.TempDir(), "mirror.db")
		return openStore(t, loc), func() storetest.MirrorStore { return openStore(t, loc) }
	})
}
