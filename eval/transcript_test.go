package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/ir"
	"github.com/hookify/hookify/payload/payloadtest"
)

// transcriptRules test the transcript of a stop payload in ways that see
// its exact bytes: the end of the text with and without a final newline,
// the byte 01 that stands for a NUL, CR, text after a NUL, and a literal.
var transcriptRules = map[string]string{
	"end-nl":   "event: stop\naction: warn\nconditions:\n  - field: transcript\n    operator: regex_match\n    pattern: 'done\\n\\Z'",
	"end":      "event: stop\naction: warn\nconditions:\n  - field: transcript\n    operator: regex_match\n    pattern: 'done\\Z'",
	"nul":      "event: stop\naction: warn\nconditions:\n  - field: transcript\n    operator: regex_match\n    pattern: 'a\\x01b'",
	"cr":       "event: stop\naction: warn\nconditions:\n  - field: transcript\n    operator: regex_match\n    pattern: '\\r\\n[^\\n]*SECRET'",
	"contains": "event: stop\naction: block\nconditions:\n  - field: transcript\n    operator: not_contains\n    pattern: tests passed",
	"empty":    "event: stop\naction: warn\nconditions:\n  - field: transcript\n    operator: equals\n    pattern: ''",
}

// transcriptPieces make up generated transcripts and file names.
var (
	textPieces = []string{"done", "\n", "\r\n", "\x00", "\x01", "a", "b", "a\x00b", "a\x01b", "SECRET", "tests passed", "é", "\xff", "{\"role\":\"user\"}", " "}
	namePieces = []string{"t", "'", "''", " ", "$(touch pwned)", "`id`", "\"", "\\", ";", "*", "\n", "é", "-x", ".jsonl"}
)

// runHook runs the hooks.json command of the one hook of the project at
// root as Cursor does (sh -c, from the root, raw on stdin) with the
// environment env, and returns its stdout, stderr and exit code.
func runHook(t *testing.T, root string, raw []byte, env ...string) (out, errOut []byte, code int) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ".cursor/hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Hooks map[string][]struct{ Command string }
	}
	if err := json.Unmarshal(data, &cfg); err != nil || len(cfg.Hooks) != 1 {
		t.Fatalf("hooks.json: %v, want one event:\n%s", err, data)
	}
	var command string
	for _, entries := range cfg.Hooks {
		command = entries[0].Command
	}
	cmd := testenv.Command(t, testenv.LookPath(t, "sh"), "-c", command)
	cmd.Dir = root
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(raw)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.Bytes(), stderr.Bytes(), code
}

// TestDifferentialTranscripts: the stop hook reads generated transcripts,
// at generated paths (quotes, spaces, command substitutions, newlines; a
// directory, a missing file, $CURSOR_TRANSCRIPT_PATH), as the evaluator
// does, with every awk.
func TestDifferentialTranscripts(t *testing.T) {
	fsys := fstest.MapFS{}
	for name, front := range transcriptRules {
		fsys[".claude/hookify."+name+".local.md"] = &fstest.MapFile{Data: []byte("---\n" + front + "\n---\nMessage of " + name + ".\n")}
	}
	p := compileProject(t, fsys, "transcripts", nil, ir.PerEvent, ir.WarnContext)
	if p == nil {
		t.Fatal("the transcript rules do not compile")
	}
	hooks := Hooks(p.plan, ir.Stop)
	if len(hooks) != 1 {
		t.Fatalf("%d stop hooks, want 1", len(hooks))
	}
	files := t.TempDir()
	r := rand.New(rand.NewPCG(5, 6))
	type tcase struct {
		path, env string
		raw       []byte
	}
	var cases []tcase
	for i := range 60 {
		var name strings.Builder
		fmt.Fprintf(&name, "%02d", i)
		for range r.IntN(4) {
			name.WriteString(namePieces[r.IntN(len(namePieces))])
		}
		var text bytes.Buffer
		for range r.IntN(12) {
			text.WriteString(textPieces[r.IntN(len(textPieces))])
		}
		path := filepath.Join(files, name.String())
		if err := os.WriteFile(path, text.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		env := ""
		if i%5 == 0 {
			path, env = "", path // the path from the environment
		}
		cases = append(cases, tcase{path: path, env: env})
	}
	cases = append(cases, tcase{path: files}, tcase{path: filepath.Join(files, "missing")}, tcase{})
	for i := range cases {
		c := &cases[i]
		c.raw = []byte(fmt.Sprintf(`{"hook_event_name":"stop","status":"completed","loop_count":0,"transcript_path":%s}`, ir.JSONString(c.path)))
	}
	for _, awk := range testenv.Awks {
		dir := testenv.AwkDir(t, awk)
		for _, c := range cases {
			env := Env{ReadFile: p.readFile, Getenv: func(k string) string {
				if k == ir.TranscriptEnv {
					return c.env
				}
				return ""
			}}
			want := Hook(hooks[0], c.raw, env)
			out, errOut, code := runHook(t, p.root, c.raw, "PATH="+dir, ir.TranscriptEnv+"="+c.env)
			if !bytes.Equal(out, want.Answer) || code != want.Exit || len(errOut) > 0 {
				text, _ := os.ReadFile(c.path + c.env)
				t.Errorf("%s: transcript %q (%q, env %q):\nscript: %q exit %d %s\nevaluator: %q exit %d", awk, text, c.path, c.env, out, code, errOut, want.Answer, want.Exit)
			}
		}
		if _, err := os.Stat(filepath.Join(p.root, "pwned")); err == nil {
			t.Fatalf("%s: a transcript path ran as a command", awk)
		}
	}
}

// lastMessageRules test last_assistant_message in ways that see its bytes
// (its ends, the byte 01 of a \u0000, a newline between parts, non-ASCII,
// the empty message), alone and beside a transcript condition.
var lastMessageRules = map[string]string{
	"lm-empty":  "event: stop\naction: warn\nconditions:\n  - field: last_assistant_message\n    operator: equals\n    pattern: ''",
	"lm-done":   "event: stop\naction: block\nconditions:\n  - field: last_assistant_message\n    operator: regex_match\n    pattern: 'done\\Z'",
	"lm-start":  "event: stop\naction: warn\nconditions:\n  - field: last_assistant_message\n    operator: regex_match\n    pattern: '\\A(a|all tests pass)'",
	"lm-nul":    "event: stop\naction: warn\nconditions:\n  - field: last_assistant_message\n    operator: regex_match\n    pattern: '\\x01'",
	"lm-lines":  "event: stop\naction: warn\nconditions:\n  - field: last_assistant_message\n    operator: regex_match\n    pattern: '\\n[^\\n]*(é|😀|\\uFFFD)'",
	"lm-quote":  "event: stop\naction: block\nconditions:\n  - field: last_assistant_message\n    operator: contains\n    pattern: '\"role\":\"'",
	"lm-secret": "event: stop\naction: block\nconditions:\n  - field: transcript\n    operator: contains\n    pattern: SECRET\n  - field: last_assistant_message\n    operator: not_contains\n    pattern: SECRET",
}

// TestDifferentialLastMessage: the stop hook of rules on
// last_assistant_message reads generated transcripts
// (payloadtest.GenerateTranscript), a missing file and none, as the
// evaluator does, with every awk.
func TestDifferentialLastMessage(t *testing.T) {
	fsys := fstest.MapFS{}
	for name, front := range lastMessageRules {
		fsys[".claude/hookify."+name+".local.md"] = &fstest.MapFile{Data: []byte("---\n" + front + "\n---\nMessage of " + name + ".\n")}
	}
	r := rand.New(rand.NewPCG(9, 20))
	n := 100
	if testing.Short() {
		n = 30
	}
	files := t.TempDir()
	var paths []string
	for i := range n {
		path := filepath.Join(files, fmt.Sprint(i, ".jsonl"))
		if err := os.WriteFile(path, []byte(payloadtest.GenerateTranscript(r)), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	paths = append(paths, filepath.Join(files, "missing"), "")
	fired := map[string]int{}
	{
		p := compileProject(t, fsys, "last-message", nil, ir.PerEvent, ir.WarnContext)
		if p == nil {
			t.Fatal("the last_assistant_message rules do not compile")
		}
		hooks := Hooks(p.plan, ir.Stop)
		if len(hooks) != 1 {
			t.Fatalf("%d stop hooks, want 1", len(hooks))
		}
		env := Env{ReadFile: p.readFile}
		for _, awk := range testenv.Awks {
			dir := testenv.AwkDir(t, awk)
			for _, path := range paths {
				raw := []byte(fmt.Sprintf(`{"hook_event_name":"stop","status":"completed","loop_count":0,"transcript_path":%s}`, ir.JSONString(path)))
				want := Hook(hooks[0], raw, env)
				for _, m := range want.Matched {
					fired[m.Name]++
				}
				out, errOut, code := runHook(t, p.root, raw, "PATH="+dir)
				if !bytes.Equal(out, want.Answer) || code != want.Exit || len(errOut) > 0 {
					text, _ := os.ReadFile(path)
					t.Errorf("%s: transcript %q:\nscript: %q exit %d %s\nevaluator: %q exit %d", awk, text, out, code, errOut, want.Answer, want.Exit)
				}
			}
		}
	}
	for name := range lastMessageRules {
		if fired[name] == 0 {
			t.Errorf("rule %s never fired: the generated transcripts do not reach it", name)
		}
	}
}
