package storetest

import (
	"fmt"
	"slices"
	"testing"

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
			wantCode(t, "CreateClient with bad ID", s.CreateClient(t.Context(), newClient(bad, t0())), energy.Invalid)
			named := newClient("good-id", t0())
			named.Name = bad
			wantCode(t, "CreateClient with bad name", s.CreateClient(t.Context(), named), energy.Invalid)
			wantCode(t, "AddSigningKey", s.AddSigningKey(t.Context(), signingKey(bad, 1, t0())), energy.Invalid)
			_, err = s.ServerSecret(t.Context(), bad, func() ([]byte, error) { return []byte("v"), nil })
			wantCode(t, "ServerSecret", err, energy.Invalid)
			for _, field := range []string{"capacity type", "region", "province", "category", "subcategory"} {
				r := thermo(2023, "Lorda", "Lombardia", "Milano", "Combustibili fossili", "Gas naturale", 1)
				switch field {
				case "capacity type":
					r.CapacityType = bad
				case "region":
					r.Region = bad
				case "province":
					r.Province = bad
				case "category":
					r.Category = bad
				case "subcategory":
					r.Subcategory = bad
				}
				_, err = s.ImportThermoelectric(t.Context(), []energy.ThermoRecord{r})
				wantCode(t, "ImportThermoelectric with bad "+field, err, energy.Invalid)
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

// testTextOrder checks that ReadData and Clients order strings by their
// bytes whatever the database's collation: upper case, lower case, then
// UTF-8 multibyte. An English collation would put "apple" before "Banana"
// and "Émilie" before "Zara".
func testTextOrder(t *testing.T, open func(t *testing.T) Store) {
	s := open(t)
	regions := []string{"Émilie", "apple", "Zara", "Banana"}
	want := []string{"Banana", "Zara", "apple", "Émilie"}
	var recs []energy.ThermoRecord
	for _, r := range regions {
		recs = append(recs, thermo(2023, "Lorda", r, "P", "C", "S", 1))
	}
	_, err := s.ImportThermoelectric(t.Context(), recs)
	noErr(t, "ImportThermoelectric", err)
	var got []string
	for _, r := range readData(t, s).Thermo {
		got = append(got, r.Region)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("thermoelectric regions: got %q, want %q", got, want)
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
