package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// RunShared runs the tests of two stores open on one database at once, as a
// server and a command-line import, or two replicas, would have it. open
// must return two stores over one new, empty database, each as its own
// process would open it, and close them when the test ends.
func RunShared(t *testing.T, open func(t *testing.T) (Store, Store)) {
	t.Run("ServerSecretAgrees", func(t *testing.T) { testServerSecretAgrees(t, open) })
	t.Run("VersionsSeenAcrossProcesses", func(t *testing.T) { testVersionsSeen(t, open) })
	t.Run("PartImportsTakeTurns", func(t *testing.T) {
		a, b := open(t)
		partImportsTakeTurns(t, []Store{a, b, a, b})
	})
}

func testServerSecretAgrees(t *testing.T, open func(t *testing.T) (Store, Store)) {
	a, b := open(t)
	var got [2][]byte
	var errs [2]error
	var wg sync.WaitGroup
	for i, s := range []Store{a, b} {
		wg.Go(func() {
			got[i], errs[i] = s.ServerSecret(t.Context(), "hash-key", func() ([]byte, error) {
				return []byte(fmt.Sprint("from store ", i)), nil
			})
		})
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("ServerSecret: got errors %v, %v", errs[0], errs[1])
	}
	if string(got[0]) != string(got[1]) {
		t.Fatalf("ServerSecret: store 0 got %q, store 1 got %q, want one value", got[0], got[1])
	}
}

// testVersionsSeen checks that a change through one store moves the version
// that the other polls.
func testVersionsSeen(t *testing.T, open func(t *testing.T) (Store, Store)) {
	a, b := open(t)
	before, err := b.ClientsVersion(t.Context())
	noErr(t, "ClientsVersion", err)
	noErr(t, "CreateClient", a.CreateClient(t.Context(), newClient("shared", t0())))
	after, err := b.ClientsVersion(t.Context())
	noErr(t, "ClientsVersion", err)
	if after == before {
		t.Fatalf("ClientsVersion in the other store: got %d before and after, want a change", after)
	}

	dBefore := dataVersion(t, b)
	c, d := sensorCatalog(t)
	_, err = importRows(t.Context(), a, c, d, readings(2024, time.May, "a", 1))
	noErr(t, "Import", err)
	if dAfter := dataVersion(t, b); dAfter == dBefore {
		t.Fatalf("DataVersion in the other store: got %d before and after, want a change", dAfter)
	}
	if got := changedParts(t, b, nil).Parts; len(got) != 1 {
		t.Fatalf("ChangedParts in the other store: got %v, want the part imported through the first", refsOf(got))
	}
}
