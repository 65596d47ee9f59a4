package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"slices"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
)

type clientJSON struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret,omitempty"`
	Name         string `json:"name"`
	Created      string `json:"created,omitempty"`
	Revoked      string `json:"revoked,omitempty"`
	// Pending: registered, awaiting approval (clients approve).
	Pending bool   `json:"pending,omitempty"`
	Contact string `json:"contact,omitempty"` // of a registered client
}

// clientsSubcommands are what "clients" does.
func clientsSubcommands() []string {
	return []string{"create", "list", "revoke", "rotate-secret", "approve", "set-plan", "usage"}
}

func runClients(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	// The subcommand and flags are checked before the store is opened, so
	// that a typo or -h never touches (let alone creates) a store.
	if len(args) == 0 {
		return usagef("clients needs a subcommand: create, list, revoke, rotate-secret, approve, set-plan or usage")
	}
	sub, args := args[0], args[1:]
	if isHelpArg(sub) {
		flags := newFlagSet("clients", stderr)
		dbFlag(flags)
		return &helpError{text: helpText(flags)}
	}
	if !slices.Contains(clientsSubcommands(), sub) {
		return unknownWord("clients subcommand", sub, "energyapi clients -h", clientsSubcommands())
	}
	if sub == "set-plan" || sub == "usage" {
		return runClientsPlan(ctx, sub, args, getenv, stdout, stderr)
	}
	flags := newFlagSet("clients "+sub, stderr)
	db := dbFlag(flags)
	name, plan := "", new(string)
	if sub == "create" {
		flags.StringVar(&name, "name", "", "the client's name (required)")
		plan = planFlag(flags)
	}
	if err := parseFlags(flags, args, getenv); err != nil {
		return err
	}
	needID := sub == "revoke" || sub == "rotate-secret" || sub == "approve"
	switch {
	case sub == "create" && name == "":
		return usagef("clients create needs --name")
	case needID && flags.NArg() != 1:
		return usagef("clients %s needs exactly one client ID", sub)
	case !needID && flags.NArg() != 0:
		return usagef("clients %s takes no arguments", sub)
	}
	st, err := openStore(ctx, *db, false)
	if err != nil {
		return err
	}
	defer st.Close()
	reg, err := auth.NewRegistry(ctx, st, st, time.Now, rand.Reader)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	switch sub {
	case "create":
		if err := checkPlanExists(ctx, st, *plan); err != nil {
			return err
		}
		// One transaction: no server ever sees the client without its plan.
		c, secret, err := reg.CreateOnPlan(ctx, name, *plan)
		if err != nil {
			return err
		}
		return enc.Encode(clientJSON{ClientID: c.ID, ClientSecret: secret, Name: c.Name})
	case "list":
		return listClients(ctx, reg, enc)
	case "approve":
		return reg.Approve(ctx, flags.Arg(0))
	case "revoke":
		return reg.Revoke(ctx, flags.Arg(0))
	case "rotate-secret":
		c, secret, err := reg.Rotate(ctx, flags.Arg(0))
		if err != nil {
			return err
		}
		return enc.Encode(clientJSON{ClientID: c.ID, ClientSecret: secret, Name: c.Name})
	}
	return unknownWord("clients subcommand", sub, "energyapi clients -h", clientsSubcommands())
}

// listClients writes every client, one JSON object a line, with the contact
// of those registered and whether they await approval.
func listClients(ctx context.Context, reg *auth.Registry, enc *json.Encoder) error {
	cs, err := reg.List(ctx)
	if err != nil {
		return err
	}
	regs, err := reg.Registrations(ctx)
	if err != nil {
		return err
	}
	contacts := make(map[string]string, len(regs))
	for _, r := range regs {
		contacts[r.ClientID] = r.Contact
	}
	for _, c := range cs {
		out := clientJSON{ClientID: c.ID, Name: c.Name, Created: c.Created.UTC().Format(time.RFC3339), Pending: c.Pending() && c.Active(), Contact: contacts[c.ID]}
		if !c.Active() {
			out.Revoked = c.Revoked.UTC().Format(time.RFC3339)
		}
		if err := enc.Encode(out); err != nil {
			return err
		}
	}
	return nil
}
