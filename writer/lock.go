package writer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/lockedfile"

	"github.com/hookify/hookify/codegen"
	"github.com/hookify/hookify/diag"
)

// LockPath is the build lock, beside the outputs it guards (README,
// "Ownership").
const LockPath = codegen.HooksDir + "/.hookify.lock"

// ErrLocked is wrapped by Lock's error when another build held the lock for
// all of the wait.
var ErrLocked = errors.New("another hookify build is writing here")

// Lock takes the build lock of the output root, waiting at most wait for a
// build that holds it, and returns the function that releases it. Hold it
// from before the compiler reads the outputs (hooks.json) until Apply is
// done, so that two builds at once run one after the other and never leave
// a mixture of both.
//
// The lock is an operating-system lock on the file LockPath
// (go-internal's lockedfile: flock, or LockFileEx on Windows), which the
// system releases when its process ends, killed or not: a lock file that a
// killed build left behind locks nothing. Lock creates the file, and the
// directories on the way to it, and unlock removes them again where they
// are empty (on Windows an open file cannot be removed, so the lock file may
// stay; it is harmless). The file holds the holder's process id and host,
// for the message of a build that waited in vain.
func Lock(root string, wait time.Duration) (unlock func(), err error) {
	deadline := time.Now().Add(wait)
	name := filepath.Join(root, osPath(LockPath))
	for {
		created, err := lockDirs(root)
		if err != nil {
			// No directory for the lock (.cursor is a file or a symbolic
			// link, or cannot be made): then Plan or Apply refuses to
			// write anything either, and says why better.
			return func() {}, nil
		}
		f, err := lockWithin(name, time.Until(deadline), wait)
		if errors.Is(err, fs.ErrNotExist) && time.Now().Before(deadline) {
			// The holder removed the directories it had made between
			// lockDirs and the open: make them again.
			continue
		}
		if err != nil {
			return nil, err
		}
		// The holder removes the file before it releases the lock, so a
		// lock on a file that is no longer at the path locks nothing.
		fi, ferr := f.Stat()
		pi, perr := os.Stat(name)
		if ferr != nil || perr != nil || !os.SameFile(fi, pi) {
			f.Close()
			continue
		}
		host, _ := os.Hostname()
		f.Truncate(0)
		fmt.Fprintf(f, "pid %d on %s\n", os.Getpid(), host)
		return func() {
			os.Remove(name)
			f.Close()
			removeEmpty(root, created)
		}, nil
	}
}

// lockWithin opens and locks name, giving up after wait, the rest of the
// whole wait that the message names. A lock that comes after the wait is
// released at once.
func lockWithin(name string, wait, whole time.Duration) (*lockedfile.File, error) {
	type result struct {
		f   *lockedfile.File
		err error
	}
	done := make(chan result, 1)
	go func() {
		f, err := lockedfile.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		done <- result{f, err}
	}()
	timer := time.NewTimer(max(wait, 0))
	defer timer.Stop()
	select {
	case r := <-done:
		if r.err != nil {
			return nil, errorAt(LockPath, 0, "cannot lock: %w", diag.WithoutPath(r.err))
		}
		return r.f, nil
	case <-timer.C:
		go func() {
			if r := <-done; r.f != nil {
				r.f.Close()
			}
		}()
		holder, _ := os.ReadFile(name)
		who := strings.TrimSpace(string(holder))
		if who == "" {
			who = "unknown"
		}
		return nil, errorAt(LockPath, 0, "%w (holder: %s) and still was after %v; let it finish and build again. The lock is released when that build ends, even if it is killed; a build that hangs can be stopped", ErrLocked, who, whole)
	}
}

// lockDirs creates the missing directories on the way to LockPath, refusing
// symbolic links as Apply does, and returns the ones it created.
func lockDirs(root string) ([]string, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	created, err := mkdirs(r, LockPath)
	if err != nil {
		removeEmpty(root, created)
		return nil, err
	}
	return created, nil
}

// removeEmpty removes the directories that Lock created, innermost first,
// where they are still empty.
func removeEmpty(root string, created []string) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return
	}
	defer r.Close()
	for i := len(created) - 1; i >= 0; i-- {
		r.Remove(created[i]) // fails, harmlessly, on a directory that is not empty
	}
}
