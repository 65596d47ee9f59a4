package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
)

type clientJSON struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret,omitempty"`
	Name         string `json:"name"`
	Created      string `json:"created,omitempty"`
	Revoked      string `json:"revoked,omitempty"`
}

func runClients(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: clients needs a subcommand: create, list, revoke or rotate-secret", errUsage)
	}
	sub, args := args[0], args[1:]
	fs := newFlagSet("clients "+sub, stderr)
	db := dbFlag(fs)
	name := ""
	if sub == "create" {
		fs.StringVar(&name, "name", "", "the client's name (required)")
	}
	if err := parseFlags(fs, args, getenv); err != nil {
		return err
	}
	needID := sub == "revoke" || sub == "rotate-secret"
	switch {
	case sub == "create" && name == "":
		return fmt.Errorf("%w: clients create needs --name", errUsage)
	case needID && fs.NArg() != 1:
		return fmt.Errorf("%w: clients %s needs exactly one client ID", errUsage, sub)
	case !needID && fs.NArg() != 0:
		return fmt.Errorf("%w: clients %s takes no arguments", errUsage, sub)
	}
	st, err := openStore(ctx, *db)
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
		c, secret, err := reg.Create(ctx, name)
		if err != nil {
			return err
		}
		return enc.Encode(clientJSON{ClientID: c.ID, ClientSecret: secret, Name: c.Name})
	case "list":
		cs, err := reg.List(ctx)
		if err != nil {
			return err
		}
		for _, c := range cs {
			out := clientJSON{ClientID: c.ID, Name: c.Name, Created: c.Created.UTC().Format(time.RFC3339)}
			if !c.Active() {
				out.Revoked = c.Revoked.UTC().Format(time.RFC3339)
			}
			if err := enc.Encode(out); err != nil {
				return err
			}
		}
		return nil
	case "revoke":
		return reg.Revoke(ctx, fs.Arg(0))
	case "rotate-secret":
		c, secret, err := reg.Rotate(ctx, fs.Arg(0))
		if err != nil {
			return err
		}
		return enc.Encode(clientJSON{ClientID: c.ID, ClientSecret: secret, Name: c.Name})
	}
	return fmt.Errorf("%w: unknown clients subcommand %q (want create, list, revoke or rotate-secret)", errUsage, sub)
}
