package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestAwkDir: "awk", "mawk" and "gawk" in the directory all run the awk,
// "tr" is tr, and nothing else is there.
func TestAwkDir(t *testing.T) {
	for _, a := range Awks {
		t.Run(string(a), func(t *testing.T) {
			dir := AwkDir(t, a)
			entries, err := os.ReadDir(dir)
			if err != nil || len(entries) != 4 {
				t.Fatalf("%s holds %v (%v), want awk, gawk, mawk and tr", dir, entries, err)
			}
			tr := Command(t, filepath.Join(dir, "tr"), "a", "b")
			tr.Stdin = strings.NewReader("a")
			if out, err := tr.CombinedOutput(); err != nil || string(out) != "b" {
				t.Errorf("tr: %q, %v", out, err)
			}
			for _, name := range []string{"awk", "mawk", "gawk"} {
				cmd := Command(t, filepath.Join(dir, name), "BEGIN { printf \"%d\", 6 * 7 }")
				cmd.Env = []string{"PATH=" + dir}
				if out, err := cmd.CombinedOutput(); err != nil || string(out) != "42" {
					t.Errorf("%s: %q, %v", name, out, err)
				}
			}
		})
	}
}

// fakeT records what LookPath, OptionalTool and CorpusDir do to a test.
type fakeT struct {
	testing.TB
	skipped, failed string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Skipf(format string, args ...any) {
	f.skipped = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// call runs fn on a fakeT in a goroutine of its own (Skipf and Fatalf end
// it) and returns the fakeT.
func call(t *testing.T, fn func(testing.TB)) *fakeT {
	f := &fakeT{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
	}()
	<-done
	return f
}

// TestMissingTool: a missing tool skips, and fails under its variable;
// pwsh has a variable of its own.
func TestMissingTool(t *testing.T) {
	const tool = "hookify-no-such-tool"
	for _, c := range []struct {
		name, tools, pwsh string
		fail              bool
	}{
		{tool, "", "", false},
		{tool, "1", "", true},
		{tool, "", "1", false},
		{"pwsh", "1", "", false},
		{"pwsh", "", "1", true},
	} {
		t.Setenv("HOOKIFY_REQUIRE_TOOLS", c.tools)
		t.Setenv("HOOKIFY_REQUIRE_PWSH", c.pwsh)
		t.Setenv("PATH", t.TempDir())
		f := call(t, func(tb testing.TB) { LookPath(tb, c.name) })
		if c.fail != (f.failed != "") || c.fail == (f.skipped != "") || !strings.Contains(f.skipped+f.failed, c.name+" is not on PATH") {
			t.Errorf("%s with TOOLS=%q PWSH=%q: skipped %q, failed %q", c.name, c.tools, c.pwsh, f.skipped, f.failed)
		}
		var got string
		f = call(t, func(tb testing.TB) { got = OptionalTool(tb, c.name) })
		if got != "" || c.fail != (f.failed != "") || f.skipped != "" {
			t.Errorf("OptionalTool(%s) with TOOLS=%q PWSH=%q: %q, skipped %q, failed %q", c.name, c.tools, c.pwsh, got, f.skipped, f.failed)
		}
	}
}

// TestCorpus: HOOKIFY_CORPUS names the folder that holds hookify-rules/,
// relative to the module root; without rule files there the test skips,
// and fails under HOOKIFY_REQUIRE_CORPUS=1.
func TestCorpus(t *testing.T) {
	dir := t.TempDir()
	rules := filepath.Join(dir, "hookify-rules")
	if err := os.MkdirAll(rules, 0o755); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(ModuleRoot(t), dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, require := range []string{"", "1"} {
		t.Setenv("HOOKIFY_REQUIRE_CORPUS", require)
		for _, v := range []string{dir, rel} {
			t.Setenv("HOOKIFY_CORPUS", v)
			f := call(t, func(tb testing.TB) { CorpusDir(tb) })
			if (require == "1") != (f.failed != "") || (require == "") != (f.skipped != "") || !strings.Contains(f.skipped+f.failed, rules) {
				t.Errorf("HOOKIFY_CORPUS=%s, REQUIRE=%q, empty: skipped %q, failed %q", v, require, f.skipped, f.failed)
			}
			var got []string
			f = call(t, func(tb testing.TB) { got = SomeCorpusRules(tb) })
			if got != nil || (require == "1") != (f.failed != "") || f.skipped != "" {
				t.Errorf("SomeCorpusRules with HOOKIFY_CORPUS=%s, REQUIRE=%q, empty: %q, skipped %q, failed %q", v, require, got, f.skipped, f.failed)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(rules, "a.md"), []byte("---\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOOKIFY_CORPUS", rel)
	var got []string
	f := call(t, func(tb testing.TB) { got = CorpusRules(tb) })
	if f.skipped != "" || f.failed != "" || len(got) != 1 || got[0] != filepath.Join(rules, "a.md") {
		t.Errorf("CorpusRules: %q, skipped %q, failed %q", got, f.skipped, f.failed)
	}
}

// TestHave: Have finds a tool, and says a missing one is an error only
// under its variable.
func TestHave(t *testing.T) {
	t.Setenv("HOOKIFY_REQUIRE_PWSH", "")
	if ok, err := Have("sh"); !ok || err != nil {
		t.Errorf("Have(sh) = %v, %v", ok, err)
	}
	t.Setenv("PATH", t.TempDir())
	if ok, err := Have("pwsh"); ok || err != nil {
		t.Errorf("Have(pwsh) without it = %v, %v; want false, nil", ok, err)
	}
	t.Setenv("HOOKIFY_REQUIRE_PWSH", "1")
	if ok, err := Have("pwsh"); ok || err == nil || !strings.Contains(err.Error(), "HOOKIFY_REQUIRE_PWSH=1") {
		t.Errorf("Have(pwsh) without it, required = %v, %v; want false and an error", ok, err)
	}
}
