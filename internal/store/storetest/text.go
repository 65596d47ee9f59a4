package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// badText is text that no store keeps: PostgreSQL's text type cannot hold
// it, and SQLite is held to the same rule so that the stores agree.
var badText = []string{"nul\x00byte", "bad \xff utf-8"}

// testText checks that writes refuse text that is not UTF-8 without NUL
// bytes as Invalid, storing nothing, and that lookups by such a key find
// nothing rather than fail: the token endpoint passes client IDs from
// requests as they came.
func testText(t *testing.T, open func(t *testing.T) Store) {
	s := open(t)
	for _, bad := range badText {
		t.Run(fmt.Sprintf("%q", bad), func(t *testing.T) {
			clientsBefore, err := s.ClientsVersion(t.Context())
			noErr(t, "ClientsVersion", err)
			before := readState(t, s)

			_, err = s.Client(t.Context(), bad)
			wantCode(t, "Client", err, energy.NotFound)
			wantCode(t, "RevokeClient", s.RevokeClient(t.Context(), bad, t0()), energy.NotFound)
			wantCode(t, "SetClientSecret", s.SetClientSecret(t.Context(), bad, []byte("h")), energy.NotFound)
			wantCode(t, "RestoreClient", s.RestoreClient(t.Context(), bad, []byte("h")), energy.NotFound)
			wantCode(t, "CreateClient with bad ID", s.CreateClient(t.Context(), newClient(bad, t0())), energy.Invalid)
			named := newClient("good-id", t0())
			named.Name = bad
			wantCode(t, "CreateClient with bad name", s.CreateClient(t.Context(), named), energy.Invalid)
			wantCode(t, "AddSigningKey", s.AddSigningKey(t.Context(), signingKey(bad, 1, t0())), energy.Invalid)
			_, err = s.ServerSecret(t.Context(), bad, func() ([]byte, error) { return []byte("v"), nil })
			wantCode(t, "ServerSecret", err, energy.Invalid)
			part := func(ref dataset.PartRef) dataset.MergeFunc {
				return func([]dataset.StoredPart, time.Time) ([]dataset.StoredPart, energy.ImportStats, error) {
					return []dataset.StoredPart{{PartRef: ref, Records: 1, Data: []byte("x")}}, energy.ImportStats{}, nil
				}
			}
			good := dataset.PartRef{Dataset: "good", ID: "2024"}
			for _, c := range []struct {
				what    string
				dataset string
				refs    []dataset.PartRef
				write   dataset.PartRef
			}{
				{"bad dataset name", bad, nil, good},
				{"bad ref dataset", "good", []dataset.PartRef{{Dataset: bad, ID: "2024"}}, good},
				{"bad ref ID", "good", []dataset.PartRef{{Dataset: "good", ID: bad}}, good},
				{"bad written dataset", "good", nil, dataset.PartRef{Dataset: bad, ID: "2024"}},
				{"bad written ID", "good", nil, dataset.PartRef{Dataset: "good", ID: bad}},
			} {
				_, err = s.UpdateParts(t.Context(), c.dataset, t0(), c.refs, part(c.write))
				wantCode(t, "UpdateParts with "+c.what, err, energy.Invalid)
			}

			cs, err := s.Clients(t.Context())
			noErr(t, "Clients", err)
			if len(cs) != 0 {
				t.Fatalf("Clients after refused writes: got %d, want none", len(cs))
			}
			ks, err := s.SigningKeys(t.Context())
			noErr(t, "SigningKeys", err)
			if len(ks) != 0 {
				t.Fatalf("SigningKeys after refused writes: got %d, want none", len(ks))
			}
			clientsAfter, err := s.ClientsVersion(t.Context())
			noErr(t, "ClientsVersion", err)
			if clientsAfter != clientsBefore {
				t.Fatalf("ClientsVersion: got %d, want %d as before", clientsAfter, clientsBefore)
			}
			wantSameState(t, readState(t, s), before)
		})
	}
}

// testTextOrder checks that ChangedParts and Clients order strings by their
// bytes whatever the database's collation: upper case, lower case, then
// UTF-8 multibyte. An English collation would put "apple" before "Banana"
// and "Émilie" before "Zara".
func testTextOrder(t *testing.T, open func(t *testing.T) Store) {
	s := open(t)
	regions := []string{"Émilie", "apple", "Zara", "Banana"}
	want := []string{"Banana", "Zara", "apple", "Émilie"}
	for _, name := range regions {
		_, err := s.UpdateParts(t.Context(), name, t0(), nil, func([]dataset.StoredPart, time.Time) ([]dataset.StoredPart, energy.ImportStats, error) {
			return []dataset.StoredPart{
				{PartRef: dataset.PartRef{Dataset: "d", ID: name}, Data: []byte(name)},
				{PartRef: dataset.PartRef{Dataset: name, ID: "2024"}, Data: []byte(name)},
			}, energy.ImportStats{}, nil
		})
		noErr(t, "UpdateParts", err)
	}
	var got []string
	for _, p := range changedParts(t, s, nil).Parts {
		if p.Dataset == "d" {
			got = append(got, p.ID)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("part IDs: got %q, want %q", got, want)
	}
	got = got[:0]
	for _, p := range changedParts(t, s, nil).Parts {
		if p.Dataset != "d" {
			got = append(got, p.Dataset)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("part datasets: got %q, want %q", got, want)
	}

	for _, id := range regions {
		noErr(t, "CreateClient", s.CreateClient(t.Context(), newClient(id, t0())))
	}
	cs, err := s.Clients(t.Context())
	noErr(t, "Clients", err)
	got = got[:0]
	for _, c := range cs {
		got = append(got, c.ID)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("client IDs: got %q, want %q", got, want)
	}
}
