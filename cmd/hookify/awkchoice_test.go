package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookify/hookify/internal/testenv"
)

// TestScriptsPreferMawk: a generated script runs its program with mawk
// when mawk is on PATH, and with awk otherwise. Each PATH below holds only
// what the case names; a stub that fails stands in for the awk that must not
// run, so a script that picked it would give no answer and exit 1 (Cursor's
// failClosed then decides), and the test would see it.
func TestScriptsPreferMawk(t *testing.T) {
	sh := testenv.LookPath(t, "sh")
	real := map[string]string{}
	for _, n := range []string{"mawk", "gawk"} {
		real[n] = testenv.LookPath(t, n)
	}
	root := t.TempDir()
	rule := "---\nname: no-force\nevent: bash\naction: block\npattern: push\\s+--force\n---\nNo force pushes.\n"
	os.MkdirAll(filepath.Join(root, ".claude"), 0o755)
	if err := os.WriteFile(filepath.Join(root, ".claude/hookify.no-force.local.md"), []byte(rule), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if code := run([]string{"build", "-C", root}, nil, io.Discard, &stderr); code != 0 {
		t.Fatalf("build: exit %d\n%s", code, stderr.Bytes())
	}
	script := filepath.Join(root, ".cursor/hooks/hookify-beforeShellExecution.sh")
	stub := "#!/bin/sh\necho stub awk ran >&2\nexit 1\n"

	for _, c := range []struct {
		name string
		bin  map[string]string // name on PATH -> real program, or "" for the stub
		deny bool              // the script reads the payload (and denies it)
	}{
		{"mawk and a stub awk", map[string]string{"mawk": real["mawk"], "awk": ""}, true},
		{"gawk as awk, no mawk", map[string]string{"awk": real["gawk"]}, true},
		{"a stub awk, no mawk", map[string]string{"awk": ""}, false},
		{"a stub mawk and gawk as awk", map[string]string{"mawk": "", "awk": real["gawk"]}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			bin := t.TempDir()
			for name, target := range c.bin {
				var err error
				if target == "" {
					err = os.WriteFile(filepath.Join(bin, name), []byte(stub), 0o755)
				} else {
					err = os.Symlink(target, filepath.Join(bin, name))
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			cmd := testenv.Command(t, sh, "-c", script)
			cmd.Dir = root
			cmd.Env = []string{"PATH=" + bin}
			cmd.Stdin = strings.NewReader(`{"hook_event_name":"beforeShellExecution","command":"git push  --force","cwd":"/w"}`)
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			err := cmd.Run()
			code := 0 // a deny on stdout
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			want := 0
			if !c.deny {
				want = 1 // the stub's
			}
			if code != want {
				t.Fatalf("exit: %v, want %d\nstdout: %s\nstderr: %s", err, want, out.Bytes(), errOut.Bytes())
			}
			read := strings.Contains(out.String(), "No force pushes.")
			if read != c.deny || strings.Contains(errOut.String(), "stub awk ran") == c.deny {
				t.Errorf("decoded the payload: %v, want %v\nstdout: %s\nstderr: %s", read, c.deny, out.Bytes(), errOut.Bytes())
			}
		})
	}
}

// TestScriptsIgnoreEnvironment: with each awk, variables from the
// environment change no decision: named like the hooks' own (hk_*, the
// wrapper's hk_awk, the program's W, A, OK), or read by sh (ENV) or an awk
// (a UTF-8 locale, POSIXLY_CORRECT, AWKPATH): the wrapper sets what it
// reads, and LC_ALL=C.
func TestScriptsIgnoreEnvironment(t *testing.T) {
	sh := testenv.LookPath(t, "sh")
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".claude"), 0o755)
	rules := map[string]string{
		"env":   "---\nname: env\nevent: file\naction: block\nconditions:\n  - field: file_path\n    operator: regex_match\n    pattern: \\.env$\n---\nNo env files.\n",
		"force": "---\nname: force\nevent: bash\naction: block\npattern: push\\s+--force\n---\nNo force pushes.\n",
	}
	for name, text := range rules {
		if err := os.WriteFile(filepath.Join(root, ".claude/hookify."+name+".local.md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stderr bytes.Buffer
	if code := run([]string{"build", "-C", root}, nil, io.Discard, &stderr); code != 0 {
		t.Fatalf("build: exit %d\n%s", code, stderr.Bytes())
	}
	// Variables the old bash scripts used, the awk program's own names, and
	// what changes how an awk reads its program: a locale in which gawk
	// reads bytes as characters, gawk's POSIX mode, a search path.
	env := []string{"hk_ok=1", "hk_blocked=", "hk_warned=", "hk_h=0", "hk_e=touch pwned", "hk_o=        touch pwned",
		"W=command", "A=1", "OK=1", "hk_awk=/bin/false", "LC_ALL=C.UTF-8", "LANG=tr_TR.UTF-8", "POSIXLY_CORRECT=1",
		"AWKPATH=" + root, "AWKLIBPATH=" + root, "ENV=" + filepath.Join(root, "pwned-env")}
	for _, v := range []string{"hk_v1", "hk_v2", "hk_v3"} {
		env = append(env, v+"=hk_none", v+"_unset=1")
	}
	for i := 1; i <= 9; i++ {
		env = append(env, fmt.Sprintf("hk_%d=stale", i), fmt.Sprintf("hk_re%d=^$", i), fmt.Sprintf("hk_n%d=zzzz", i), fmt.Sprintf("hk_p%d=zzzz", i), fmt.Sprintf("hk_d%d=", i))
	}
	for _, awk := range testenv.Awks {
		env := append(env, "PATH="+testenv.AwkDir(t, awk))
		for _, c := range []struct{ script, payload, want string }{
			{"hookify-preToolUse.sh", `{"hook_event_name":"preToolUse","tool_name":"Write","tool_input":{"file_path":"/w/.env","content":"x"}}`, "No env files."},
			{"hookify-beforeShellExecution.sh", `{"hook_event_name":"beforeShellExecution","command":"git push --force","cwd":"/w"}`, "No force pushes."},
		} {
			cmd := testenv.Command(t, sh, "-c", filepath.Join(root, ".cursor/hooks", c.script))
			cmd.Dir = root
			cmd.Env = env
			cmd.Stdin = strings.NewReader(c.payload)
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			err := cmd.Run()
			if err != nil || !strings.Contains(out.String(), `"permission":"deny"`) || !strings.Contains(out.String(), c.want) {
				t.Errorf("%s with %s: %v\nstdout: %s\nstderr: %s", c.script, awk, err, out.Bytes(), errOut.Bytes())
			}
			if _, err := os.Stat(filepath.Join(root, "pwned")); err == nil {
				t.Fatalf("%s: a variable from the environment ran as code", c.script)
			}
		}
	}
}
