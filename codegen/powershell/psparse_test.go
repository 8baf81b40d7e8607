package powershell

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookify/hookify/internal/testenv"
)

// The tree-sitter syntax check (testdata/psparse) needs node and the npm
// packages that .ci/setup installs there. Without them the tests that use it
// skip, and fail under HOOKIFY_REQUIRE_TOOLS=1 (.ci/run sets it): the check
// is the only proof here that generated PowerShell parses.

// parseFiles runs the syntax check on files and fails the test with its
// report if any does not parse.
func parseFiles(t testing.TB, files []string) {
	t.Helper()
	argv := testenv.PSParse(t, files...)
	out, err := testenv.Command(t, argv[0], argv[1:]...).CombinedOutput()
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
	argv := testenv.PSParse(t, "--serve") // skips here, not inside Do
	serveOnce.Do(func() {
		// The server outlives the test that starts it.
		cmd, _ := testenv.CommandTimeout(30*time.Minute, argv[0], argv[1:]...)
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
