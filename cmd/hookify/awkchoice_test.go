package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestScriptsPreferMawk: a generated script decodes the payload with mawk
// when mawk is on PATH, and with awk otherwise. Each PATH below holds only
// what the case names; a stub that fails stands in for the awk that must not
// run, so a script that picked it would fail closed and the test would see it.
func TestScriptsPreferMawk(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is required: ", err)
	}
	real := map[string]string{}
	for _, n := range []string{"mawk", "gawk"} {
		p, err := exec.LookPath(n)
		if err != nil {
			t.Fatalf("%s is required (.ci/setup installs it): %v", n, err)
		}
		real[n] = p
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
			cmd := exec.Command(bash, script)
			cmd.Dir = root
			cmd.Env = []string{"PATH=" + bin}
			cmd.Stdin = strings.NewReader(`{"hook_event_name":"beforeShellExecution","command":"git push  --force","cwd":"/w"}`)
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			err := cmd.Run()
			ee, _ := err.(*exec.ExitError)
			if ee == nil || ee.ExitCode() != 2 {
				t.Fatalf("exit: %v, want 2 (deny)\nstdout: %s\nstderr: %s", err, out.Bytes(), errOut.Bytes())
			}
			read := strings.Contains(out.String(), "No force pushes.")
			if read != c.deny || strings.Contains(errOut.String(), "stub awk ran") == c.deny {
				t.Errorf("decoded the payload: %v, want %v\nstdout: %s\nstderr: %s", read, c.deny, out.Bytes(), errOut.Bytes())
			}
		})
	}
}
