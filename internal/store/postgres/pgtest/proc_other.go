//go:build !linux

package pgtest

import "syscall"

// procAttr runs a server program as this process. Elsewhere than on Linux
// tests that start a server must not run as root (serverUser then returns
// nil), and a server outlives a test binary that dies without stopping it.
func procAttr(*syscall.Credential) *syscall.SysProcAttr { return nil }
