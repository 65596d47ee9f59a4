package pgtest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// procAttr runs a server program as cred (nil: as this process). The kernel
// shuts the server down (SIGINT: fast shutdown) if this process dies without
// stopping it, a test binary killed by its timeout, say, so that no server
// outlives its tests.
func procAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGINT}
}

// children returns the processes whose parent is pid, from /proc.
func children(pid int) ([]int, error) {
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		return nil, err
	}
	var out []int
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue // the process has exited meanwhile
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses,
		// so the fields after it are found from its last ')'.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 2 {
			continue
		}
		if ppid, _ := strconv.Atoi(f[1]); ppid == pid {
			child, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
			out = append(out, child)
		}
	}
	return out, nil
}
