//go:build unix

package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
)

// withUmask runs the test under umask 022, the usual default, under which a
// file SQLite created itself would be 0644: with a stricter umask inherited
// from the environment the mode checks below would pass whatever Open did.
func withUmask(t *testing.T) {
	old := syscall.Umask(0o022)
	t.Cleanup(func() { syscall.Umask(old) })
}

func perm(t testing.TB, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// TestNewStoreFilesAreOwnerOnly checks that a new database file and the -wal
// and -shm files SQLite adds beside it are 0600: they hold the signing keys.
func TestNewStoreFilesAreOwnerOnly(t *testing.T) {
	withUmask(t)
	path := filepath.Join(t.TempDir(), "energy.db")
	s := openStore(t, path)
	// A write, so that the WAL holds pages and both companions exist.
	if err := s.CreateClient(t.Context(), auth.Client{ID: "c", Name: "c", SecretHash: []byte{1}, Created: time.Unix(1, 0)}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if got := perm(t, p); got != 0o600 {
			t.Errorf("%s: got mode %04o, want 0600", filepath.Base(p), got)
		}
	}
}

func TestOpenRefusesFilesOpenToOthers(t *testing.T) {
	withUmask(t)
	for _, tt := range []struct {
		name  string
		modes map[string]fs.FileMode // suffix -> mode of the files to make
		bad   string                 // the suffix of the file the error must name
	}{
		{"world-readable database", map[string]fs.FileMode{"": 0o644}, ""},
		{"group-readable database", map[string]fs.FileMode{"": 0o640}, ""},
		{"group-writable database", map[string]fs.FileMode{"": 0o620}, ""},
		{"readable WAL", map[string]fs.FileMode{"": 0o600, "-wal": 0o644}, "-wal"},
		{"readable shared memory", map[string]fs.FileMode{"": 0o600, "-wal": 0o600, "-shm": 0o604}, "-shm"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "energy.db")
			// A real database, so that only the modes can make Open fail.
			s, err := Open(t.Context(), path)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			for suffix, mode := range tt.modes {
				if err := os.WriteFile(path+suffix, nil, 0o600); suffix != "" && err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path+suffix, mode); err != nil {
					t.Fatal(err)
				}
			}
			s, err = Open(t.Context(), path)
			if err == nil {
				s.Close()
				t.Fatalf("got a store, want a refusal")
			}
			var me *ModeError
			bad := path + tt.bad
			for _, want := range []string{bad, fmt.Sprintf("mode %04o", tt.modes[tt.bad]), `"chmod 600 ` + bad + `"`} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("got %v, want it to say %s", err, want)
				}
			}
			if !errors.As(err, &me) || me.Path != bad {
				t.Errorf("got %#v, want a *ModeError for %s", err, bad)
			}
		})
	}
}

func TestOpenExistingCreatesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.db")
	s, err := OpenExisting(t.Context(), path)
	if err == nil {
		s.Close()
		t.Fatal("got a store, want an error")
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("got %v, want an error wrapping fs.ErrNotExist", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after OpenExisting: stat %s: %v, want no file", path, err)
	}
	// The same file, once created, opens.
	openStore(t, path).Close()
	s2, err := OpenExisting(t.Context(), path)
	if err != nil {
		t.Fatalf("existing file: %v", err)
	}
	s2.Close()
}

// TestPingNoticesTheFile has the database file removed, replaced or spoilt
// under an open store: Ping, which serve's /readyz calls, must fail and name
// the file, where the connections alone would go on using the old inode.
func TestPingNoticesTheFile(t *testing.T) {
	for _, tt := range []struct {
		name  string
		spoil func(t *testing.T, path string)
		want  string
	}{
		{"removed", func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}, "no longer exists"},
		{"replaced", func(t *testing.T, path string) {
			other := path + ".new"
			openStore(t, other) // a valid database, but another file
			if err := os.Rename(other, path); err != nil {
				t.Fatal(err)
			}
		}, "replaced"},
		{"overwritten", func(t *testing.T, path string) {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteAt([]byte("not a database!!"), 0); err != nil {
				t.Fatal(err)
			}
		}, "cannot be read"},
		{"unreadable", func(t *testing.T, path string) {
			if err := os.Chmod(path, 0); err != nil {
				t.Fatal(err)
			}
		}, "cannot be read"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "unreadable" && os.Geteuid() == 0 {
				// Root reads files whatever their mode: the case runs in a
				// copy of this test binary as nobody.
				runAsNobody(t)
				return
			}
			path := filepath.Join(t.TempDir(), "energy.db")
			s := openStore(t, path)
			if err := s.Ping(t.Context()); err != nil {
				t.Fatalf("before: %v", err)
			}
			tt.spoil(t, path)
			err := s.Ping(t.Context())
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error naming %s with %q", err, path, tt.want)
			}
		})
	}
}

// runAsNobody runs the test t names in a copy of this test binary as the
// user nobody, with a temporary directory nobody may write, and fails t if
// it does not pass there.
func runAsNobody(t *testing.T) {
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Fatalf("running as root, the case needs the user nobody: %v", err)
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32)
	gid, _ := strconv.ParseUint(u.Gid, 10, 32)
	dir := t.TempDir()
	// t.TempDir's parent is root's alone (0700): open both to nobody.
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "sqlite.test")
	data, err := os.ReadFile(os.Args[0])
	if err == nil {
		err = os.WriteFile(bin, data, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "TMPDIR="+dir)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
}
