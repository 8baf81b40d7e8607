package eval

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hookify/hookify/codegen/bash"
	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/ir"
)

// hasIntervals reports whether the awk of dir reads {n,m} as an interval
// (Debian 12's mawk does not: docs/awk-engines.md §2).
func hasIntervals(t *testing.T, dir string) bool {
	cmd := testenv.Command(t, filepath.Join(dir, "awk"), `BEGIN { exit !("aa" ~ "^a{2}$") }`)
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return err == nil
}

// needsIntervals reports whether the unit of h keeps an interval
// (bash.KeepsIntervals): its program then needs an awk that has intervals.
func needsIntervals(plan *ir.Cursor, h *ir.Hook) bool {
	for _, u := range plan.Units {
		if slices.Contains(u.Hooks, h) {
			return bash.KeepsIntervals(u)
		}
	}
	return false
}

// TestIntervalFallback: a regex whose interval cannot be written out for
// mawk (pyre.AWK) makes its hook prefer gawk, and an awk without intervals
// answers as on an unreadable payload (failing closed where a block rule
// is), with a line on stderr that names the fix; an awk with them decides
// as the evaluator does.
func TestIntervalFallback(t *testing.T) {
	fsys := fstest.MapFS{
		".claude/hookify.long.local.md": {Data: []byte("---\nname: long\nevent: bash\naction: block\npattern: 'rm -r[a-z]{0,200}f'\n---\nNo.\n")},
	}
	p := compileProject(t, fsys, "intervals", nil, ir.PerEvent, ir.WarnContext)
	if p == nil {
		t.Fatal("the rule does not compile")
	}
	h := Hooks(p.plan, ir.BeforeShellExecution)[0]
	if !needsIntervals(p.plan, h) {
		t.Fatal("the regex has no interval left: make its count larger than pyre.AWK writes out")
	}
	fail := Hook(h, []byte("not JSON"), Env{}) // the answer on an unreadable payload
	for _, awk := range testenv.Awks {
		dir := testenv.AwkDir(t, awk)
		iv := hasIntervals(t, dir)
		for _, cmdline := range []string{"rm -rf /", "rm -r" + strings.Repeat("x", 150) + "f", "ls"} {
			raw := []byte(`{"hook_event_name":"beforeShellExecution","command":` + ir.JSONString(cmdline) + `}`)
			want := Hook(h, raw, Env{})
			if !iv {
				want = fail
			}
			out, errOut, code := runHook(t, p.root, raw, "PATH="+dir)
			if !bytes.Equal(out, want.Answer) || code != want.Exit {
				t.Errorf("%s (intervals %v), %q: %q exit %d, want %q exit %d", awk, iv, cmdline, out, code, want.Answer, want.Exit)
			}
			if hint := "install gawk"; iv == strings.Contains(string(errOut), hint) {
				t.Errorf("%s (intervals %v): stderr %q, want %q in it only without intervals", awk, iv, errOut, hint)
			}
		}
	}
	// With mawk and gawk both installed, the hook runs gawk.
	bin := t.TempDir()
	for _, name := range []string{"mawk", "gawk"} {
		if err := os.Symlink(testenv.LookPath(t, name), filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	raw := []byte(`{"hook_event_name":"beforeShellExecution","command":"rm -rf /"}`)
	out, _, _ := runHook(t, p.root, raw, "PATH="+bin)
	if want := Hook(h, raw, Env{}); !bytes.Equal(out, want.Answer) || want.Outcome != ir.Blocked {
		t.Errorf("mawk and gawk on PATH: %q, want %q (blocked)", out, want.Answer)
	}
}
