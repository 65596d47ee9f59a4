// Command energyapi serves the Energy Data Public API and manages its clients
// and data. Run "energyapi help" for the subcommands.
package main

import (
	"context"
	"fmt"
	"os"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "energyapi:", err)
		os.Exit(1)
	}
}
