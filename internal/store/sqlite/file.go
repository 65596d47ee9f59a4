package sqlite

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
)

// fileMode is the mode of a database file this package creates. The file
// holds the token signing keys and the key that hashes client secrets: anyone
// who can read it can mint tokens, so only its owner may.
const fileMode fs.FileMode = 0o600

// ModeError is the error Open returns for a database file, or one of its -wal
// and -shm companions, that users other than its owner may access.
type ModeError struct {
	Path string      // the file, as the caller named it
	Mode fs.FileMode // its permission bits
}

func (e *ModeError) Error() string {
	return fmt.Sprintf("%s has mode %04o: users other than its owner can reach the token signing keys it holds; "+
		`restrict it with "chmod 600 %s" and start again`, e.Path, e.Mode.Perm(), e.Path)
}

// prepareFile makes sure the database file at abs exists, creating it empty
// with mode 0600 if create is set and it does not, and that neither it nor its
// companions are open to other users. Creating the file here, rather than
// leaving it to SQLite, is what gives it that mode whatever the umask: SQLite
// then opens an existing file, and gives the -wal and -shm files the same
// mode. It returns the file's FileInfo for the readiness check; an error
// wrapping fs.ErrNotExist if the file does not exist and create is not set;
// and a *ModeError for a file with group or other permissions. name is the
// path as the caller gave it, for messages.
func prepareFile(name, abs string, create bool) (fs.FileInfo, error) {
	if create {
		f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE|os.O_EXCL, fileMode)
		switch {
		case err == nil:
			if err := f.Close(); err != nil {
				return nil, err
			}
		case !errors.Is(err, fs.ErrExist): // another process may have just created it
			return nil, err
		}
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	if err := checkMode(name, fi); err != nil {
		return nil, err
	}
	// The -wal and -shm files SQLite keeps beside a database in WAL mode
	// hold its latest pages; SQLite creates them with the database's mode.
	for _, suffix := range []string{"-wal", "-shm"} {
		cfi, err := os.Stat(abs + suffix)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if err := checkMode(name+suffix, cfi); err != nil {
			return nil, err
		}
	}
	return fi, nil
}

// checkMode returns a *ModeError if group or other permission bits are set.
// Windows has no such bits; its files are left to their ACLs.
func checkMode(name string, fi fs.FileInfo) error {
	if runtime.GOOS == "windows" || fi.Mode().Perm()&0o077 == 0 {
		return nil
	}
	return &ModeError{Path: name, Mode: fi.Mode().Perm()}
}

// header starts every SQLite database file.
const header = "SQLite format 3\x00"

// checkFile reports whether the file at abs is still the database file that
// was opened as opened (the same file, not one put in its place) and can
// still be read as a database. name is the path as the caller gave it.
func checkFile(name, abs string, opened fs.FileInfo) error {
	fi, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s no longer exists", name)
	}
	if err != nil {
		return err
	}
	if !os.SameFile(opened, fi) {
		return fmt.Errorf("%s was replaced by another file after it was opened", name)
	}
	f, err := os.Open(abs)
	if err != nil {
		return fmt.Errorf("%s cannot be read: %w", name, err)
	}
	defer f.Close()
	got := make([]byte, len(header))
	if _, err := io.ReadFull(f, got); err != nil || string(got) != header {
		return fmt.Errorf("%s cannot be read as a SQLite database", name)
	}
	return nil
}
