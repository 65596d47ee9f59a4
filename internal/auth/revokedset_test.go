package auth

import (
	"fmt"
	"testing"
	"time"
)

// TestRevokedSetJoinsRecentAndDropsExpired checks how the in-memory set of
// revoked tokens grows: additions go to recent, which a load joins to base
// only once it outgrows the square root of base (minRecent at least),
// leaving out the tokens expired by then; a change that adds nothing makes
// no new set.
func TestRevokedSetJoinsRecentAndDropsExpired(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tokens := func(prefix string, n int, expires time.Time) []RevokedToken {
		ts := make([]RevokedToken, n)
		for i := range ts {
			ts[i] = RevokedToken{ID: fmt.Sprint(prefix, i), Expires: expires, Seq: int64(i + 1)}
		}
		return ts
	}
	s := (&revokedSet{}).with(tokens("early", 1000, now.Add(time.Minute)), 1000, now).joined(now)
	if len(s.base) != 1000 || len(s.recent) != 0 || s.seq != 1000 {
		t.Fatalf("after a load of 1000: got base %d, recent %d, seq %d, want 1000, 0, 1000", len(s.base), len(s.recent), s.seq)
	}
	if again := s.with(tokens("early", 1, now.Add(time.Minute)), 1000, now); again != s {
		t.Error("adding a token held already: got a new set, want the same")
	}
	if expired := s.with(tokens("gone", 1, now), 0, now); expired != s {
		t.Error("adding a token expired already: got a new set, want the same")
	}
	later := now.Add(2 * time.Minute) // the first thousand expired
	for i, tok := range tokens("late", minRecent, later.Add(time.Hour)) {
		if s = s.with([]RevokedToken{tok}, 0, later).joined(later); len(s.recent) != i+1 || len(s.base) != 1000 {
			t.Fatalf("revocation %d one at a time: got base %d, recent %d, want 1000, %d", i+1, len(s.base), len(s.recent), i+1)
		}
	}
	s = s.with([]RevokedToken{{ID: "last", Expires: later.Add(time.Hour)}}, 1001, later)
	if len(s.recent) != minRecent+1 {
		t.Fatalf("one more, not joined: got recent %d, want %d", len(s.recent), minRecent+1)
	}
	s = s.joined(later)
	if len(s.base) != minRecent+1 || len(s.recent) != 0 || s.seq != 1001 {
		t.Fatalf("one more, joined: got base %d, recent %d, seq %d, want %d (the expired dropped), 0, 1001", len(s.base), len(s.recent), s.seq, minRecent+1)
	}
	for jti, want := range map[string]bool{"late0": true, "last": true, "early0": false, "never": false} {
		if got := s.has(jti); got != want {
			t.Errorf("has(%s): got %v, want %v", jti, got, want)
		}
	}
}
