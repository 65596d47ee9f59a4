// Command energyapi serves the Energy Data Public API and manages its clients
// and data. Run "energyapi help" for the subcommands.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

func main() {
	err := run(context.Background(), os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	os.Exit(exitCode(err, os.Stderr))
}

// Exit codes, as docs/operators.md documents them.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2 // the command was called wrongly: nothing was done
)

// exitCode reports err, if any, on stderr and returns the process's exit
// code for it.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(stderr, "energyapi:", err)
	if errors.Is(err, errUsage) {
		return exitUsage
	}
	return exitFailure
}
