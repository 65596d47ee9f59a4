package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

func runVersion(args []string, getenv func(string) string, stdout io.Writer) error {
	fs := newFlagSet("version", nil)
	if err := parseFlags(fs, args, getenv); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("version takes no arguments")
	}
	info, ok := debug.ReadBuildInfo()
	_, err := fmt.Fprintln(stdout, versionLine(info, ok))
	return err
}

// versionLine describes the build: the module version ("(devel)" for a
// build from a work tree), the VCS revision and time when the build recorded
// them ("unknown" when not, as with go run or -buildvcs=false), and the Go
// version.
func versionLine(info *debug.BuildInfo, ok bool) string {
	version, goVersion := "(devel)", "unknown"
	rev, when, modified := "unknown", "", false
	if ok && info != nil {
		if info.Main.Version != "" {
			version = info.Main.Version
		}
		if info.GoVersion != "" {
			goVersion = info.GoVersion
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	line := fmt.Sprintf("energyapi %s, revision %s", version, rev)
	if modified {
		line += " (modified)"
	}
	if when != "" {
		line += ", committed " + when
	}
	return line + ", " + goVersion
}
