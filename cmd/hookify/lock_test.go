package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/hookify/hookify/writer"
)

// TestHoldLock is not a test: TestBuildLock runs it in a child process, where
// it takes the build lock of $HOOKIFY_TEST_HOLD_LOCK, says "locked", and
// holds the lock until it is killed, as a build that hangs would.
func TestHoldLock(t *testing.T) {
	root := os.Getenv("HOOKIFY_TEST_HOLD_LOCK")
	if root == "" {
		t.Skip("the child process of TestBuildLock")
	}
	unlock, err := writer.Lock(root, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("locked")
	time.Sleep(time.Minute) // TestBuildLock kills it long before
	unlock()
}

// TestBuildLock: a build waits for the build lock for a bounded time, then
// refuses, naming the holder, and changes nothing; when the holder is killed,
// the lock file it leaves behind locks nothing and the next build runs.
func TestBuildLock(t *testing.T) {
	root := t.TempDir()
	rule := "---\nname: block-rm\nevent: bash\naction: block\npattern: rm -rf\n---\nNo.\n"
	if err := os.MkdirAll(filepath.Join(root, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".claude/hookify.block-rm.local.md"), []byte(rule), 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	holder := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHoldLock$")
	holder.Env = append(os.Environ(), "HOOKIFY_TEST_HOLD_LOCK="+root)
	out, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer holder.Process.Kill()
	if line, err := bufio.NewReader(out).ReadString('\n'); line != "locked\n" {
		t.Fatalf("the holder said %q, %v; want locked", line, err)
	}

	defer func(w time.Duration) { lockWait = w }(lockWait)
	lockWait = 100 * time.Millisecond
	var stdout, stderr bytes.Buffer
	if code := run([]string{"build", "-C", root}, nil, &stdout, &stderr); code != 1 {
		t.Fatalf("build while another holds the lock: exit %d, want 1\n%s", code, stderr.String())
	}
	want := regexp.MustCompile(fmt.Sprintf(`^\.cursor/hooks/\.hookify\.lock: error: another hookify build is writing here \(holder: pid %d on [^)]*\) and still was after 100ms; let it finish and build again\.`, holder.Process.Pid))
	if !want.Match(stderr.Bytes()) {
		t.Errorf("build's refusal = %q, want it to match %s", stderr.String(), want)
	}
	if _, err := os.Stat(filepath.Join(root, ".cursor/hooks.json")); !os.IsNotExist(err) {
		t.Errorf("the refused build wrote hooks.json (%v)", err)
	}

	// Killed, the holder leaves its lock file behind; it locks nothing.
	holder.Process.Kill()
	holder.Wait()
	if _, err := os.Stat(filepath.Join(root, writer.LockPath)); err != nil {
		t.Fatalf("the killed holder left no lock file: %v", err)
	}
	lockWait = 10 * time.Second
	stderr.Reset()
	if code := run([]string{"build", "-C", root}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("build after the holder was killed: exit %d\n%s", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(root, writer.LockPath)); !os.IsNotExist(err) {
		t.Errorf("the build left the lock file behind (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(root, ".cursor/hooks/hookify-beforeShellExecution.sh")); err != nil {
		t.Errorf("the build wrote no script: %v", err)
	}
}
