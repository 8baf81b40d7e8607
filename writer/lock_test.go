package writer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestLock(t *testing.T) {
	root := t.TempDir()
	lockFile := filepath.Join(root, osPath(LockPath))
	unlock, err := Lock(root, 5*time.Second)
	if err != nil {
		t.Fatalf("Lock: %v", err)
	}
	data, err := os.ReadFile(lockFile)
	if err != nil || !strings.HasPrefix(string(data), fmt.Sprintf("pid %d on ", os.Getpid())) {
		t.Errorf("lock file holds %q, %v; want our pid and host", data, err)
	}

	// A second build gives up after its wait, naming the holder.
	_, err = Lock(root, 50*time.Millisecond)
	var e *Error
	if !errors.Is(err, ErrLocked) || !errors.As(err, &e) || e.Pos.File != LockPath {
		t.Fatalf("second Lock = %v, want an *Error at %s wrapping ErrLocked", err, LockPath)
	}
	if want := fmt.Sprintf("(holder: pid %d on ", os.Getpid()); !strings.Contains(err.Error(), want) {
		t.Errorf("second Lock error %q does not name the holder (%q)", err, want)
	}

	// A build that waits gets the lock once the first releases it.
	got := make(chan error, 1)
	go func() {
		unlock2, err := Lock(root, time.Minute)
		if err == nil {
			unlock2()
		}
		got <- err
	}()
	unlock()
	if err := <-got; err != nil {
		t.Fatalf("waiting Lock: %v", err)
	}

}

// TestLockCleansUp: released, the lock leaves nothing behind: not the file,
// and not the directories it created. (Not asserted after TestLock's two
// lockers: when the waiter creates the file again before the first holder
// removes the directories, those directories stay, and that is harmless.)
func TestLockCleansUp(t *testing.T) {
	root := t.TempDir()
	unlock, err := Lock(root, 5*time.Second)
	if err != nil {
		t.Fatalf("Lock: %v", err)
	}
	unlock()
	if _, err := os.Lstat(filepath.Join(root, ".cursor")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf(".cursor is still there after unlock (%v)", err)
	}
}

// TestLockLeftBehind: a lock file that a killed build left behind locks
// nothing, and directories that were there stay.
func TestLockLeftBehind(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{LockPath: "pid 1 on elsewhere\n", ".cursor/hooks/hookify-a.sh": script})
	unlock, err := Lock(root, 5*time.Second)
	if err != nil {
		t.Fatalf("Lock with a lock file left behind: %v", err)
	}
	unlock()
	want := map[string]string{".cursor": "dir", ".cursor/hooks": "dir", ".cursor/hooks/hookify-a.sh": "0755 " + script}
	if diff := cmp.Diff(want, tree(t, root)); diff != "" {
		t.Errorf("tree after unlock (-want +got):\n%s", diff)
	}
}

// TestLockNoDirectory: where .cursor is a file, there is no lock to take,
// and Plan is the one to refuse.
func TestLockNoDirectory(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{".cursor": "x"})
	unlock, err := Lock(root, time.Second)
	if err != nil {
		t.Fatalf("Lock: %v", err)
	}
	unlock()
	if _, err := Plan(os.DirFS(root), []File{{Path: ".cursor/hooks/hookify-a.sh", Data: []byte(script), Mode: 0o755}}, nil); err == nil {
		t.Error("Plan accepted .cursor as a file")
	}
}
