package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
)

// RunShared runs the tests of two stores open on one database at once, as a
// server and a command-line import, or two replicas, would have it. open
// must return two stores over one new, empty database, each as its own
// process would open it, and close them when the test ends.
func RunShared(t *testing.T, open func(t *testing.T) (Store, Store)) {
	t.Run("ServerSecretAgrees", func(t *testing.T) { testServerSecretAgrees(t, open) })
	t.Run("VersionsSeenAcrossProcesses", func(t *testing.T) { testVersionsSeen(t, open) })
	t.Run("ClientChangesToldAcrossProcesses", func(t *testing.T) { testClientChangesTold(t, open) })
	t.Run("Registrations", func(t *testing.T) { testRegistrations(t, open) })
	t.Run("PartImportsTakeTurns", func(t *testing.T) {
		a, b := open(t)
		partImportsTakeTurns(t, []PartStore{a, b, a, b})
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

// testClientChangesTold checks that WatchClients on one store tells of every
// kind of client change, and of a token's revocation, committed through the
// other, without a poll of its caller's.
func testClientChangesTold(t *testing.T, open func(t *testing.T) (Store, Store)) {
	a, b := open(t)
	ctx := t.Context()
	told := WatchClients(t, b, func(err error) { t.Errorf("WatchClients: %v", err) })
	// The watcher tells once when it starts, since a change may precede it.
	WaitTold(t, told, "the watch starting")
	for _, change := range []struct {
		what string
		do   func() error
	}{
		{"CreateClient", func() error { return a.CreateClient(ctx, newClient("watched", t0())) }},
		{"SetClientSecret", func() error { return a.SetClientSecret(ctx, "watched", []byte("new hash")) }},
		{"RevokeClient", func() error { return a.RevokeClient(ctx, "watched", t0().Add(time.Hour)) }},
		{"RestoreClient", func() error { return a.RestoreClient(ctx, "watched", []byte("restored hash")) }},
		{"RevokeToken", func() error {
			return a.(auth.RegistrationStore).RevokeToken(ctx, auth.RevokedToken{ID: "watched-jti", ClientID: "watched", Expires: t0().Add(time.Hour)}, t0())
		}},
	} {
		select {
		case <-told: // whatever came before this change
		default:
		}
		noErr(t, change.what, change.do())
		WaitTold(t, told, change.what+" through the other store")
	}
}

// WaitTold waits for a call of WatchClients' changed, with a bound generous
// enough for a busy machine: a wait for an event, not a timing assertion.
func WaitTold(t testing.TB, told <-chan struct{}, after string) {
	t.Helper()
	select {
	case <-told:
	case <-time.After(10 * time.Second):
		t.Fatalf("WatchClients: not told of %s within 10s", after)
	}
}

// WatchClients runs w.WatchClients until the test ends and returns the
// channel it tells of each change on, without waiting: changes told
// before the reader reads are one to it. Each error goes to onErr.
func WatchClients(t *testing.T, w auth.ClientWatcher, onErr func(error)) <-chan struct{} {
	ctx, cancel := context.WithCancel(t.Context())
	told := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.WatchClients(ctx, func() {
			select {
			case told <- struct{}{}:
			default:
			}
		}, onErr)
	}()
	t.Cleanup(func() { cancel(); <-done })
	return told
}
