package store

import (
	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
)

// CheckRegistration returns an error with code Invalid if reg cannot be
// stored with its client c: they name different clients, or its text is
// not ValidText.
func CheckRegistration(c auth.Client, reg auth.Registration) error {
	if err := CheckClient(c); err != nil {
		return err
	}
	switch {
	case reg.ClientID != c.ID:
		return energy.Errorf(energy.Invalid, "registration of %q stored with client %q", reg.ClientID, c.ID)
	case !ValidText(reg.Contact) || !ValidText(reg.Addr):
		return energy.Errorf(energy.Invalid, "contact and address must be UTF-8 text without NUL bytes")
	}
	return nil
}

// CheckRevokedToken returns an error with code Invalid if t cannot be
// stored: its ID is empty or not ValidText.
func CheckRevokedToken(t auth.RevokedToken) error {
	if t.ID == "" || !ValidText(t.ID) || !ValidText(t.ClientID) {
		return energy.Errorf(energy.Invalid, "a revoked token needs an ID of UTF-8 text")
	}
	return nil
}
