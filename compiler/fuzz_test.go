package compiler_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/hookify/hookify/compiler"
	"github.com/hookify/hookify/diag"
	"github.com/hookify/hookify/internal/testenv"
	"github.com/hookify/hookify/ir"
)

// fuzzOptions picks the compile options from one fuzzed byte.
func fuzzOptions(b byte) compiler.Options {
	var o compiler.Options
	if b&1 != 0 {
		o.Layout = ir.PerRule
	}
	if b&2 != 0 {
		o.Platform = compiler.Windows
	}
	if b&4 != 0 {
		o.Warn = ir.WarnAllow
	}
	o.NoPromptHooks = b&8 != 0
	return o
}

// FuzzCompile compiles one rule file (under its usual name, next to an
// existing hooks.json with a foreign entry) twice and checks that:
// Compile never panics; both results are identical; a result with errors
// has no files; every file is a clean path under .cursor/; every .sh script
// parses as POSIX sh (mvdan.cc/sh); and hooks.json is valid JSON that keeps
// the foreign entry.
func FuzzCompile(f *testing.F) {
	for i, s := range testenv.RuleSeeds(f) {
		f.Add(s, byte(i))
	}
	const foreign = `{"version":1,"hooks":{"stop":[{"command":"./mine.sh"}]}}`
	f.Fuzz(func(t *testing.T, src []byte, opt byte) {
		fsys := fstest.MapFS{
			".claude/hookify.fuzz.local.md": {Data: src, Mode: 0o644},
			".cursor/hooks.json":            {Data: []byte(foreign), Mode: 0o644},
		}
		opts := fuzzOptions(opt)
		a := compiler.Compile(fsys, opts)
		b := compiler.Compile(fsys, opts)
		// reflect.DeepEqual first: cmp.Diff is slow on megabytes of scripts.
		if !reflect.DeepEqual(a.Files, b.Files) {
			t.Fatalf("two compiles give different files (-first +second):\n%s", cmp.Diff(a.Files, b.Files))
		}
		if !reflect.DeepEqual(a.Diags, b.Diags) {
			t.Fatalf("two compiles give different diagnostics (-first +second):\n%s", cmp.Diff(a.Diags, b.Diags))
		}
		if !reflect.DeepEqual(a.Stale, b.Stale) {
			t.Fatalf("two compiles give different stale lists:\n%s", cmp.Diff(a.Stale, b.Stale))
		}
		if a.Diags.HasErrors() {
			if len(a.Files) != 0 {
				t.Fatalf("errors, and still %d files", len(a.Files))
			}
			return
		}
		sawHooks := false
		for _, file := range a.Files {
			if !fs.ValidPath(file.Path) || !strings.HasPrefix(file.Path, ".cursor/") {
				t.Fatalf("output path %q is not a clean path under .cursor/", file.Path)
			}
			switch {
			case file.Path == compiler.HooksJSON:
				sawHooks = true
				var v struct {
					Version int                          `json:"version"`
					Hooks   map[string][]json.RawMessage `json:"hooks"`
				}
				if err := json.Unmarshal(file.Data, &v); err != nil {
					t.Fatalf("hooks.json is not valid JSON: %v\n%s", err, file.Data)
				}
				if v.Version != 1 || !bytes.Contains(file.Data, []byte(`"./mine.sh"`)) {
					t.Fatalf("hooks.json lost the version or the foreign entry:\n%s", file.Data)
				}
			case strings.HasSuffix(file.Path, ".sh"):
				if !strings.HasPrefix(file.Path, ".cursor/hooks/hookify-") || strings.Count(file.Path, "/") != 2 {
					t.Fatalf("script path %q is not in .cursor/hooks/", file.Path)
				}
				p := syntax.NewParser(syntax.Variant(syntax.LangPOSIX))
				if _, err := p.Parse(bytes.NewReader(file.Data), file.Path); err != nil {
					t.Fatalf("%s does not parse as POSIX sh: %v\nrule file: %q", file.Path, err, src)
				}
			}
		}
		if !sawHooks {
			t.Fatal("no hooks.json in the output")
		}
	})
}

// TestCompileReadsOnlyRegularFiles: rule files and hooks.json are read only
// when they are regular files (symbolic links are followed). Before, a FIFO
// named like a rule file hung the build, a link to /dev/zero exhausted
// memory, and a dangling link said only "no such file or directory".
func TestCompileReadsOnlyRegularFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs mkfifo, /dev/zero and symbolic links")
	}
	const rule = "---\nname: ok\nevent: bash\npattern: sudo\n---\nCareful.\n"
	for _, tc := range []struct {
		name  string
		setup func(root string) error
		want  string
	}{
		{"fifo", func(root string) error {
			return mkfifo(t, filepath.Join(root, ".claude/hookify.p.local.md"))
		}, ".claude/hookify.p.local.md: error: cannot read: is not a regular file (a named pipe)"},
		{"device", func(root string) error {
			return os.Symlink("/dev/zero", filepath.Join(root, ".claude/hookify.z.local.md"))
		}, ".claude/hookify.z.local.md: error: cannot read: is not a regular file (a device)"},
		{"directory", func(root string) error {
			return os.Mkdir(filepath.Join(root, ".claude/hookify.d.local.md"), 0o755)
		}, ".claude/hookify.d.local.md: error: cannot read: is a directory, not a file"},
		{"dangling link", func(root string) error {
			return os.Symlink("../gone.md", filepath.Join(root, ".claude/hookify.g.local.md"))
		}, ".claude/hookify.g.local.md: error: cannot read: is a symbolic link to ../gone.md, which does not exist"},
		{"hooks.json fifo", func(root string) error {
			if err := os.Mkdir(filepath.Join(root, ".cursor"), 0o755); err != nil {
				return err
			}
			return mkfifo(t, filepath.Join(root, ".cursor/hooks.json"))
		}, ".cursor/hooks.json: error: cannot read: is not a regular file (a named pipe)"},
		{"followed link", func(root string) error {
			if err := os.WriteFile(filepath.Join(root, "shared.md"), []byte(rule), 0o644); err != nil {
				return err
			}
			return os.Symlink("../shared.md", filepath.Join(root, ".claude/hookify.l.local.md"))
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.Mkdir(filepath.Join(root, ".claude"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, ".claude/hookify.a.local.md"), []byte(rule), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := tc.setup(root); err != nil {
				t.Fatal(err)
			}
			done := make(chan *compiler.Result)
			go func() { done <- compiler.Compile(os.DirFS(root), compiler.Options{}) }()
			var res *compiler.Result
			select {
			case res = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("Compile did not return within 20 s")
			}
			var errs []string
			for _, d := range res.Diags {
				if d.Severity == diag.Error {
					errs = append(errs, d.String())
				}
			}
			if got := strings.Join(errs, "\n"); got != tc.want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, tc.want)
			}
			if tc.want == "" && len(res.Program.Rules) != 2 {
				t.Errorf("%d rules compiled, want 2 (the link is followed)", len(res.Program.Rules))
			}
		})
	}
}

// mkfifo makes a named pipe with the mkfifo command (the test stays
// portable to systems without syscall.Mkfifo).
func mkfifo(t testing.TB, name string) error {
	if out, err := testenv.Command(t, "mkfifo", name).CombinedOutput(); err != nil {
		return fmt.Errorf("mkfifo: %v: %s", err, out)
	}
	return nil
}

// TestSplitWarningDeterministic: when hookify's cut falls on a line with
// several keys (an inline "k: v, k: v" item), the upstream-split warning
// names the last key on the line, every time. Found by FuzzCompile: the
// key was picked in map order, so two builds could print different text.
func TestSplitWarningDeterministic(t *testing.T) {
	fsys := fstest.MapFS{".claude/hookify.x.local.md": {Data: []byte("---\n0:\n -:,0000:1C---\n---")}}
	for range 20 {
		res := compiler.Compile(fsys, compiler.Options{})
		found := false
		for _, d := range res.Diags {
			if d.Code == "upstream-split" {
				found = true
				if !strings.Contains(d.Msg, "it reads 0000 as `1C`") {
					t.Fatalf("upstream-split names the wrong key: %s", d.Msg)
				}
			}
		}
		if !found {
			t.Fatal("no upstream-split warning")
		}
	}
}

// TestCompileBadExplicitInputs: an explicit rule path that leaves the root
// said only "invalid argument"; a folder without rule files was a warning,
// so a wrong folder built zero rules and removed every generated hook.
func TestCompileBadExplicitInputs(t *testing.T) {
	fsys := fstest.MapFS{
		".claude/hookify.a.local.md": {Data: []byte("---\nname: a\nevent: bash\npattern: rm\n---\nNo.\n")},
		"empty/README.md":            {Data: []byte("not a rule")},
	}
	for _, tc := range []struct{ in, want string }{
		{"../a.md", "../a.md: error: cannot read: the path leaves the root; rule paths are relative to it\n"},
		{"empty", "empty: error: no hookify.*.local.md files in this folder\n"},
	} {
		res := compiler.Compile(fsys, compiler.Options{Inputs: []string{tc.in}})
		if got := res.Diags.String(); got != tc.want || len(res.Files) != 0 {
			t.Errorf("input %s: %d files, diagnostics\n%swant none and\n%s", tc.in, len(res.Files), got, tc.want)
		}
	}
}

// FuzzPerRuleNames builds up to six rules, named by the fuzzer, with
// --layout per-rule. Two rules whose scripts would be one file on a file
// system that folds case (macOS, Windows) must both be refused; otherwise
// every rule gets its own script, distinct from the others in any case.
func FuzzPerRuleNames(f *testing.F) {
	f.Add("Block RM\nblock-rm\ntidy")
	f.Add("a\nA\na!\nb")
	f.Add("x.y\nX.Y.\n-x.y-\nz")
	f.Fuzz(func(t *testing.T, list string) {
		names := strings.Split(list, "\n")
		if len(names) > 6 {
			names = names[:6]
		}
		fsys := fstest.MapFS{}
		for i, name := range names {
			src := fmt.Sprintf("---\nname: %s\nevent: bash\naction: block\npattern: rm\n---\nNo.\n", ir.JSONString(name))
			fsys[fmt.Sprintf(".claude/hookify.%d.local.md", i)] = &fstest.MapFile{Data: []byte(src), Mode: 0o644}
		}
		res := compiler.Compile(fsys, compiler.Options{Layout: ir.PerRule})
		refused := map[string]bool{}
		for _, d := range res.Diags {
			if d.Severity != diag.Error {
				continue
			}
			if d.Code != "duplicate-name" {
				t.Skipf("a name the parser refuses: %v", d)
			}
			refused[d.Pos.File] = true
		}
		for i := range names {
			for j := range i {
				if strings.EqualFold(ir.FileName(names[i]), ir.FileName(names[j])) {
					for _, k := range []int{i, j} {
						if file := fmt.Sprintf(".claude/hookify.%d.local.md", k); !refused[file] {
							t.Errorf("rules %q and %q give one script on a case-folding file system, and %s is not refused", names[j], names[i], file)
						}
					}
				}
			}
		}
		if len(refused) > 0 {
			return
		}
		scripts := map[string]string{}
		for _, file := range res.Files {
			if strings.HasSuffix(file.Path, ".sh") {
				if prev, dup := scripts[strings.ToLower(file.Path)]; dup {
					t.Errorf("scripts %s and %s are one file on a case-folding file system", prev, file.Path)
				}
				scripts[strings.ToLower(file.Path)] = file.Path
			}
		}
		if len(scripts) != len(names) {
			t.Errorf("%d rules give %d scripts", len(names), len(scripts))
		}
	})
}
