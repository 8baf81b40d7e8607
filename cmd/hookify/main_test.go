package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/hookify/hookify/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"hookify": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScript runs every testdata/script/*.txtar once. $HOOK_PATH puts the
// first awk (mawk) on the hooks' PATH, as "awk" and "mawk", and the cursor
// command runs each hook with each awk in turn and fails unless they all
// answer alike. A script that sets $HOOK_BIN puts that folder first on the
// hooks' PATH for each awk.
func TestScript(t *testing.T) {
	var paths []string
	for _, awk := range testenv.Awks {
		paths = append(paths, testenv.AwkDir(t, awk)+":/usr/bin:/bin")
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOOK_PATH", paths[0])
			env.Setenv("HOME", env.WorkDir+"/home")
			env.Setenv("LC_ALL", "C.UTF-8")
			return nil
		},
		// [pwsh]: pwsh is on PATH; a script that needs it skips
		// without it, and fails under HOOKIFY_REQUIRE_PWSH=1.
		Condition: func(cond string) (bool, error) {
			if cond != "pwsh" {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			return testenv.Have("pwsh")
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"cursor": func(ts *testscript.TestScript, neg bool, args []string) {
				hookPaths := paths
				if p := ts.Getenv("HOOK_PATH"); p != paths[0] {
					hookPaths = []string{p} // the script set its own
				}
				if bin := ts.Getenv("HOOK_BIN"); bin != "" {
					// More programs on the hooks' PATH (hookify itself).
					hookPaths = slices.Clone(hookPaths)
					for i := range hookPaths {
						hookPaths[i] = bin + ":" + hookPaths[i]
					}
				}
				cmdCursor(ts, neg, args, hookPaths)
			},
			"status":           cmdStatus,
			"fresh-for-one-of": cmdFreshForOneOf,
			"pathdir":          cmdPathdir,
		},
	})
}

// cmdCursor runs the hooks of one Cursor event the way Cursor does: every
// hookify entry of .cursor/hooks.json (in the current directory) for the
// event, as sh -c '<command>' from the project root, with the payload file
// on stdin. It checks that each hook prints exactly one JSON object and
// exits 0, or prints nothing and exits non-zero (a hook that cannot
// decide), and writes each answer line (or "(nothing)") and exit code to
// stdout:
//
//	cursor [-restore] EVENT PAYLOAD
//
// prints "<answer>\nexit <code>\n" per entry. Each entry runs once for each
// of paths, the hook's PATH (one awk each), and all must give the same
// stdout and exit code. With -restore, the entries run one after the other
// for each path in turn, and .cursor/ is put back as it was before the
// first before each path's run: the call of a hook that rebuilds changes
// it, and Cursor started every entry from the hooks.json it read before;
// and an entry with a matcher runs only where its regex finds the
// payload's tool_name, as Cursor starts it.
// With !, it fails unless some hook blocks as Cursor 3.9.16 was seen to
// read answers (docs/cursor.md): permission deny or ask, or continue
// false, at exit 0; exit 2; or no decision from an entry with failClosed.
// Without !, it fails when one does.
func cmdCursor(ts *testscript.TestScript, neg bool, args []string, paths []string) {
	restore := len(args) > 0 && args[0] == "-restore"
	if restore {
		args = args[1:]
	}
	if len(args) != 2 {
		ts.Fatalf("usage: cursor [-restore] EVENT PAYLOAD")
	}
	root := ts.MkAbs(".")
	type entry struct {
		Command    string `json:"command"`
		Type       string `json:"type"`
		FailClosed bool   `json:"failClosed"`
		Matcher    string `json:"matcher"`
	}
	var cfg struct {
		Hooks map[string][]entry `json:"hooks"`
	}
	data, err := os.ReadFile(filepath.Join(root, ".cursor/hooks.json"))
	ts.Check(err)
	ts.Check(json.Unmarshal(data, &cfg))
	payload, err := os.ReadFile(ts.MkAbs(args[1]))
	ts.Check(err)
	if len(cfg.Hooks[args[0]]) == 0 {
		ts.Fatalf("no %s entries in .cursor/hooks.json", args[0])
	}
	var tool struct {
		Name *string `json:"tool_name"`
	}
	json.Unmarshal(payload, &tool) // a payload that is not JSON names no tool
	entries := slices.DeleteFunc(cfg.Hooks[args[0]], func(e entry) bool {
		if e.Type == "prompt" || !strings.Contains(e.Command, "hooks/hookify-") {
			return true
		}
		// With -restore, as Cursor starts an entry: where it has a
		// matcher, only for a tool the matcher's regex finds.
		if restore && e.Matcher != "" && tool.Name != nil {
			return !regexp.MustCompile(e.Matcher).MatchString(*tool.Name)
		}
		return false
	})
	type result struct {
		out, errOut []byte
		code        int
	}
	run := func(command, path string) result {
		cmd, cancel := testenv.CommandTimeout(20*time.Second, "/bin/sh", "-c", command)
		defer cancel()
		cmd.Dir = root
		cmd.Env = []string{
			"PATH=" + path,
			"HOME=" + ts.Getenv("HOME"),
			"CURSOR_PROJECT_DIR=" + root,
		}
		if v := ts.Getenv("CURSOR_TRANSCRIPT_PATH"); v != "" {
			cmd.Env = append(cmd.Env, "CURSOR_TRANSCRIPT_PATH="+v)
		}
		cmd.Stdin = bytes.NewReader(payload)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			ts.Fatalf("running %s: %v", command, err)
		}
		return result{stdout.Bytes(), stderr.Bytes(), code}
	}
	// results[i][j]: entry i with paths[j].
	results := make([][]result, len(entries))
	if restore {
		before, err := snapshot(filepath.Join(root, ".cursor"))
		ts.Check(err)
		for j, p := range paths {
			if j > 0 {
				ts.Check(before.restore())
			}
			for i, e := range entries {
				results[i] = append(results[i], run(e.Command, p))
			}
		}
	} else {
		for i, e := range entries {
			for _, p := range paths {
				results[i] = append(results[i], run(e.Command, p))
			}
		}
	}
	failed := false
	for i, e := range entries {
		r := results[i][0]
		for j, o := range results[i][1:] {
			if !bytes.Equal(o.out, r.out) || o.code != r.code {
				ts.Fatalf("%s: with PATH %s: %q exit %d (stderr %q); with PATH %s: %q exit %d (stderr %q)", e.Command, paths[0], r.out, r.code, r.errOut, paths[j+1], o.out, o.code, o.errOut)
			}
		}
		out, code := r.out, r.code
		var answer struct {
			Permission string `json:"permission"`
			Continue   *bool  `json:"continue"`
		}
		switch {
		case len(out) == 0 && code != 0:
			out = []byte("(nothing)\n")
			if code == 2 || e.FailClosed {
				failed = true
			}
		case code != 0:
			ts.Fatalf("%s: exit %d with an answer on stdout (Cursor would show it raw):\n%q", e.Command, code, out)
		case !json.Valid(out) || bytes.Count(out, []byte("\n")) != 1 || !bytes.HasSuffix(out, []byte("\n")) || out[0] != '{':
			ts.Fatalf("%s: stdout is not exactly one JSON object line:\n%q\nstderr:\n%s", e.Command, out, r.errOut)
		default:
			ts.Check(json.Unmarshal(out, &answer))
			if answer.Permission == "deny" || answer.Permission == "ask" || answer.Continue != nil && !*answer.Continue {
				failed = true
			}
		}
		fmt.Fprintf(ts.Stdout(), "%sexit %d\n", out, code)
		if len(r.errOut) > 0 {
			fmt.Fprintf(ts.Stderr(), "%s", r.errOut)
		}
	}
	if failed != neg {
		if neg {
			ts.Fatalf("no hook blocked")
		}
		ts.Fatalf("a hook blocked")
	}
}

// dirSnapshot is the regular files of a folder tree, with their modes and
// times, to put it back as it was.
type dirSnapshot struct {
	dir   string
	files map[string]snapFile // by path relative to dir
}

type snapFile struct {
	data  []byte
	mode  os.FileMode
	mtime time.Time
}

// snapshot reads the regular files under dir.
func snapshot(dir string) (*dirSnapshot, error) {
	s := &dirSnapshot{dir: dir, files: map[string]snapFile{}}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		s.files[rel] = snapFile{data, info.Mode().Perm(), info.ModTime()}
		return nil
	})
	return s, err
}

// restore removes dir and writes the files of the snapshot back, with
// their modes and times.
func (s *dirSnapshot) restore() error {
	if err := os.RemoveAll(s.dir); err != nil {
		return err
	}
	for rel, f := range s.files {
		p := filepath.Join(s.dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.data, f.mode); err != nil {
			return err
		}
		if err := os.Chtimes(p, f.mtime, f.mtime); err != nil {
			return err
		}
	}
	return nil
}

// cmdStatus runs a program as exec does and fails unless it exits with
// the given code; its stdout and stderr are kept for the next commands:
//
//	status CODE PROGRAM [ARGS...]
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	if ee, ok := err.(*exec.ExitError); ok {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("%s: %v", args[1], err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// cmdFreshForOneOf checks that the outputs in the current directory are
// exactly what a build with one of the argument lists, separated by "|",
// writes: "hookify check ARGS" exits 0 for one of them.
//
//	fresh-for-one-of ARGS... | ARGS...
func cmdFreshForOneOf(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! fresh-for-one-of")
	}
	var tried []string
	for len(args) > 0 {
		i := slices.Index(args, "|")
		if i < 0 {
			i = len(args)
		}
		check := append([]string{"check", "-C", ts.MkAbs(".")}, args[:i]...)
		if run(check, nil, io.Discard, io.Discard) == 0 {
			return
		}
		tried = append(tried, strings.Join(args[:i], " "))
		args = args[min(i+1, len(args)):]
	}
	ts.Fatalf("the outputs are not what a build with any of %q writes", tried)
}

// cmdPathdir makes DIR hold links to the named programs as the current
// PATH finds them, so that a test can set PATH=DIR and leave out the
// others:
//
//	pathdir DIR PROGRAM...
func cmdPathdir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: pathdir DIR PROGRAM...")
	}
	dir := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(dir, 0o755))
	for _, name := range args[1:] {
		found := ""
		for _, d := range filepath.SplitList(ts.Getenv("PATH")) {
			if st, err := os.Stat(filepath.Join(d, name)); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
				found = filepath.Join(d, name)
				break
			}
		}
		if found == "" {
			ts.Fatalf("%s is not on PATH", name)
		}
		ts.Check(os.Symlink(found, filepath.Join(dir, name)))
	}
}
