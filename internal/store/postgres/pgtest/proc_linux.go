package pgtest

import "syscall"

// procAttr runs a server program as cred (nil: as this process). The kernel
// shuts the server down (SIGINT: fast shutdown) if this process dies without
// stopping it, a test binary killed by its timeout, say, so that no server
// outlives its tests.
func procAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGINT}
}
