package powershell

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// The tree-sitter syntax check (testdata/psparse) needs node and the npm
// packages that .ci/setup installs there. Without them the tests that use it
// fail rather than skip: the check is the only proof here that generated
// PowerShell parses.

// psparseDir returns the absolute path of the psparse tool directory.
func psparseDir(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata", "psparse")
}

// psparseCmd returns the command that runs psparse.mjs with args, or fails
// the test when node or the npm packages are missing.
func psparseCmd(t testing.TB, args ...string) *exec.Cmd {
	t.Helper()
	dir := psparseDir(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not on PATH: the PowerShell syntax check needs it (.ci/setup installs it)")
	}
	for _, pkg := range []string{"web-tree-sitter", "tree-sitter-powershell"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg, "package.json")); err != nil {
			t.Fatalf("npm package %s is missing in %s: run \"npm ci --ignore-scripts\" there (.ci/setup does)", pkg, dir)
		}
	}
	return exec.Command(node, append([]string{"--liftoff-only", filepath.Join(dir, "psparse.mjs")}, args...)...)
}

// parseFiles runs the syntax check on files and fails the test with its
// report if any does not parse.
func parseFiles(t testing.TB, files []string) {
	t.Helper()
	out, err := psparseCmd(t, files...).CombinedOutput()
	if err != nil {
		t.Errorf("PowerShell syntax check failed (%v):\n%s", err, out)
	}
}

// parseResult is psparse's answer for one source text.
type parseResult struct {
	Errors []string `json:"errors"`
	Values []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"values"`
}

// server is one psparse --serve process shared by the tests of a run.
type server struct {
	mu  sync.Mutex
	in  io.WriteCloser
	out *bufio.Reader
}

var (
	serveOnce sync.Once
	serveProc *server
	serveErr  string
)

// parseSource parses one PowerShell source text with the shared server.
func parseSource(t testing.TB, src string) parseResult {
	t.Helper()
	serveOnce.Do(func() {
		cmd := psparseCmd(t, "--serve")
		cmd.Stderr = os.Stderr
		in, err := cmd.StdinPipe()
		if err != nil {
			serveErr = err.Error()
			return
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			serveErr = err.Error()
			return
		}
		if err := cmd.Start(); err != nil {
			serveErr = err.Error()
			return
		}
		serveProc = &server{in: in, out: bufio.NewReaderSize(out, 1<<20)}
	})
	if serveProc == nil {
		t.Fatalf("cannot start psparse --serve: %s", serveErr)
	}
	s := serveProc
	s.mu.Lock()
	defer s.mu.Unlock()
	line, _ := json.Marshal(src)
	if _, err := s.in.Write(append(line, '\n')); err != nil {
		t.Fatalf("psparse --serve: %v", err)
	}
	answer, err := s.out.ReadString('\n')
	if err != nil {
		t.Fatalf("psparse --serve: %v", err)
	}
	var r parseResult
	if err := json.Unmarshal([]byte(answer), &r); err != nil {
		t.Fatalf("psparse --serve answered %q: %v", strings.TrimSpace(answer), err)
	}
	return r
}
