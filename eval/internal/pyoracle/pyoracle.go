// Package pyoracle asks python3 what Python's re answers, for the tests of
// hookify's regex engine and evaluator. Without python3 the tests skip, or
// fail under HOOKIFY_REQUIRE_TOOLS=1 (package testenv).
package pyoracle

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookify/hookify/internal/testenv"
)

//go:embed oracle.py
var script []byte

// Request asks about one pattern, compiled as re.compile(Pattern,
// re.IGNORECASE): Samples strings generated from it (seeded by Seed), and
// the given Subjects.
type Request struct {
	Pattern  string   `json:"pattern"`
	Subjects []string `json:"subjects,omitempty"`
	Samples  int      `json:"samples,omitempty"`
	Seed     int      `json:"seed,omitempty"`
}

// Answer is Python's answer to a Request. Error is set when Python refuses
// the pattern. Otherwise Matches holds re.search's answer for each sample,
// then for each subject.
type Answer struct {
	Error   *string  `json:"error"`
	Samples []string `json:"samples"`
	Matches []bool   `json:"matches"`
}

// Run runs a Python program given as text, with stdin, and returns stdout.
func Run(t testing.TB, program string, stdin []byte) []byte {
	t.Helper()
	file := filepath.Join(t.TempDir(), "prog.py")
	if err := os.WriteFile(file, []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := testenv.Command(t, "python3", file)
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Env = append(os.Environ(), "PYTHONIOENCODING=utf-8", "PYTHONWARNINGS=ignore", "PYTHONHASHSEED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, stderr.Bytes())
	}
	return out
}

// Ask sends the requests to Python in one run.
func Ask(t testing.TB, reqs []Request) []Answer {
	t.Helper()
	in, err := json.Marshal(reqs)
	if err != nil {
		t.Fatal(err)
	}
	out := Run(t, string(script), in)
	var answers []Answer
	if err := json.Unmarshal(out, &answers); err != nil {
		t.Fatalf("oracle output: %v", err)
	}
	if len(answers) != len(reqs) {
		t.Fatalf("oracle gave %d answers for %d requests", len(answers), len(reqs))
	}
	return answers
}
