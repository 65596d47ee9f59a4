//go:build !linux

package pgtest

import (
	"errors"
	"syscall"
)

// procAttr runs a server program as this process. Elsewhere than on Linux
// tests that start a server must not run as root (serverUser then returns
// nil), and a server outlives a test binary that dies without stopping it.
func procAttr(*syscall.Credential) *syscall.SysProcAttr { return nil }

// children is not implemented here: Server.Hang needs Linux.
func children(int) ([]int, error) {
	return nil, errors.New("finding a process's children needs Linux's /proc")
}
