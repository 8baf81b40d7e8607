// Package testenv is what the tests need from outside the Go module: the
// external tools they start (the four awks, bash, python3, node, Mono, pwsh),
// always with a timeout, and the corpus of real rule files. See the README,
// "Running the tests".
//
// A test whose tool or corpus is missing skips and says which one and how
// to get it. Two variables turn those skips into failures, so that CI
// (.ci/run sets both) can never pass by running less, in the spirit of
// mvdan/sh's REQUIRE_SHELLS:
//
//	HOOKIFY_REQUIRE_TOOLS=1   every tool but pwsh must be there
//	HOOKIFY_REQUIRE_PWSH=1    pwsh must be there too
//	HOOKIFY_REQUIRE_CORPUS=1  the corpus must be there
//
// HOOKIFY_CORPUS names the corpus folder (the one that holds hookify-rules/);
// relative to the module root, it defaults to ../shared/corpus.
package testenv

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

// Timeout bounds every process a test starts through this package.
const Timeout = 5 * time.Minute

// install says how to get each tool the tests use.
var install = map[string]string{
	"bash":         "apt-get install bash",
	"dash":         "apt-get install dash",
	"mawk":         "apt-get install mawk",
	"gawk":         "apt-get install gawk",
	"original-awk": "apt-get install original-awk",
	"busybox":      "apt-get install busybox",
	"python3":      "apt-get install python3",
	"node":         "apt-get install nodejs npm",
	"mcs":          "apt-get install mono-mcs",
	"mono":         "apt-get install mono-mcs",
	"pwsh":         "no Debian or npm package ships it; see the README, Windows",
}

// missing skips t, or fails it when the variable require is set to 1.
func missing(t testing.TB, require, what string) {
	t.Helper()
	if os.Getenv(require) == "1" {
		t.Fatalf("%s (%s=1 requires it)", what, require)
	}
	t.Skipf("SKIPPED: %s (set %s=1 to make this a failure)", what, require)
}

// LookPath returns the path of the named tool, or skips the test when it is
// not on PATH (fails it under HOOKIFY_REQUIRE_TOOLS=1, or, for pwsh,
// HOOKIFY_REQUIRE_PWSH=1).
func LookPath(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		require, what := absentTool(name)
		missing(t, require, what)
	}
	return p
}

// Have reports whether the named tool is on PATH, for a caller without a
// test at hand (a testscript condition); err is set when the tool is
// missing and its variable requires it.
func Have(name string) (ok bool, err error) {
	if _, err := exec.LookPath(name); err == nil {
		return true, nil
	}
	if require, what := absentTool(name); os.Getenv(require) == "1" {
		return false, errors.New(what + " (" + require + "=1 requires it)")
	}
	return false, nil
}

// OptionalTool is LookPath for a tool that only adds checks to a test
// that runs without it: it returns "" when the tool is missing, and fails
// the test only under the variable that requires the tool.
func OptionalTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if require, what := absentTool(name); os.Getenv(require) == "1" {
			t.Fatalf("%s (%s=1 requires it)", what, require)
		}
	}
	return p
}

// absentTool returns the variable that requires the named tool, and a
// sentence that says it is missing and how to install it.
func absentTool(name string) (require, what string) {
	require = "HOOKIFY_REQUIRE_TOOLS"
	if name == "pwsh" {
		require = "HOOKIFY_REQUIRE_PWSH"
	}
	how := install[name]
	if how == "" {
		how = "install it"
	}
	return require, name + " is not on PATH (" + how + "; .ci/setup installs what it can)"
}

// Command is exec.CommandContext for the named tool (looked up as LookPath
// does), killed when the test ends or after Timeout.
func Command(t testing.TB, name string, args ...string) *exec.Cmd {
	t.Helper()
	if filepath.Base(name) == name {
		name = LookPath(t, name)
	}
	ctx, cancel := context.WithTimeout(t.Context(), Timeout)
	t.Cleanup(cancel)
	return command(ctx, name, args...)
}

// CommandTimeout is Command for a process that is not one test's: a server
// that several tests share, or a command of a testscript. It is killed
// after d, or when stop is called. path is the program's path (LookPath).
func CommandTimeout(d time.Duration, path string, args ...string) (cmd *exec.Cmd, stop context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	return command(ctx, path, args...), cancel
}

func command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	// A killed shell's children may hold its output open; stop waiting
	// for them soon after.
	cmd.WaitDelay = 10 * time.Second
	return cmd
}

// Awk is one of the awk implementations the generated scripts must work
// with (README, "Install"): the command that runs it.
type Awk string

// Awks lists them.
var Awks = []Awk{"mawk", "gawk", "original-awk", "busybox"}

// AwkDir returns a new directory that holds "awk", "mawk" and "gawk", all
// running a (busybox through its awk applet), and "tr". Put it first on a
// script's PATH: the generated wrappers run mawk where it is on PATH (gawk,
// for hooks whose regexes need intervals) and awk otherwise, so every name
// must stand for the awk under test; a hook that reads a transcript runs tr
// (codegen/bash). It skips or fails the test like LookPath when a is not
// installed.
func AwkDir(t testing.TB, a Awk) string {
	t.Helper()
	bin := LookPath(t, string(a))
	tr := LookPath(t, "tr")
	dir := t.TempDir()
	// busybox picks its applet from the name it runs under: "awk" is one.
	if err := os.Symlink(bin, filepath.Join(dir, "awk")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(tr, filepath.Join(dir, "tr")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"mawk", "gawk"} {
		var err error
		if a == "busybox" {
			err = os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\nexec "+filepath.Join(dir, "awk")+" \"$@\"\n"), 0o755)
		} else {
			err = os.Symlink(bin, filepath.Join(dir, name))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var (
	rootOnce sync.Once
	root     string
)

// ModuleRoot returns the directory that holds go.mod, found upwards from
// the test's working directory (its package's directory).
func ModuleRoot(t testing.TB) string {
	t.Helper()
	rootOnce.Do(func() {
		dir, err := os.Getwd()
		if err != nil {
			return
		}
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				root = dir
				return
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				return
			}
			dir = parent
		}
	})
	if root == "" {
		t.Fatal("no go.mod above the test's working directory")
	}
	return root
}

// corpusDir is the folder of real rule files, and whether it holds any.
func corpusDir(t testing.TB) (string, bool) {
	t.Helper()
	dir := os.Getenv("HOOKIFY_CORPUS")
	if dir == "" {
		dir = filepath.Join("..", "shared", "corpus")
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(ModuleRoot(t), dir)
	}
	dir = filepath.Join(dir, "hookify-rules")
	m, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	return dir, len(m) > 0
}

// CorpusDir returns the folder of the real-rule corpus: the rule files
// (*.md) and SOURCES.tsv, which names each file's repository and path.
// When it holds no rule file the test skips, saying where it looked (fails
// under HOOKIFY_REQUIRE_CORPUS=1).
func CorpusDir(t testing.TB) string {
	t.Helper()
	dir, ok := corpusDir(t)
	if !ok {
		missing(t, "HOOKIFY_REQUIRE_CORPUS", absent(dir))
	}
	return dir
}

func absent(dir string) string {
	return "the real-rule corpus is not in " + dir + " (HOOKIFY_CORPUS names the folder that holds hookify-rules/; default ../shared/corpus from the module root)"
}

// CorpusRules returns the rule files of the corpus, sorted, skipping the
// test like CorpusDir when there are none.
func CorpusRules(t testing.TB) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(CorpusDir(t), "*.md"))
	return m
}

// SomeCorpusRules is CorpusRules for a test that also runs without the
// corpus (with fuzz seeds of its own, say): it returns nil and logs that
// the corpus was not used (fails under HOOKIFY_REQUIRE_CORPUS=1).
func SomeCorpusRules(t testing.TB) []string {
	t.Helper()
	dir, ok := corpusDir(t)
	if !ok {
		if os.Getenv("HOOKIFY_REQUIRE_CORPUS") == "1" {
			t.Fatalf("%s (HOOKIFY_REQUIRE_CORPUS=1 requires it)", absent(dir))
		}
		t.Logf("NOT USED: %s", absent(dir))
		return nil
	}
	m, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	return m
}

// PSParse returns the command line (node first) that runs the tree-sitter
// PowerShell syntax check, codegen/powershell/testdata/psparse/psparse.mjs,
// with args. It skips or fails the test like LookPath when node or the npm
// packages that .ci/setup installs there are missing.
func PSParse(t testing.TB, args ...string) []string {
	t.Helper()
	node := LookPath(t, "node")
	dir := filepath.Join(ModuleRoot(t), "codegen", "powershell", "testdata", "psparse")
	for _, pkg := range []string{"web-tree-sitter", "tree-sitter-powershell"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg, "package.json")); err != nil {
			missing(t, "HOOKIFY_REQUIRE_TOOLS", "npm package "+pkg+" is missing in "+dir+" (run \"npm ci --ignore-scripts\" there; .ci/setup does)")
		}
	}
	return append([]string{node, "--liftoff-only", filepath.Join(dir, "psparse.mjs")}, args...)
}

// RuleSeeds returns the rule files of the golden archives
// (golden/testdata/*.txtar) and of the real-rule corpus (when it is there:
// SomeCorpusRules), as fuzz seeds.
func RuleSeeds(t testing.TB) [][]byte {
	t.Helper()
	var seeds [][]byte
	archives, _ := filepath.Glob(filepath.Join(ModuleRoot(t), "golden", "testdata", "*.txtar"))
	for _, name := range archives {
		a, err := txtar.ParseFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasPrefix(f.Name, ".claude/") {
				seeds = append(seeds, f.Data)
			}
		}
	}
	for _, name := range SomeCorpusRules(t) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, data)
	}
	if len(seeds) == 0 {
		t.Fatal("no seed rule files found")
	}
	return seeds
}
