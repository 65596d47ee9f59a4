package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// runInit creates the store, or brings an existing one's schema up to date.
// It is the explicit way to start a store that serve (without --demo) and
// clients will then use.
func runInit(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	flags := newFlagSet("init", stderr)
	db := dbFlag(flags)
	if err := parseFlags(flags, args, getenv); err != nil {
		return err
	}
	if flags.NArg() != 0 {
		return usagef("init takes no arguments (the store is --db)")
	}
	existed := true
	if !isPostgres(*db) {
		_, err := os.Stat(*db)
		existed = !errors.Is(err, fs.ErrNotExist)
	}
	st, err := openStore(ctx, *db, true)
	if err != nil {
		return err
	}
	if err := st.Close(); err != nil {
		return err
	}
	if existed {
		_, err = fmt.Fprintf(stdout, "store %s is ready\n", storeName(*db))
	} else {
		_, err = fmt.Fprintf(stdout, "created store %s (mode 0600)\n", *db)
	}
	return err
}
